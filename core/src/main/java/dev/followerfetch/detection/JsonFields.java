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

import org.jspecify.annotations.Nullable;

/**
 * Reads one string field of a JSON object, at the top level or through nested objects,
 * without a JSON library on the classpath. Strict about syntax, bounded in nesting depth.
 * Kept over Boot's {@code JsonParserFactory} for start-up: the first parse of an ECS task
 * document in a fresh JVM takes about 3 ms here against 224 ms with Jackson and 31 ms
 * with {@code BasicJsonParser} ({@code JsonParsingBenchmark}, docs/benchmarks.md).
 *
 * @author follower-fetch authors
 */
final class JsonFields {

	private static final int MAX_DEPTH = 64;

	private final String json;

	private int position;

	private JsonFields(String json) {
		this.json = json;
	}

	/**
	 * The value of a string field reached through nested objects, for example
	 * {@code metadata}, {@code labels}, {@code topology.kubernetes.io/zone}.
	 * @param json a JSON object
	 * @param path the field names, outermost first
	 * @return the value, or {@code null} if a field on the path is absent or not of the
	 * type the path needs
	 * @throws IllegalArgumentException if the text is not a JSON object
	 */
	static @Nullable String string(String json, String... path) {
		if (path.length == 0) {
			throw new IllegalArgumentException("no field named");
		}
		JsonFields parser = new JsonFields(json);
		String value = parser.findInObject(path, 0);
		parser.skipWhitespace();
		if (parser.position != json.length()) {
			throw parser.error("trailing content");
		}
		return value;
	}

	private @Nullable String findInObject(String[] path, int depth) {
		if (depth > MAX_DEPTH) {
			throw error("nested deeper than " + MAX_DEPTH);
		}
		skipWhitespace();
		expect('{');
		String found = null;
		skipWhitespace();
		if (peek() == '}') {
			this.position++;
			return null;
		}
		boolean last = depth == path.length - 1;
		while (true) {
			skipWhitespace();
			String name = readString();
			skipWhitespace();
			expect(':');
			skipWhitespace();
			if (name.equals(path[depth]) && last && peek() == '"') {
				found = readString();
			}
			else if (name.equals(path[depth]) && !last && peek() == '{') {
				String nested = findInObject(path, depth + 1);
				if (nested != null) {
					found = nested;
				}
			}
			else {
				skipValue(depth + 1);
			}
			skipWhitespace();
			char next = next();
			if (next == '}') {
				return found;
			}
			if (next != ',') {
				throw error("expected ',' or '}'");
			}
		}
	}

	private void skipValue(int depth) {
		if (depth > MAX_DEPTH) {
			throw error("nested deeper than " + MAX_DEPTH);
		}
		char c = peek();
		switch (c) {
			case '"' -> readString();
			case '{' -> skipContainer('{', '}', true, depth);
			case '[' -> skipContainer('[', ']', false, depth);
			default -> skipLiteral();
		}
	}

	private void skipContainer(char open, char close, boolean object, int depth) {
		expect(open);
		skipWhitespace();
		if (peek() == close) {
			this.position++;
			return;
		}
		while (true) {
			skipWhitespace();
			if (object) {
				readString();
				skipWhitespace();
				expect(':');
				skipWhitespace();
			}
			skipValue(depth + 1);
			skipWhitespace();
			char next = next();
			if (next == close) {
				return;
			}
			if (next != ',') {
				throw error("expected ',' or '" + close + "'");
			}
		}
	}

	private void skipLiteral() {
		int start = this.position;
		while (this.position < this.json.length() && "+-.0123456789eEtrufalsn".indexOf(peek()) >= 0) {
			this.position++;
		}
		String literal = this.json.substring(start, this.position);
		if (!literal.equals("true") && !literal.equals("false") && !literal.equals("null")
				&& !literal.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
			throw error("unexpected value");
		}
	}

	private String readString() {
		expect('"');
		StringBuilder value = new StringBuilder();
		while (true) {
			char c = next();
			if (c == '"') {
				return value.toString();
			}
			if (c < 0x20) {
				throw error("control character in string");
			}
			if (c != '\\') {
				value.append(c);
				continue;
			}
			char escaped = next();
			switch (escaped) {
				case '"', '\\', '/' -> value.append(escaped);
				case 'b' -> value.append('\b');
				case 'f' -> value.append('\f');
				case 'n' -> value.append('\n');
				case 'r' -> value.append('\r');
				case 't' -> value.append('\t');
				case 'u' -> value.append(readUnicodeEscape());
				default -> throw error("invalid escape");
			}
		}
	}

	private char readUnicodeEscape() {
		if (this.position + 4 > this.json.length()) {
			throw error("truncated escape");
		}
		int value = 0;
		for (int i = 0; i < 4; i++) {
			char c = next();
			int digit = (c < 0x80) ? Character.digit(c, 16) : -1;
			if (digit < 0) {
				throw error("invalid escape");
			}
			value = value * 16 + digit;
		}
		return (char) value;
	}

	private void skipWhitespace() {
		while (this.position < this.json.length() && " \t\r\n".indexOf(this.json.charAt(this.position)) >= 0) {
			this.position++;
		}
	}

	private void expect(char expected) {
		if (next() != expected) {
			throw error("expected '" + expected + "'");
		}
	}

	private char peek() {
		if (this.position >= this.json.length()) {
			throw error("unexpected end");
		}
		return this.json.charAt(this.position);
	}

	private char next() {
		char c = peek();
		this.position++;
		return c;
	}

	private IllegalArgumentException error(String problem) {
		return new IllegalArgumentException(problem + " at offset " + this.position);
	}

}
