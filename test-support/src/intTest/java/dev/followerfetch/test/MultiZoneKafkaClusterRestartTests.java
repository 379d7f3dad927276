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

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for stopping and starting one broker of a {@link MultiZoneKafkaCluster}, on a
 * cluster of their own so that the fault reaches no other test.
 *
 * @author follower-fetch authors
 */
class MultiZoneKafkaClusterRestartTests {

	private static final int RECORDS = 60;

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withDefaultZones();

	@Test
	void aStoppedBrokerLeavesTheClusterAndComesBackOnTheSameLoopbackPortWithEveryRecord() throws Exception {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		cluster.createTopicLedByEveryZone("restarts", 3, 3);
		cluster.produce("restarts", RECORDS / 2, 1024);
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				cluster.bootstrapServers()))) {
			int port = nodes(admin).get(2).port();
			cluster.stopBroker(2);
			assertThat(nodes(admin)).containsOnlyKeys(0, 1);
			assertThat(cluster.describeTopic("restarts").partitions()).allSatisfy((partition) -> {
				assertThat(partition.leader().id()).isNotEqualTo(2);
				assertThat(partition.isr()).extracting(Node::id).containsExactlyInAnyOrder(0, 1);
			});
			cluster.produce("restarts", RECORDS / 2, 1024);
			cluster.startBroker(2);
			cluster.awaitInSync("restarts");
			assertThat(nodes(admin)).containsOnlyKeys(0, 1, 2);
			assertThat(nodes(admin).get(2).port()).isEqualTo(port);
			if (ListeningAddresses.readable()) {
				InetAddress listening = ListeningAddresses.byPort().get(port);
				assertThat(listening).as("port %d listens on %s", port, listening)
					.isNotNull()
					.matches(InetAddress::isLoopbackAddress);
			}
		}
		ConsumerReadStats stats = consumeAllFromZone(cluster, "az-c");
		assertThat(stats.preferredReadReplicas()).hasSize(3).allSatisfy((partition, replica) -> assertThat(replica)
			.isEqualTo((leaders(cluster).get(partition.partition()) == 2) ? ConsumerReadStats.LEADER : 2));
	}

	@Test
	void onlyBrokersOfTheClusterCanBeStopped() {
		assertThatIllegalArgumentException().isThrownBy(() -> kafka.cluster().stopBroker(3))
			.withMessageContaining("No broker 3");
	}

	private static Map<Integer, Node> nodes(Admin admin) throws Exception {
		return admin.describeCluster()
			.nodes()
			.get(30, TimeUnit.SECONDS)
			.stream()
			.collect(Collectors.toMap(Node::id, (node) -> node));
	}

	private static Map<Integer, Integer> leaders(MultiZoneKafkaCluster cluster) {
		return cluster.describeTopic("restarts")
			.partitions()
			.stream()
			.collect(Collectors.toMap(TopicPartitionInfo::partition, (partition) -> partition.leader().id()));
	}

	private static ConsumerReadStats consumeAllFromZone(MultiZoneKafkaCluster cluster, String zone) {
		Map<String, Object> configs = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
				ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.GROUP_ID_CONFIG, "restarts-reader",
				ConsumerConfig.CLIENT_RACK_CONFIG, zone);
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(configs, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.subscribe(List.of("restarts"));
			AtomicInteger received = new AtomicInteger();
			await("consume " + RECORDS + " records").atMost(Duration.ofSeconds(30))
				.pollInSameThread()
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(1))
				.untilAsserted(() -> assertThat(received.addAndGet(consumer.poll(Duration.ofMillis(100)).count()))
					.as("records received")
					.isGreaterThanOrEqualTo(RECORDS));
			assertThat(received).hasValue(RECORDS);
			return ConsumerReadStats.of(consumer.metrics());
		}
	}

}
