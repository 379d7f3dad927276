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

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.observation.ClusterView.Placement;
import dev.followerfetch.observation.ClusterView.Selector;
import dev.followerfetch.observation.ClusterView.ShareMember;
import dev.followerfetch.observation.ReadLocalityJudge.Cluster;
import dev.followerfetch.observation.ReadLocalityJudge.Judged;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.metrics.KafkaMetricsContext;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ShareConsumers} and how share consumers are found in JMX, judged and
 * reported.
 *
 * @author follower-fetch authors
 */
class ShareConsumersTests {

	private static final TopicPartition T0 = new TopicPartition("work", 0);

	private static final TopicPartition T1 = new TopicPartition("work", 1);

	private static final TopicPartition T2 = new TopicPartition("work", 2);

	private static final Selector RACK_AWARE = new Selector("org.apache.kafka.common.replica.RackAwareReplicaSelector",
			true);

	@Test
	void aShareConsumerInJmxIsASharedConsumerWithItsBytesPerBrokerAndNeverAnOtherConsumer() {
		try (Metrics metrics = new Metrics(new MetricConfig(), List.of(new JmxReporter()), Time.SYSTEM,
				new KafkaMetricsContext(ConsumerMetricsReader.DOMAIN))) {
			// a share consumer reports its per-broker bytes under the classic consumer's type
			gauge(metrics, "bytes-consumed-total", "consumer-share-fetch-manager-metrics",
					Map.of("client-id", "share-jmx-1"), 3000.0);
			gauge(metrics, "incoming-byte-total", "consumer-node-metrics",
					Map.of("client-id", "share-jmx-1", "node-id", "node-0"), 2000.0);
			gauge(metrics, "incoming-byte-total", "consumer-node-metrics",
					Map.of("client-id", "share-jmx-1", "node-id", "node-1"), 1000.0);
			gauge(metrics, "incoming-byte-total", "consumer-node-metrics",
					Map.of("client-id", "classic-jmx-1", "node-id", "node-1"), 500.0);
			gauge(metrics, "preferred-read-replica", "consumer-fetch-manager-metrics",
					Map.of("client-id", "classic-jmx-1", "topic", "work", "partition", "0"), -1);
			ConsumerMetricsReader reader = new ConsumerMetricsReader(ManagementFactory::getPlatformMBeanServer);

			ConsumerMetricsReader.JmxConsumers jmx = reader.fromJmx(Set.of());

			assertThat(jmx.clients()).containsKey("classic-jmx-1").doesNotContainKey("share-jmx-1");
			assertThat(jmx.shares()).containsOnlyKeys("share-jmx-1");
			assertThat(jmx.shares().get("share-jmx-1").received())
				.extracting(ClientMetrics.NodeTotal::brokerId, ClientMetrics.NodeTotal::total)
				.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(0, 2000.0),
						org.assertj.core.groups.Tuple.tuple(1, 1000.0));

			List<Subject> found = new OtherConsumers(reader, List::of,
					(clientId) -> new ConsumerPolicy(ConsumerKind.OTHER, clientId, Policy.LOCALITY, Origin.DEFAULT))
				.find(List.of(), new ArrayList<>());
			assertThat(found).filteredOn((subject) -> subject.consumer().name().endsWith("-jmx-1"))
				.extracting((subject) -> subject.consumer().kind() + " " + subject.consumer().name() + " "
						+ subject.consumer().policy())
				.containsExactlyInAnyOrder("OTHER classic-jmx-1 LOCALITY", "SHARE share-jmx-1 FRESHNESS");
		}
	}

	@Test
	void aShareConsumerReadsEveryAssignedPartitionFromItsLeaderAndIsNeverUncovered() {
		Judged judged = judge(ShareConsumers.assigned(found(), view()));
		ConsumerReads reads = judged.summary();

		assertThat(reads.kind()).isEqualTo(ConsumerKind.SHARE);
		assertThat(reads.policy()).isEqualTo(Policy.FRESHNESS);
		assertThat(reads.partitions()).isEqualTo(3);
		assertThat(reads.zoneLocalPartitions()).isEqualTo(1);
		assertThat(reads.zoneLocalLeaderPartitions()).isEqualTo(1);
		assertThat(reads.crossZonePartitions()).isEqualTo(2);
		assertThat(reads.uncoveredPartitions()).isEmpty();
		assertThat(reads.fallbackPartitions()).isEmpty();
		assertThat(reads.placementGapCount()).isZero();
		assertThat(reads.localBytes()).isEqualTo(1000);
		assertThat(reads.remoteBytes()).isEqualTo(2000);
		assertThat(reads.details()).containsEntry(ShareConsumers.SHARE_GROUP, "workers")
			.doesNotContainKey(ReadLocalityJudge.CLIENT_RACK);
		assertThat(ReadLocalityJudge.state("az-b", List.of(new Cluster(view(), List.of(judged))), Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.ACTIVE);
	}

	@Test
	void aShareConsumerWhoseGroupTheBrokersDidNotDescribeKeepsItsBytesWithoutPartitions() {
		ClusterView undescribed = new ClusterView(view().brokerRacks(), view().selectors(), null, view().partitions(),
				Map.of());
		ConsumerReads reads = judge(ShareConsumers.assigned(found(), undescribed)).summary();

		assertThat(reads.partitions()).isZero();
		assertThat(reads.localBytes() + reads.remoteBytes()).isEqualTo(3000);
		assertThat(reads.details()).doesNotContainKey(ShareConsumers.SHARE_GROUP);
	}

	@Test
	void theHealthListsShareConsumersInTheirOwnSectionWithWhyTheyReadFromTheLeaders() {
		ConsumerReads reads = judge(ShareConsumers.assigned(found(), view())).summary();
		Map<ConsumerKind, Map<String, ConsumerReads>> consumers = new EnumMap<>(ConsumerKind.class);
		consumers.put(ConsumerKind.SHARE, Map.of("share-1", reads));
		FollowerFetchSnapshot snapshot = new FollowerFetchSnapshot(FollowerFetchState.ACTIVE, "az-b", "property",
				Set.of("az-a", "az-b", "az-c"), "rack-aware", consumers, List.of(), Instant.EPOCH);

		var health = new FollowerFetchHealthIndicator(() -> snapshot, "UNKNOWN").health(true);

		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsKey("shareConsumers").doesNotContainKey("otherConsumers");
		assertThat(shareConsumer(health.getDetails(), "share-1"))
			.containsEntry("shareGroup", "workers")
			.containsEntry("partitions", 3)
			.containsEntry("crossZonePartitions", 2)
			.containsEntry("localBytes", 1000L)
			.containsEntry("remoteBytes", 2000L)
			.containsEntry("note", "share groups fetch from the leaders: KIP-932 has no follower fetching");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> shareConsumer(Map<String, Object> details, String clientId) {
		return ((Map<String, Map<String, Object>>) details.get("shareConsumers")).get(clientId);
	}

	private static Subject found() {
		return ShareConsumers.found(new ClientMetrics("share-1", Map.of(), Set.of(),
				List.of(new ClientMetrics.NodeTotal(0, 1500, 1L), new ClientMetrics.NodeTotal(1, 1000, 1L),
						new ClientMetrics.NodeTotal(2, 500, 1L), new ClientMetrics.NodeTotal(2147483645, 700, 1L))));
	}

	private static Judged judge(Subject subject) {
		ClusterView view = view();
		return new ReadLocalityJudge(10).judge(subject, view, "az-b", (condition, tp) -> true,
				new ZoneBytes<String>().count("share-1", subject.clients(), view, "az-b"));
	}

	private static ClusterView view() {
		return new ClusterView(Map.of(0, "az-a", 1, "az-b", 2, "az-c"),
				Map.of(0, RACK_AWARE, 1, RACK_AWARE, 2, RACK_AWARE), null,
				Map.of(T0, new Placement(0, List.of(0, 1, 2), Set.of(0, 1, 2)), T1,
						new Placement(1, List.of(1, 2, 0), Set.of(0, 1, 2)), T2,
						new Placement(2, List.of(2, 0, 1), Set.of(0, 1, 2))),
				Map.of(), Map.of(), Map.of(), Map.of("share-1", new ShareMember(Set.of("workers"), Set.of(T0, T1, T2))));
	}

	private static <T> void gauge(Metrics metrics, String name, String group, Map<String, String> tags, T value) {
		metrics.addMetric(new MetricName(name, group, "", tags), (Gauge<T>) (config, now) -> value);
	}

}
