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
package dev.followerfetch.policy;

import java.util.Map;

import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StreamsConsumerConfig}, which the core writes out without Kafka
 * Streams.
 *
 * @author follower-fetch authors
 */
class StreamsConsumerConfigTests {

	@Test
	void thePrefixesAreKafkaStreamsOwn() {
		assertThat(StreamsConsumerConfig.CONSUMER_PREFIX).isEqualTo(StreamsConfig.CONSUMER_PREFIX);
		assertThat(StreamsConsumerConfig.PREFIXES).isEqualTo(Map.of("main", StreamsConfig.MAIN_CONSUMER_PREFIX,
				"restore", StreamsConfig.RESTORE_CONSUMER_PREFIX, "global", StreamsConfig.GLOBAL_CONSUMER_PREFIX));
	}

	@Test
	void aConsumersOwnPrefixBeatsTheConsumerPrefixWhichBeatsThePlainSetting() {
		Map<String, String> config = Map.of(StreamsConfig.mainConsumerPrefix("client.rack"), "",
				StreamsConfig.consumerPrefix("client.rack"), "az-c", "client.rack", "az-b");
		assertThat(StreamsConsumerConfig.clientRacks(config))
			.containsExactly(Map.entry("main", ""), Map.entry("restore", "az-c"), Map.entry("global", "az-c"));
		assertThat(StreamsConsumerConfig.clientRacks(Map.of("client.rack", "az-b")))
			.containsExactly(Map.entry("main", "az-b"), Map.entry("restore", "az-b"), Map.entry("global", "az-b"));
	}

}
