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

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link MultiZoneKafkaCluster}, {@link MultiZoneKafkaExtension} and
 * {@link ConsumerReadStats} against a real three-zone cluster, with plain kafka-clients.
 *
 * @author follower-fetch authors
 */
class MultiZoneKafkaClusterTests {

	private static final List<String> ZONES = List.of("use1-az1", "use1-az2", "use1-az3");

	private static final String CONSUMER_ZONE = "use1-az2";

	private static final int RECORDS = 600;

	private static final int RECORD_SIZE = 1024;

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones(ZONES.toArray(String[]::new));

	@Test
	void brokersReportTheirZoneAsRack() throws Exception {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		try (Admin admin = admin(cluster)) {
			Map<Integer, String> racks = admin.describeCluster()
				.nodes()
				.get()
				.stream()
				.collect(Collectors.toMap(Node::id, Node::rack));
			assertThat(racks).containsExactlyInAnyOrderEntriesOf(Map.of(0, "use1-az1", 1, "use1-az2", 2, "use1-az3"));
		}
		assertThat(cluster.zones()).isEqualTo(ZONES);
		assertThat(cluster.brokerId(CONSUMER_ZONE)).isOne();
		assertThat(cluster.rackOf(2)).isEqualTo("use1-az3");
	}

	@Test
	void clusterRunsTheLatestProductionMetadataVersion() throws Exception {
		try (Admin admin = admin(kafka.cluster())) {
			FeatureMetadata features = admin.describeFeatures().featureMetadata().get();
			assertThat(features.finalizedFeatures().get(MetadataVersion.FEATURE_NAME).maxVersionLevel())
				.isEqualTo(MetadataVersion.latestProduction().featureLevel());
		}
	}

