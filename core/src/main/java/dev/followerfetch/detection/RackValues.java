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

import dev.followerfetch.ClientRack;

/**
 * Rules for a valid rack value, and safe rendering of values that break them.
 *
 * @author follower-fetch authors
 */
final class RackValues {

	static final int MAX_LENGTH = ClientRack.MAX_LENGTH;

	static final String RULE = ClientRack.RULE;

	static final String RULE_NOTE = " (a rack is " + RULE + ")";

	private static final int QUOTE_LIMIT = 40;

	private RackValues() {
	}

	/**
	 * Trim and check a raw rack value.
	 * @param raw the value as read
	 * @return the trimmed value
	 * @throws IllegalArgumentException naming the value and the rule it breaks
	 */
	static String validate(String raw) {
		if (raw == null) {
			throw new IllegalArgumentException("no value");
		}
		String value = raw.strip();
		if (value.isEmpty()) {
			throw new IllegalArgumentException("empty value");
		}
		if (value.length() > MAX_LENGTH) {
			throw new IllegalArgumentException("value " + quote(value) + " is longer than " + MAX_LENGTH + " characters");
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (!ClientRack.isAllowed(c)) {
				throw new IllegalArgumentException(
						"value " + quote(value) + " has a disallowed character at position " + (i + 1) + RULE_NOTE);
			}
		}
		return value;
	}

	/**
	 * Render an untrusted value for a log line or a message: quoted, control and non-ASCII
	 * characters escaped, and cut to a short length.
	 * @param value the value
	 * @return the quoted value
	 */
	static String quote(String value) {
		if (value == null) {
			return "null";
		}
		StringBuilder quoted = new StringBuilder("\"");
		int limit = Math.min(value.length(), QUOTE_LIMIT);
		for (int i = 0; i < limit; i++) {
			char c = value.charAt(i);
			if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
				quoted.append(c);
			}
			else {
				quoted.append(String.format("\\u%04x", (int) c));
			}
		}
		quoted.append('"');
		if (value.length() > QUOTE_LIMIT) {
			quoted.append("... (").append(value.length()).append(" characters)");
		}
		return quoted.toString();
	}

}
