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
package dev.followerfetch.detection;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.followerfetch.BootApis;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import dev.followerfetch.e2e.Listeners;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.ConsumerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole AWS path on real brokers: the rack comes from an IMDSv2 loopback stub that
 * answers {@code us-east-1b} / {@code use1-az2}, the starter reads the brokers' racks and
 * picks the form they use, and the listener then reads from that zone, as its own client
 * metrics report.
 *
 * @author follower-fetch authors
 */
class AwsZoneOnRealClusterTests {

	private static final int RECORDS = 600;

	private static MetadataStubServer imds;

	@BeforeAll
	static void startImds() throws IOException {
		imds = MetadataStubServer.start().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
	}

	@AfterAll
	static void stopImds() {
		imds.close();
	}

	@Nested
	class BrokersLabelledWithAzIds {

		@RegisterExtension
		static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("use1-az1", "use1-az2",
				"use1-az3");

		@Test
		void theAzIdIsChosenAndEveryPartitionIsReadFromItsBroker() {
			assertReadsFrom(kafka.cluster(), "use1-az2", "availability-zone-id");
		}

	}

	@Nested
	class BrokersLabelledWithAzNames {

		@RegisterExtension
		static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("us-east-1a", "us-east-1b",
				"us-east-1c");

		@Test
		void theAzNameIsChosenAndEveryPartitionIsReadFromItsBroker() {
			assertReadsFrom(kafka.cluster(), "us-east-1b", "availability-zone");
		}

	}

	private static void assertReadsFrom(MultiZoneKafkaCluster cluster, String zone, String attribute) {
		Map<Integer, List<Integer>> assignment = cluster.createTopicLedByEveryZone("orders", 6, 3);
		cluster.produce("orders", RECORDS, 1024);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
					ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class))
			.withBean(Listeners.class)
			.withUserConfiguration(Reader.class)
			.withPropertyValues("spring.kafka.bootstrap-servers=" + cluster.bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.detection.order=aws", "follower-fetch.detection.aws.endpoint=" + imds.uri(),
					"follower-fetch.detection.timeout=10s", "follower-fetch.detection.broker-timeout=30s",
					"test.group=" + UUID.randomUUID())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				DetectedRack detected = context.getBean(DetectedRack.class);
				assertThat(detected.rack()).hasValue(zone);
				assertThat(detected.source()).hasValue("aws:" + attribute);
				assertThat(detected.reason()).get().asString().startsWith(attribute + " matches the broker racks");
				assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
					.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, zone);
				Listeners listeners = context.getBean(Listeners.class);
				listeners.awaitReceived("reader", RECORDS);
				ConsumerReadStats stats = await().atMost(Duration.ofSeconds(60)).until(
						() -> Listeners.readStats(context, "reader"),
						(candidate) -> candidate.preferredReadReplicas().size() == assignment.size());
				int local = cluster.brokerId(zone);
				assignment.forEach((partition, replicas) -> assertThat(
						stats.preferredReadReplicas().get(new TopicPartition("orders", partition)))
					.as("read replica of partition %d (leader %d)", partition, replicas.get(0))
					.isEqualTo((replicas.get(0) == local) ? ConsumerReadStats.LEADER : local));
				assertThat(stats.fractionOfBytesFrom(zone, cluster::rackOf)).as("%s", stats)
					.isGreaterThanOrEqualTo(0.99);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class Reader {

		private final Listeners listeners;

		Reader(Listeners listeners) {
			this.listeners = listeners;
		}

		@KafkaListener(id = "reader", topics = "orders", groupId = "${test.group}")
		void read(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received("reader", record);
		}

	}

}
