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

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link EnvironmentRackSource}.
 *
 * @author follower-fetch authors
 */
class EnvironmentRackSourceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	@Test
	void variablesAreOfferedInTheConfiguredOrder() {
		EnvironmentRackSource source = new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK", "ZONE"),
				Map.of("ZONE", "us-east-1b", "KAFKA_CLIENT_RACK", "use1-az2")::get);
		assertThat(source.lookup(TIMEOUT).candidates()).containsExactly(
				new RackCandidate("use1-az2", "KAFKA_CLIENT_RACK"), new RackCandidate("us-east-1b", "ZONE"));
	}

	@Test
	void blankVariableCountsAsUnset() {
		EnvironmentRackSource source = new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK", "ZONE"),
				Map.of("KAFKA_CLIENT_RACK", "  ", "ZONE", "us-east-1b")::get);
		assertThat(source.lookup(TIMEOUT).candidates()).containsExactly(new RackCandidate("us-east-1b", "ZONE"));
	}

	@Test
	void noVariableSetIsNotFoundNamingThemAll() {
		EnvironmentRackSource source = new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK", "ZONE"),
				Map.<String, String>of()::get);
		RackLookup lookup = source.lookup(TIMEOUT);
		assertThat(lookup.isFound()).isFalse();
		assertThat(lookup.reason()).isEqualTo("KAFKA_CLIENT_RACK, ZONE not set");
	}

	@Test
	void emptyListOfVariablesIsNotFoundNamingTheProperty() {
		EnvironmentRackSource source = new EnvironmentRackSource(List.of(), Map.of("KAFKA_CLIENT_RACK", "x")::get);
		assertThat(source.lookup(TIMEOUT).reason()).isEqualTo("follower-fetch.detection.env.variables is empty");
	}

	@Test
	void valueIsOfferedAsReadForTheDetectorToValidate() {
		EnvironmentRackSource source = new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK"),
				Map.of("KAFKA_CLIENT_RACK", " us east 1a\n")::get);
		assertThat(source.lookup(TIMEOUT).candidates()).extracting(RackCandidate::rack)
			.containsExactly(" us east 1a\n");
	}

	@Test
	void environmentSourceIsLocal() {
		EnvironmentRackSource source = new EnvironmentRackSource(List.of(), Map.<String, String>of()::get);
		assertThat(source.isRemote()).isFalse();
		assertThat(source.name()).isEqualTo("env");
	}

}
