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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the zone network of {@link MultiZoneKafkaCluster}: clients of a zone reach the
 * brokers through that zone's paths, and cutting paths has the effect on Kafka that a
 * real network fault has.
 *
 * @author follower-fetch authors
 */
class ZoneNetworkTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c")
		.withZoneNetwork()
		.withBrokerProperty("replica.lag.time.max.ms", "2000");

	@AfterEach
	void heal() {
		kafka.cluster().heal();
	}

	@Test
	void clientsOfAZoneSeeEveryBrokerAtThatZonesPaths() throws Exception {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		String bootstrap = cluster.bootstrapServers("az-b");
		assertThat(bootstrap).isNotEqualTo(cluster.bootstrapServers("az-a"))
			.isNotEqualTo(cluster.bootstrapServers())
			.startsWith("127.0.0.1:");
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
			Set<String> advertised = admin.describeCluster()
				.nodes()
				.get()
				.stream()
				.map((node) -> node.host() + ":" + node.port())
				.collect(Collectors.toSet());
			assertThat(advertised).containsExactlyInAnyOrder(bootstrap.split(","));
			Map<Integer, String> racks = admin.describeCluster()
				.nodes()
				.get()
				.stream()
				.collect(Collectors.toMap(Node::id, Node::rack));
			assertThat(racks).containsExactlyInAnyOrderEntriesOf(Map.of(0, "az-a", 1, "az-b", 2, "az-c"));
		}
	}

	@Test
	void aConsumerReadsFromItsZoneThroughTheZoneNetwork() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		cluster.createTopicLedByEveryZone("through-proxies", 3, 3);
		cluster.produce("through-proxies", 300, 1024);
		try (KafkaConsumer<byte[], byte[]> consumer = consumer(cluster.bootstrapServers("az-b"), "az-b")) {
			consumer.assign(List.of(new TopicPartition("through-proxies", 0), new TopicPartition("through-proxies", 1),
					new TopicPartition("through-proxies", 2)));
			consumer.seekToBeginning(consumer.assignment());
			int[] received = { 0 };
			await().atMost(TIMEOUT).until(() -> {
				ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
				received[0] += records.count();
				return received[0] >= 300
						&& ConsumerReadStats.of(consumer.metrics()).preferredReadReplicas().size() == 3;
			});
			ConsumerReadStats stats = ConsumerReadStats.of(consumer.metrics());
			assertThat(stats.preferredReadReplicas()).containsEntry(new TopicPartition("through-proxies", 0), 1)
				.containsEntry(new TopicPartition("through-proxies", 2), 1);
		}
	}

	@Test
	void anIsolatedBrokerFallsOutOfEveryIsrAndRejoinsWhenHealed() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		cluster.createTopicLedByEveryZone("isolated", 3, 3);
		List<String> cut = cluster.isolateBroker("az-b");
		assertThat(cut).contains("broker in az-b -> broker 0", "broker in az-a -> broker 1",
				"broker 1 -> controller 0")
			.noneMatch((path) -> path.startsWith("clients"));
		assertThat(cluster.cutPaths()).containsOnlyKeys(cut);
		await("broker 1 out of every ISR, as the controller's broker sees it").atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> cluster.leaderAndIsrSeenBy(0, "isolated").values(),
					(partitions) -> partitions.size() == 3 && partitions.stream().noneMatch((isr) -> isr.contains(1)));
		assertThat(cluster.leaderAndIsrSeenBy(1, "isolated")).as("the isolated broker's stale view")
			.containsEntry(1, List.of(1, 0, 2));
		cluster.heal();
		assertThat(cluster.cutPaths()).isEmpty();
		cluster.awaitInSync("isolated");
	}

	@Test
	void aPartitionCutsEveryPathAcrossTheZoneAndNoOther() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		List<String> cut = cluster.partition("az-b");
		assertThat(cut).contains("clients in az-b -> broker 0", "clients in az-a -> broker 1",
				"broker in az-b -> broker 2", "broker in az-c -> broker 1", "broker 1 -> controller 0")
			.doesNotContain("clients in az-b -> broker 1", "clients in az-a -> broker 2", "broker 2 -> controller 0")
			.hasSize(9);
		cluster.heal();
		List<String> killed = cluster.kill("az-b", LinkFailure.REFUSE);
		assertThat(killed).contains("clients in az-b -> broker 1", "clients in az-a -> broker 1",
				"broker in az-b -> broker 0", "broker 1 -> controller 0")
			.doesNotContain("clients in az-b -> broker 0");
		assertThat(cluster.cutPaths()).containsValue("REFUSE");
	}

	@Test
	void aClusterWithoutZoneNetworkSaysHowToGetOne() {
		try (MultiZoneKafkaCluster plain = MultiZoneKafkaCluster.builder().timeout(TIMEOUT).start()) {
			assertThatIllegalStateException().isThrownBy(() -> plain.partition("az-b"))
				.withMessageContaining("zoneNetwork()");
		}
	}

	private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap, String rack) {
		return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
				ConsumerConfig.CLIENT_RACK_CONFIG, rack, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				new ByteArrayDeserializer(), new ByteArrayDeserializer());
	}

}
