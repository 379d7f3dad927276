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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link MultiZoneKafkaContainers} on a Docker engine: three broker processes, one per
 * zone, and the faults only processes have. Skipped, with the reason, where no Docker
 * engine or no {@code apache/kafka} image of this line's Kafka is at hand (CI builds one
 * and requires these tests).
 *
 * @author follower-fetch authors
 */
@EnabledIfKafkaContainers
class MultiZoneKafkaContainersTests {

	private static MultiZoneKafkaContainers cluster;

	@BeforeAll
	static void startCluster() {
		cluster = MultiZoneKafkaContainers.builder()
			.zones("az-a", "az-b", "az-c")
			.brokerProperty("replica.lag.time.max.ms", "5000")
			.start();
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void aConsumerInTheMiddleZoneReadsFromItsFollowers() {
		cluster.createTopicLedByEveryZone("orders", 3, 3);
		cluster.produce("orders", 300, 1024);
		ConsumerReadStats stats = readAll("orders", "az-b", 300);
		assertThat(stats.preferredReadReplicas()).as("%s", stats)
			.containsEntry(new TopicPartition("orders", 0), cluster.brokerId("az-b"))
			.containsEntry(new TopicPartition("orders", 2), cluster.brokerId("az-b"));
		assertThat(stats.fractionOfBytesFrom("az-b", cluster::rackOf)).as("%s", stats).isGreaterThan(0.99);
	}

	@Test
	void aKilledBrokerRecoversItsLogOnRestartAndServesItsZoneAgain() {
		cluster.createTopicLedByEveryZone("payments", 3, 3);
		cluster.produce("payments", 300, 1024);
		int azB = cluster.brokerId("az-b");
		cluster.killBroker(azB);
		assertThat(isrs("payments")).as("the ISRs once the controller fences the killed broker")
			.allSatisfy((isr) -> assertThat(isr).doesNotContain(azB));
		cluster.produce("payments", 300, 1024);
		cluster.startBroker(azB);
		cluster.awaitInSync("payments");
		assertThat(cluster.logs(azB)).as("the restarted broker's output")
			.containsPattern("Recovering \\d+ logs from \\S+ since no clean shutdown file was found");
		ConsumerReadStats stats = readAll("payments", "az-b", 600);
		assertThat(stats.fractionOfBytesFrom("az-b", cluster::rackOf)).as("%s", stats).isGreaterThan(0.99);
	}

	@Test
	void aControlledShutdownHandsTheLeadershipOverAndTheBrokerComesBackWithItsData() {
		cluster.createTopicLedByEveryZone("audit", 3, 3);
		cluster.produce("audit", 300, 1024);
		int azC = cluster.brokerId("az-c");
		cluster.stopBroker(azC);
		TopicPartitionInfo ledByC = cluster.describeTopic("audit").partitions().get(2);
		assertThat(ledByC.leader().id()).as("the new leader of the partition az-c led").isNotEqualTo(azC);
		assertThat(ledByC.isr()).extracting(Node::id).doesNotContain(azC);
		assertThat(cluster.logs(azC)).contains("Terminating process due to signal SIGTERM");
		cluster.startBroker(azC);
		cluster.awaitInSync("audit");
		assertThat(cluster.logs(azC)).as("a broker stopped cleanly skips recovery")
			.containsPattern("Skipping recovery of \\d+ logs from .* since clean shutdown file was found");
		ConsumerReadStats stats = readAll("audit", "az-c", 300);
		assertThat(stats.fractionOfBytesFrom("az-c", cluster::rackOf)).as("%s", stats).isGreaterThan(0.99);
	}

	@Test
	void aBrokerOffTheNetworkLeavesTheIsrsAndRejoinsThemWhenBack() {
		cluster.createTopicLedByEveryZone("ledger", 3, 3);
		cluster.produce("ledger", 30, 100);
		int azA = cluster.brokerId("az-a");
		cluster.disconnect("az-a");
		try {
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(500))
				.untilAsserted(() -> assertThat(isrsSeenFrom("ledger")).allSatisfy(
						(isr) -> assertThat(isr).doesNotContain(azA)));
		}
		finally {
			cluster.reconnect("az-a");
		}
		cluster.awaitInSync("ledger");
	}

	private static List<Set<Integer>> isrs(String topic) {
		return await().atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> isrsSeenFrom(topic), (isrs) -> isrs.stream().allMatch((isr) -> isr.size() == 2));
	}

	private static List<Set<Integer>> isrsSeenFrom(String topic) {
		return cluster.describeTopic(topic)
			.partitions()
			.stream()
			.map((partition) -> Set.copyOf(partition.isr().stream().map(Node::id).toList()))
			.toList();
	}

	private static ConsumerReadStats readAll(String topic, String zone, int records) {
		List<TopicPartition> partitions = cluster.describeTopic(topic)
			.partitions()
			.stream()
			.map((partition) -> new TopicPartition(topic, partition.partition()))
			.toList();
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
				Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
						ConsumerConfig.CLIENT_RACK_CONFIG, zone),
				new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
			consumer.assign(partitions);
			consumer.seekToBeginning(partitions);
			Set<String> seen = new HashSet<>();
			await().atMost(Duration.ofSeconds(60)).until(() -> {
				for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
					seen.add(record.partition() + "@" + record.offset());
				}
				return seen.size() >= records
						&& ConsumerReadStats.of(consumer.metrics()).preferredReadReplicas().size() == partitions.size();
			});
			assertThat(seen).hasSize(records);
			return ConsumerReadStats.of(consumer.metrics());
		}
	}

}
