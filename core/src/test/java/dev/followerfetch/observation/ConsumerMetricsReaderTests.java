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

import java.util.Map;

import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Metrics;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ConsumerMetricsReader}.
 *
 * @author follower-fetch authors
 */
class ConsumerMetricsReaderTests {

	private static final String FETCH_GROUP = "consumer-fetch-manager-metrics";

	@Test
	void readsTheReadReplicaAnsweredPartitionsAndBytesPerBrokerOfEachClient() {
		try (Metrics metrics = new Metrics()) {
			gauge(metrics, "preferred-read-replica", FETCH_GROUP, Map.of("client-id", "c-1", "topic", "orders",
					"partition", "0"), 2);
			gauge(metrics, "preferred-read-replica", FETCH_GROUP, Map.of("client-id", "c-1", "topic", "orders",
					"partition", "1"), -1);
			gauge(metrics, "records-lag", FETCH_GROUP, Map.of("client-id", "c-1", "topic", "orders", "partition", "0"),
					0.0);
			gauge(metrics, "incoming-byte-total", "consumer-node-metrics", Map.of("client-id", "c-1", "node-id", "node-2"),
					4096.0);
			gauge(metrics, "incoming-byte-total", "consumer-node-metrics",
					Map.of("client-id", "c-1", "node-id", "node-2147483645"), 512.0);

			ClientMetrics client = ConsumerMetricsReader.fromMetrics(Map.of("c-1", metrics.metrics())).get("c-1");

			assertThat(client.readReplicas()).containsOnly(Map.entry(new TopicPartition("orders", 0), 2),
					Map.entry(new TopicPartition("orders", 1), -1));
			assertThat(client.answered()).containsExactly(new TopicPartition("orders", 0));
			assertThat(client.received()).singleElement().satisfies((node) -> {
				assertThat(node.brokerId()).isEqualTo(2);
				assertThat(node.total()).isEqualTo(4096.0);
			});
		}
	}

	@Test
	void fetchMetricsItDoesNotUseAreNeverComputed() {
		try (Metrics metrics = new Metrics()) {
			Map<String, String> partition = Map.of("client-id", "c-1", "topic", "orders", "partition", "0");
			gauge(metrics, "preferred-read-replica", FETCH_GROUP, partition, 1);
			for (String unused : new String[] { "records-lag-avg", "records-lag-max", "records-lead",
					"records-lead-avg", "records-lead-min" }) {
				metrics.addMetric(new MetricName(unused, FETCH_GROUP, "", partition), (Gauge<Double>) (config, now) -> {
					throw new AssertionError(unused + " was computed");
				});
			}

			assertThat(ConsumerMetricsReader.fromMetrics(Map.of("c-1", metrics.metrics())).get("c-1").readReplicas())
				.containsOnly(Map.entry(new TopicPartition("orders", 0), 1));
		}
	}

	private static <T> void gauge(Metrics metrics, String name, String group, Map<String, String> tags, T value) {
		metrics.addMetric(new MetricName(name, group, "", tags), (Gauge<T>) (config, now) -> value);
	}

}
