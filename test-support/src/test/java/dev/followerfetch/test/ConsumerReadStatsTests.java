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

package dev.followerfetch.test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link ConsumerReadStats}.
 *
 * @author follower-fetch authors
 */
class ConsumerReadStatsTests {

	private static final List<String> RACKS = List.of("az-a", "az-b", "az-c");

	@Test
	void whenBytesComeFromBootstrapAndCoordinatorConnectionsThenOnlyBrokerBytesCount() {
		Map<MetricName, Metric> metrics = new HashMap<>();
		addBytes(metrics, "node--1", 500);
		addBytes(metrics, "node-0", 100);
		addBytes(metrics, "node-1", 300);
		addBytes(metrics, "node-" + (Integer.MAX_VALUE - 1), 700);
		ConsumerReadStats stats = ConsumerReadStats.of(metrics);
		assertThat(stats.bytesByBroker()).isEqualTo(Map.of(0, 100L, 1, 300L));
		assertThat(stats.totalBytes()).isEqualTo(400);
		assertThat(stats.bytesByZone(RACKS::get)).isEqualTo(Map.of("az-a", 100L, "az-b", 300L));
		assertThat(stats.fractionOfBytesFrom("az-b", RACKS::get)).isCloseTo(0.75, within(1e-9));
		assertThat(stats.fractionOfBytesFrom("az-c", RACKS::get)).isZero();
	}

	@Test
	void whenTopicNameHasADotThenTheUnderscoreTwinOfTheGaugeIsIgnored() {
		Map<MetricName, Metric> metrics = new HashMap<>();
		addPreferredReadReplica(metrics, "orders.v1", 0, 1);
		addPreferredReadReplica(metrics, "orders_v1", 0, 1);
		addPreferredReadReplica(metrics, "audit_log", 0, ConsumerReadStats.LEADER);
		assertThat(ConsumerReadStats.of(metrics).preferredReadReplicas()).isEqualTo(Map.of(
				new TopicPartition("orders.v1", 0), 1, new TopicPartition("audit_log", 0), ConsumerReadStats.LEADER));
	}

	@Test
	void whenSeveralClientsReportThenBytesAreSummedAndPartitionsMerged() {
		Map<MetricName, Metric> first = new HashMap<>();
		addBytes(first, "node-2", 200);
		addPreferredReadReplica(first, "orders", 0, 2);
		Map<MetricName, Metric> second = new HashMap<>();
		addBytes(second, "node-2", 50);
		addPreferredReadReplica(second, "orders", 1, ConsumerReadStats.LEADER);
		ConsumerReadStats stats = ConsumerReadStats.ofClients(Map.of("consumer-0", first, "consumer-1", second));
		assertThat(stats.bytesByBroker()).isEqualTo(Map.of(2, 250L));
		assertThat(stats.preferredReadReplicas()).isEqualTo(Map.of(new TopicPartition("orders", 0), 2,
				new TopicPartition("orders", 1), ConsumerReadStats.LEADER));
	}

	@Test
	void sinceAnEarlierSnapshotCountsOnlyNewBytes() {
		Map<MetricName, Metric> metrics = new HashMap<>();
		addBytes(metrics, "node-0", 100);
		ConsumerReadStats earlier = ConsumerReadStats.of(metrics);
		addBytes(metrics, "node-0", 160);
		addBytes(metrics, "node-1", 40);
		assertThat(ConsumerReadStats.of(metrics).since(earlier).bytesByBroker())
			.isEqualTo(Map.of(0, 60L, 1, 40L));
	}

	private static void addBytes(Map<MetricName, Metric> metrics, String nodeId, double bytes) {
		add(metrics, new MetricName("incoming-byte-total", "consumer-node-metrics", "",
				Map.of("client-id", "consumer-1", "node-id", nodeId)), bytes);
	}

	private static void addPreferredReadReplica(Map<MetricName, Metric> metrics, String topic, int partition,
			int replica) {
		add(metrics, new MetricName("preferred-read-replica", "consumer-fetch-manager-metrics", "",
				Map.of("client-id", "consumer-1", "topic", topic, "partition", String.valueOf(partition))), replica);
	}

	private static void add(Map<MetricName, Metric> metrics, MetricName name, Object value) {
		metrics.put(name, new Metric() {

			@Override
			public MetricName metricName() {
				return name;
			}

			@Override
			public Object metricValue() {
				return value;
			}

		});
	}

}
