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
package dev.followerfetch.observation;

import java.util.regex.Pattern;

/**
 * A failure in one line for the health details and the logs: the exception's class and
 * message, with runs of white space made one space, control and format characters
 * removed (a message can carry what a broker, a library or a metadata endpoint sent), and
 * at most {@value #MAX_LENGTH} characters.
 *
 * @author follower-fetch authors
 */
final class FailureText {

	static final int MAX_LENGTH = 300;

	private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

	private static final Pattern INVISIBLE = Pattern.compile("[\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Cs}]");

	private FailureText() {
	}

	/**
	 * One failure, in one line.
	 * @param ex the failure
	 * @return its class's simple name and its message
	 */
	static String of(Throwable ex) {
		String message = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
		String text = ex.getClass().getSimpleName() + ": " + message;
		text = INVISIBLE.matcher(WHITE_SPACE.matcher(text).replaceAll(" ")).replaceAll("").strip();
		if (text.length() <= MAX_LENGTH) {
			return text;
		}
		int end = MAX_LENGTH - 3;
		return text.substring(0, Character.isHighSurrogate(text.charAt(end - 1)) ? end - 1 : end) + "...";
	}

}
