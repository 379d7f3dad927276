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
package dev.followerfetch.detection;

/**
 * The words detection uses for a failure it reports on one line: a metadata request that
 * failed, or brokers whose racks could not be read. Each caller folds the line breaks of
 * the result its own way.
 *
 * @author follower-fetch authors
 */
final class FailureMessages {

	private FailureMessages() {
	}

	/**
	 * The message of a failure, or the simple name of its class when it has none.
	 * @param ex the failure
	 * @return the message, line breaks and all
	 */
	static String of(Throwable ex) {
		return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
	}

}
