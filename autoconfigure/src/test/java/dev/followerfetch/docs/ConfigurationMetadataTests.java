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
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.followerfetch.FollowerFetchProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;
import org.springframework.boot.configurationmetadata.ValueHint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the hand-written part of the configuration metadata
 * ({@code additional-spring-configuration-metadata.json}) saying what the properties
 * class holds. It is hand-written where the configuration processor cannot see: a default
 * built by code rather than a literal, and {@code follower-fetch.policy.default}, whose
 * field cannot be named {@code default} in Java.
 *
 * @author follower-fetch authors
 */
class ConfigurationMetadataTests {

	private final FollowerFetchProperties unbound = new FollowerFetchProperties();

	@Test
	void everyPropertyHasADescription() throws IOException {
		assertThat(properties().values()).allSatisfy((property) -> assertThat(property.getDescription())
			.as(property.getId())
			.isNotBlank());
	}

	@Test
	void theDefaultPolicyIsTheOneAnUnboundPropertiesClassHolds() throws IOException {
		ConfigurationMetadataProperty policy = properties().get("follower-fetch.policy.default");
		assertThat(policy.getType()).isEqualTo("dev.followerfetch.Policy");
		assertThat(policy.getDefaultValue())
			.isEqualTo(this.unbound.getPolicy().getDefault().name().toLowerCase(Locale.ROOT));
	}

	@Test
	void theDetectionOrderDefaultsToEveryBuiltInSourceAndHintsEachOfThem() throws IOException {
		ConfigurationMetadataProperty order = properties().get("follower-fetch.detection.order");
		assertThat(Arrays.asList((Object[]) order.getDefaultValue()))
			.containsExactlyElementsOf(this.unbound.getDetection().getOrder());
		assertThat(values(order)).containsExactlyElementsOf(this.unbound.getDetection().getOrder());
	}

	@Test
	void theEnvironmentVariablesDefaultToWhatTheClassHolds() throws IOException {
		ConfigurationMetadataProperty variables = properties().get("follower-fetch.detection.env.variables");
		assertThat(Arrays.asList((Object[]) variables.getDefaultValue()))
			.containsExactlyElementsOf(this.unbound.getDetection().getEnv().getVariables());
	}

	@Test
	void theDegradedStatusDefaultIsAmongItsHints() throws IOException {
		ConfigurationMetadataProperty status = properties().get("follower-fetch.health.degraded-status");
		assertThat(status.getDefaultValue()).isEqualTo(this.unbound.getHealth().getDegradedStatus());
		assertThat(values(status)).contains(this.unbound.getHealth().getDegradedStatus());
	}

	private static List<Object> values(ConfigurationMetadataProperty property) {
		return property.getHints().getValueHints().stream().map(ValueHint::getValue).toList();
	}

	private Map<String, ConfigurationMetadataProperty> properties() throws IOException {
		try (InputStream metadata = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			return ConfigurationMetadataRepositoryJsonBuilder.create(StandardCharsets.UTF_8)
				.withJsonResource(metadata)
				.build()
				.getAllProperties();
		}
	}

}
