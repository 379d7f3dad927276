/*
 * Copyright 2026 the follower-fetch authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.followerfetch;

import org.jspecify.annotations.Nullable;

/**
 * The Spring Boot line this adapter is built for, checked against the running one before
 * anything else: each starter is built for one line (the shared sources with that line's
 * own, {@code BuiltFor} among them), and on another its health contributor would be left
 * out without a word. Public for the adapter's packages only.
 *
 * @author follower-fetch authors
 */
public final class BootLine {

	/**
	 * The major version of Spring Boot this adapter is built for.
	 */
	public static final int MAJOR = BuiltFor.BOOT_MAJOR;

	private BootLine() {
	}

	/**
	 * Fail when the application runs another major version of Spring Boot.
	 * @param bootVersion the running Spring Boot's version, {@code null} when unknown
	 * @throws IllegalStateException naming the starter to use instead
	 */
	public static void requireRunning(@Nullable String bootVersion) {
		if (bootVersion == null || bootVersion.startsWith(MAJOR + ".")) {
			return;
		}
		int running;
		try {
			running = Integer.parseInt(bootVersion.substring(0, bootVersion.indexOf('.')));
		}
		catch (RuntimeException ex) {
			return;
		}
		throw new IllegalStateException(starter(MAJOR) + " is built for Spring Boot " + MAJOR
				+ ".x, and this application runs Spring Boot " + bootVersion + ": use " + starter(running)
				+ " instead (the same properties, annotation, health and meters)");
	}

	static String starter(int major) {
		return (major >= 4) ? "follower-fetch-spring-boot-starter" : "follower-fetch-spring-boot3-starter";
	}

}
