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

/**
 * The Spring Boot line of this adapter's source tree: the sources shared by both lines
 * compile with the Boot 4 line's own files, this one among them.
 *
 * @author follower-fetch authors
 */
final class BuiltFor {

	/**
	 * The major version of Spring Boot these sources are built for.
	 */
	static final int BOOT_MAJOR = 4;

	private BuiltFor() {
	}

}