	@Test
	void consumerWithClientRackReadsEveryPartitionFromItsZone() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		int localBroker = cluster.brokerId(CONSUMER_ZONE);
		cluster.createTopicLedByEveryZone("rack-aware-rf3", 6, 3);
		Map<Integer, Integer> leaders = leaders(cluster, "rack-aware-rf3");
		assertThat(Set.copyOf(leaders.values())).containsExactlyInAnyOrder(0, 1, 2);
		cluster.produce("rack-aware-rf3", RECORDS, RECORD_SIZE);
		ConsumerReadStats stats = consumeAll(cluster, "rack-aware-rf3", CONSUMER_ZONE);
		assertThat(stats.preferredReadReplicas()).hasSize(6);
		stats.preferredReadReplicas()
			.forEach((partition, replica) -> assertThat(replica).as("preferred read replica of %s", partition)
				.isEqualTo((leaders.get(partition.partition()) == localBroker) ? ConsumerReadStats.LEADER
						: localBroker));
		assertThat(stats.totalBytes()).isGreaterThan((long) RECORDS * RECORD_SIZE);
		assertThat(stats.fractionOfBytesFrom(CONSUMER_ZONE, cluster::rackOf)).as("%s", stats)
			.isGreaterThanOrEqualTo(0.99);
	}

	@Test
	void consumerWithoutClientRackReadsFromLeaders() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		cluster.createTopicLedByEveryZone("no-rack.rf3", 6, 3);
		cluster.produce("no-rack.rf3", RECORDS, RECORD_SIZE);
		ConsumerReadStats stats = consumeAll(cluster, "no-rack.rf3", null);
		assertThat(stats.preferredReadReplicas()).hasSize(6).containsOnlyKeys(partitions("no-rack.rf3", 6));
		assertThat(stats.preferredReadReplicas()).allSatisfy(
				(partition, replica) -> assertThat(replica).as("%s", partition).isEqualTo(ConsumerReadStats.LEADER));
		for (String zone : ZONES) {
			assertThat(stats.fractionOfBytesFrom(zone, cluster::rackOf)).as("%s in %s", zone, stats)
				.isCloseTo(1.0 / 3, within(0.05));
		}
	}

	@Test
	void partitionWithoutReplicaInConsumerZoneIsReadFromLeader() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		int localBroker = cluster.brokerId(CONSUMER_ZONE);
		Map<Integer, List<Integer>> assignment = cluster.createTopicLedByEveryZone("rack-aware-rf2", 3, 2);
		assertThat(assignment).isEqualTo(Map.of(0, List.of(0, 1), 1, List.of(1, 2), 2, List.of(2, 0)));
		cluster.produce("rack-aware-rf2", RECORDS, RECORD_SIZE);
		ConsumerReadStats stats = consumeAll(cluster, "rack-aware-rf2", CONSUMER_ZONE);
		assertThat(stats.preferredReadReplicas()).containsExactlyInAnyOrderEntriesOf(
				Map.of(new TopicPartition("rack-aware-rf2", 0), localBroker, new TopicPartition("rack-aware-rf2", 1),
						ConsumerReadStats.LEADER, new TopicPartition("rack-aware-rf2", 2), ConsumerReadStats.LEADER));
		assertThat(stats.fractionOfBytesFrom(CONSUMER_ZONE, cluster::rackOf)).as("%s", stats)
			.isCloseTo(2.0 / 3, within(0.05));
		assertThat(stats.fractionOfBytesFrom("use1-az3", cluster::rackOf)).as("%s", stats)
			.isCloseTo(1.0 / 3, within(0.05));
	}

	@Test
	void topicAssignmentMustNameBrokersOfTheCluster() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> kafka.cluster().createTopic("unknown-broker", Map.of(0, List.of(0, 3))))
			.withMessageContaining("0..2");
	}

	@Test
	void startFailsWithTheCauseWhenABrokerPropertyIsInvalid() {
		assertThatIllegalStateException()
			.isThrownBy(() -> MultiZoneKafkaCluster.builder().brokerProperty("num.network.threads", "many").start())
			.withMessageContaining("Failed to build the Kafka cluster")
			.havingCause()
			.withMessageContaining("num.network.threads");
	}

	@Test
	void listenersBindToLoopbackOnly() throws IOException {
		assumeTrue(ListeningAddresses.readable(), "needs /proc/net/tcp");
		Set<Integer> brokerPorts = Arrays.stream(kafka.cluster().bootstrapServers().split(","))
			.map((address) -> Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)))
			.collect(Collectors.toSet());
		Map<Integer, InetAddress> listeningAddresses = ListeningAddresses.byPort();
		assertThat(listeningAddresses).containsKeys(brokerPorts.toArray(Integer[]::new));
		brokerPorts.forEach((port) -> assertThat(listeningAddresses.get(port).isLoopbackAddress())
			.as("port %d listens on %s", port, listeningAddresses.get(port))
			.isTrue());
	}

	private static ConsumerReadStats consumeAll(MultiZoneKafkaCluster cluster, String topic, String clientRack) {
		Map<String, Object> configs = new HashMap<>();
		configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
		configs.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		configs.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-reader");
		if (clientRack != null) {
			configs.put(ConsumerConfig.CLIENT_RACK_CONFIG, clientRack);
		}
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(configs, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.subscribe(List.of(topic));
			AtomicInteger received = new AtomicInteger();
			await("consume " + RECORDS + " records from " + topic).atMost(Duration.ofSeconds(30))
				.pollInSameThread()
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(1))
				.untilAsserted(() -> assertThat(received.addAndGet(consumer.poll(Duration.ofMillis(100)).count()))
					.as("records received").isGreaterThanOrEqualTo(RECORDS));
			assertThat(received).hasValue(RECORDS);
			return ConsumerReadStats.of(consumer.metrics());
		}
	}

	private static Admin admin(MultiZoneKafkaCluster cluster) {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
	}

	private static Map<Integer, Integer> leaders(MultiZoneKafkaCluster cluster, String topic) {
		return cluster.describeTopic(topic)
			.partitions()
			.stream()
			.collect(Collectors.toMap(TopicPartitionInfo::partition, (partition) -> partition.leader().id()));
	}

	private static TopicPartition[] partitions(String topic, int count) {
		return IntStream.range(0, count).mapToObj((i) -> new TopicPartition(topic, i)).toArray(TopicPartition[]::new);
	}

	@Nested
	class WithoutReplicaSelector {

		@RegisterExtension
		static final MultiZoneKafkaExtension leaderOnlyKafka = MultiZoneKafkaExtension
			.withZones(ZONES.toArray(String[]::new))
			.withoutReplicaSelector();

		@Test
		void consumerWithClientRackStillReadsFromLeaders() {
			MultiZoneKafkaCluster cluster = leaderOnlyKafka.cluster();
			assertThat(cluster.bootstrapServers()).isNotEqualTo(kafka.cluster().bootstrapServers());
			cluster.createTopicLedByEveryZone("leader-only-rf3", 6, 3);
			cluster.produce("leader-only-rf3", RECORDS, RECORD_SIZE);
			ConsumerReadStats stats = consumeAll(cluster, "leader-only-rf3", CONSUMER_ZONE);
			assertThat(stats.preferredReadReplicas()).hasSize(6)
				.allSatisfy((partition, replica) -> assertThat(replica).as("%s", partition)
					.isEqualTo(ConsumerReadStats.LEADER));
			for (String zone : ZONES) {
				assertThat(stats.fractionOfBytesFrom(zone, cluster::rackOf)).as("%s in %s", zone, stats)
					.isCloseTo(1.0 / 3, within(0.05));
			}
		}

	}

}
