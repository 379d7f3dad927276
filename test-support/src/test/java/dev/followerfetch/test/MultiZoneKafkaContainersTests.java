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

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs {@link MultiZoneKafkaContainers} where a Docker engine is available, and is skipped
 * elsewhere: this project's machines and CI have none, so it has not run there.
 *
 * @author follower-fetch authors
 */
class MultiZoneKafkaContainersTests {

	@Test
	void aConsumerInTheMiddleZoneReadsFromItsFollowers() throws Exception {
		assumeTrue(DockerClientFactory.instance().isDockerAvailable(), "No Docker engine");
		try (MultiZoneKafkaContainers cluster = MultiZoneKafkaContainers.start("az-a", "az-b", "az-c")) {
			String bootstrap = cluster.bootstrapServers();
			try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
				admin.createTopics(List.of(new NewTopic("orders", Map.of(0, List.of(0, 1, 2), 2, List.of(2, 0, 1)))))
					.all()
					.get();
			}
			try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
					Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all"),
					new ByteArraySerializer(), new ByteArraySerializer())) {
				for (int i = 0; i < 100; i++) {
					producer.send(new ProducerRecord<>("orders", i % 2 * 2, null, new byte[100])).get();
				}
			}
			List<TopicPartition> partitions = List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 2));
			try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
					Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.CLIENT_RACK_CONFIG, "az-b"),
					new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
				consumer.assign(partitions);
				consumer.seekToBeginning(partitions);
				int[] received = { 0 };
				await().atMost(Duration.ofSeconds(60)).until(() -> {
					received[0] += consumer.poll(Duration.ofMillis(200)).count();
					return received[0] >= 100
							&& ConsumerReadStats.of(consumer.metrics()).preferredReadReplicas().size() == 2;
				});
				assertThat(ConsumerReadStats.of(consumer.metrics()).preferredReadReplicas().values())
					.containsOnly(cluster.brokerId("az-b"));
			}
		}
	}

}
