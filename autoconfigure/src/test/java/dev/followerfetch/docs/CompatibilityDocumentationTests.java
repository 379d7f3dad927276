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
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the commands of {@code docs/compatibility.md} runnable: each is one that
 * {@code .ci/run} runs on every change.
 *
 * @author follower-fetch authors
 */
class CompatibilityDocumentationTests {

	private static final Path ROOT = Path.of("..");

	private static final Pattern SHELL = Pattern.compile("```shell\\n(.*?)```", Pattern.DOTALL);

	/** What CI adds to a command: a clean build, less output, every test counted before a leg fails. */
	private static final Set<String> CI_ONLY = Set.of("clean", "-q", "-Dmaven.test.failure.ignore=true");

	@Test
	void everyCommandTheCompatibilityDocsShowIsOneCiRuns() throws IOException {
		List<List<String>> documented = documentedCommands();
		List<List<String>> run = ciCommands();
		assertThat(documented).as("commands in docs/compatibility.md").hasSizeGreaterThanOrEqualTo(7);
		assertThat(run).as("./mvnw commands in .ci/run").containsAll(documented);
	}

	private static List<List<String>> documentedCommands() throws IOException {
		List<List<String>> commands = new ArrayList<>();
		Matcher block = SHELL.matcher(Files.readString(ROOT.resolve("docs/compatibility.md")));
		while (block.find()) {
			block.group(1).lines().map(CompatibilityDocumentationTests::command).filter((tokens) -> !tokens.isEmpty())
				.forEach(commands::add);
		}
		return commands;
	}

	private static List<List<String>> ciCommands() throws IOException {
		String script = Files.readString(ROOT.resolve(".ci/run")).replace("\\\n", " ");
		return script.lines().map(CompatibilityDocumentationTests::command).filter((tokens) -> !tokens.isEmpty())
			.toList();
	}

	/**
	 * The arguments of the {@code ./mvnw} command on a line, without quotes, without what
	 * follows it in a pipe or list, and without what CI adds, sorted: the order of Maven's
	 * arguments does not matter to it.
	 */
	private static List<String> command(String line) {
		int start = line.indexOf("./mvnw ");
		if (start < 0 || line.strip().startsWith("#")) {
			return List.of();
		}
		List<String> tokens = new ArrayList<>();
		for (String token : line.substring(start + "./mvnw ".length()).strip().split("\\s+")) {
			if (Set.of("||", "&&", "|", ">", "2>&1").contains(token) || token.startsWith(">")) {
				break;
			}
			String argument = token.replace("'", "").replace("\"", "");
			if (!CI_ONLY.contains(argument)) {
				tokens.add(argument);
			}
		}
		String[] sorted = tokens.toArray(String[]::new);
		Arrays.sort(sorted);
		return List.of(sorted);
	}

}
