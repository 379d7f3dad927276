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
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepository;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the snippets of the README and {@code docs/} honest: every Java line comes from
 * code the build compiles, and every {@code follower-fetch} key in a YAML snippet is a
 * real property.
 *
 * @author follower-fetch authors
 */
class DocumentationSnippetsTests {

	private static final Path ROOT = Path.of("..");

	private static final List<String> MAP_PROPERTIES = List.of("follower-fetch.policy.listeners.",
			"follower-fetch.policy.streams.", "follower-fetch.policy.bindings.");

	private static final Pattern FENCE = Pattern.compile("```(\\w+)\\n(.*?)```", Pattern.DOTALL);

	/**
	 * A fenced block that quotes a file of the build whole (a Java source from its
	 * {@code package} line): {@code <!-- quote: path -->} on the line before it.
	 */
	private static final Pattern QUOTE = Pattern.compile("<!-- quote: (\\S+) -->\\n```\\w+\\n(.*?)```",
			Pattern.DOTALL);

	@Test
	void everyJavaLineInTheDocsComesFromCompiledCode() throws IOException {
		Set<String> codeLines = javaSources().flatMap(DocumentationSnippetsTests::lines)
			.map(String::strip)
			.collect(Collectors.toSet());
		Map<String, List<String>> missing = new LinkedHashMap<>();
		snippets("java").forEach((document, snippet) -> snippet.lines()
			.map(String::strip)
			.filter((line) -> !line.isEmpty() && !line.equals("}") && !line.startsWith("//"))
			.filter((line) -> codeLines.stream().noneMatch((code) -> code.endsWith(line)))
			.forEach((line) -> missing.computeIfAbsent(document, (key) -> new ArrayList<>()).add(line)));
		assertThat(missing).as("Java lines in the docs that no source file contains").isEmpty();
	}

	@Test
	void everyFileTheDocsQuoteIsQuotedAsItIsInTheBuild() throws IOException {
		Map<String, String> quoted = new LinkedHashMap<>();
		for (Path document : documents()) {
			Matcher matcher = QUOTE.matcher(read(document));
			while (matcher.find()) {
				quoted.put(ROOT.relativize(document) + " quotes " + matcher.group(1), matcher.group(2));
			}
		}
		assertThat(quoted).as("quoted files").isNotEmpty();
		quoted.forEach((quote, text) -> {
			String path = quote.substring(quote.indexOf(" quotes ") + " quotes ".length());
			String source = read(ROOT.resolve(path));
			String expected = path.endsWith(".java") ? source.substring(source.indexOf("package ")) : source;
			assertThat(text).as("%s (regenerate the quote from the file)", quote).isEqualTo(expected);
		});
	}

	@Test
	void everyFollowerFetchKeyInTheDocsYamlIsAProperty() throws IOException {
		Set<String> properties = metadataProperties();
		Map<String, List<String>> unknown = new LinkedHashMap<>();
		snippets("yaml").forEach((document, snippet) -> {
			for (Object loaded : new Yaml().loadAll(snippet)) {
				flatten("", loaded).stream()
					.filter((key) -> key.startsWith("follower-fetch."))
					.filter((key) -> !properties.contains(key) && !isMapKey(key))
					.forEach((key) -> unknown.computeIfAbsent(document, (k) -> new ArrayList<>()).add(key));
			}
		});
		assertThat(unknown).as("follower-fetch keys in YAML snippets that are not properties").isEmpty();
	}

	private static boolean isMapKey(String key) {
		return MAP_PROPERTIES.stream().anyMatch(key::startsWith);
	}

	private static Map<String, String> snippetsOf(Path document, String language) {
		Map<String, String> snippets = new LinkedHashMap<>();
		Matcher matcher = FENCE.matcher(read(document));
		int index = 0;
		while (matcher.find()) {
			if (matcher.group(1).equals(language)) {
				snippets.put(ROOT.relativize(document) + "#" + index++, matcher.group(2));
			}
		}
		return snippets;
	}

	private static Map<String, String> snippets(String language) throws IOException {
		Map<String, String> snippets = new LinkedHashMap<>();
		for (Path document : documents()) {
			snippets.putAll(snippetsOf(document, language));
		}
		assertThat(snippets).as("%s snippets found", language).isNotEmpty();
		return snippets;
	}

	private static List<Path> documents() throws IOException {
		List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("sample-app/README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(documents::add);
		}
		return documents;
	}

	private static Stream<Path> javaSources() throws IOException {
		List<Path> sources = new ArrayList<>();
		for (String module : List.of("autoconfigure", "test-support", "sample-app")) {
			try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src"))) {
				files.filter((path) -> path.toString().endsWith(".java")).forEach(sources::add);
			}
		}
		return sources.stream();
	}

	private static Stream<String> lines(Path path) {
		return read(path).lines();
	}

	private static String read(Path path) {
		try {
			return Files.readString(path, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@SuppressWarnings("unchecked")
	private static List<String> flatten(String prefix, Object node) {
		List<String> keys = new ArrayList<>();
		if (node instanceof Map<?, ?> map) {
			map.forEach((key, value) -> keys.addAll(flatten(prefix + key + ".", value)));
		}
		else if (!prefix.isEmpty()) {
			keys.add(prefix.substring(0, prefix.length() - 1));
		}
		return keys;
	}

	private Set<String> metadataProperties() throws IOException {
		try (InputStream metadata = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			ConfigurationMetadataRepository repository = ConfigurationMetadataRepositoryJsonBuilder
				.create(StandardCharsets.UTF_8)
				.withJsonResource(metadata)
				.build();
			return repository.getAllProperties().keySet();
		}
	}

}
