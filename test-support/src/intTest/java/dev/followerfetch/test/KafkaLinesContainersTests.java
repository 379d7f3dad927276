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
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * This line's Kafka clients against brokers of the oldest line the starter supports,
 * Kafka 3.9 (what a Spring Boot 3.5 platform runs), in containers: follower reads work
 * across the two lines. The other way round, a Boot 3.5 application's 3.9 clients against
 * 4.1 brokers, runs in every build of the Boot 3.5 leg, with the brokers in a class loader
 * of their own.
 *
 * @author follower-fetch authors
 */
@EnabledIfKafkaContainers(image = KafkaLinesContainersTests.BROKERS)
class KafkaLinesContainersTests {

	static final String BROKERS = "apache/kafka:3.9.1";

	@Test
	void aConsumerOfThisLineReadsFromItsZonesFollowerOnKafka39Brokers() {
		try (MultiZoneKafkaContainers cluster = MultiZoneKafkaContainers.builder()
			.image(DockerImageName.parse(BROKERS))
			.zones("az-a", "az-b", "az-c")
			.start()) {
			for (int broker = 0; broker < 3; broker++) {
				assertThat(cluster.logs(broker)).as("broker %d's output", broker).contains("Kafka version: 3.9.1");
			}
			cluster.createTopicLedByEveryZone("orders", 3, 3);
			cluster.produce("orders", 300, 1024);
			List<TopicPartition> partitions = List.of(new TopicPartition("orders", 0),
					new TopicPartition("orders", 1), new TopicPartition("orders", 2));
			try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
					Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
							ConsumerConfig.CLIENT_RACK_CONFIG, "az-b"),
					new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
				consumer.assign(partitions);
				consumer.seekToBeginning(partitions);
				Set<String> seen = new HashSet<>();
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
						seen.add(record.partition() + "@" + record.offset());
					}
					return seen.size() >= 300 && ConsumerReadStats.of(consumer.metrics()).preferredReadReplicas().size() == 3;
				});
				ConsumerReadStats stats = ConsumerReadStats.of(consumer.metrics());
				assertThat(stats.preferredReadReplicas()).as("%s", stats)
					.containsEntry(new TopicPartition("orders", 0), cluster.brokerId("az-b"))
					.containsEntry(new TopicPartition("orders", 2), cluster.brokerId("az-b"));
				assertThat(stats.fractionOfBytesFrom("az-b", cluster::rackOf)).as("%s", stats).isGreaterThan(0.99);
			}
		}
	}

}
