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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepository;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code docs/configuration.md} and the generated configuration metadata naming the
 * same properties.
 *
 * @author follower-fetch authors
 */
class ConfigurationDocumentationTests {

	private static final Pattern DOCUMENTED = Pattern.compile("^\\| `((?:follower-fetch|management\\.health\\.followerfetch)[^`<]*)",
			Pattern.MULTILINE);

	@Test
	void everyPropertyInTheMetadataIsDocumentedAndNothingElse() throws IOException {
		Set<String> documented = new TreeSet<>();
		Matcher matcher = DOCUMENTED.matcher(Files.readString(Path.of("../docs/configuration.md")));
		while (matcher.find()) {
			documented.add(matcher.group(1).replaceAll("\\.$", ""));
		}
		assertThat(documented).containsExactlyInAnyOrderElementsOf(metadataProperties());
	}

	private Set<String> metadataProperties() throws IOException {
		try (InputStream metadata = getClass()
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			ConfigurationMetadataRepository repository = ConfigurationMetadataRepositoryJsonBuilder
				.create(StandardCharsets.UTF_8)
				.withJsonResource(metadata)
				.build();
			return new TreeSet<>(repository.getAllProperties().keySet());
		}
	}

}
