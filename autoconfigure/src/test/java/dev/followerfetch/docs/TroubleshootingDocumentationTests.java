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
package dev.followerfetch.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/troubleshooting.md} claiming every message the starter logs at INFO,
 * WARN or ERROR: each logger call's longest literal text (its stable key phrase) must be
 * quoted there.
 *
 * @author follower-fetch authors
 */
class TroubleshootingDocumentationTests {

	private static final Pattern LOGGER_CALL = Pattern.compile("logger\\.(info|warn|error)\\(");

	private static final Pattern LITERAL = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

	private static final int KEY_PHRASE_LENGTH = 12;

	@Test
	void everyLoggedMessageIsInTheTroubleshootingGuide() throws IOException {
		String guide = Files.readString(Path.of("../docs/troubleshooting.md"));
		List<LoggedMessage> messages = loggedMessages();
		assertThat(messages).hasSizeGreaterThan(20);
		assertThat(messages).allSatisfy((message) -> assertThat(guide)
			.as("%s logs \"%s\"", message.where(), message.keyPhrase())
			.contains(message.keyPhrase()));
	}

	static List<LoggedMessage> loggedMessages() throws IOException {
		List<LoggedMessage> messages = new ArrayList<>();
		List<Path> sources = new ArrayList<>();
		for (String root : List.of("src/main/java", "../core/src/main/java")) {
			try (Stream<Path> files = Files.walk(Path.of(root))) {
				sources.addAll(files.filter((path) -> path.toString().endsWith(".java")).sorted().toList());
			}
		}
		for (Path file : sources) {
			String source = Files.readString(file);
			Matcher call = LOGGER_CALL.matcher(source);
			while (call.find()) {
				String arguments = arguments(source, call.end());
				String where = file.getFileName() + ":" + (source.substring(0, call.start()).lines().count());
				messages.add(new LoggedMessage(where, keyPhrase(arguments, where)));
			}
		}
		return messages;
	}

	private static String keyPhrase(String arguments, String where) {
		Matcher literal = LITERAL.matcher(arguments);
		String longest = "";
		while (literal.find()) {
			String text = literal.group(1).replace("\\\"", "\"").trim();
			if (text.length() > longest.length()) {
				longest = text;
			}
		}
		if (longest.length() >= KEY_PHRASE_LENGTH) {
			return longest;
		}
		throw new AssertionError(where + " logs a message without a literal of " + KEY_PHRASE_LENGTH
				+ " characters or more: give it a stable key phrase that the troubleshooting guide can quote");
	}

	private static String arguments(String source, int from) {
		int depth = 1;
		boolean inString = false;
		for (int i = from; i < source.length(); i++) {
			char c = source.charAt(i);
			if (inString) {
				if (c == '\\') {
					i++;
				}
				else if (c == '"') {
					inString = false;
				}
			}
			else if (c == '"') {
				inString = true;
			}
			else if (c == '(') {
				depth++;
			}
			else if (c == ')' && --depth == 0) {
				return source.substring(from, i);
			}
		}
		throw new IllegalStateException("unbalanced logger call at " + from);
	}

	record LoggedMessage(String where, String keyPhrase) {

	}

}
