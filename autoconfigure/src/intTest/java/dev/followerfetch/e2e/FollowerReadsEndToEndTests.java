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
package dev.followerfetch.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;

import dev.followerfetch.BootApis;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.ConsumerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Follower reads proven on a real three-zone cluster, as the Kafka client itself reports
 * them: its {@code preferred-read-replica} gauges and bytes received per broker. The
 * application plays a process in zone {@code az-b}.
 *
 * @author follower-fetch authors
 */
class FollowerReadsEndToEndTests {

	private static final String ZONE = "az-b";

	private static final int RECORDS = 600;

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	private static Map<Integer, List<Integer>> rf3;

	private static Map<Integer, List<Integer>> rf2;

	@BeforeAll
	static void createTopics() {
		rf3 = kafka.cluster().createTopicLedByEveryZone("orders", 6, 3);
		rf2 = kafka.cluster().createTopicLedByEveryZone("clicks", 6, 2);
		kafka.cluster().produce("orders", RECORDS, 1024);
		kafka.cluster().produce("clicks", RECORDS, 1024);
	}

	private ApplicationContextRunner runner(String topic, String groupProtocol) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withBean(Listeners.class)
			.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"test.group=" + UUID.randomUUID(),
					"spring.kafka.consumer.properties.group.protocol=" + groupProtocol, "test.topic=" + topic,
					"follower-fetch.detection.order=env", "KAFKA_CLIENT_RACK=" + ZONE);
	}

	private ApplicationContextRunner withStarter(String topic, String groupProtocol) {
		return runner(topic, groupProtocol).withConfiguration(AutoConfigurations.of(RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class));
	}

	@ParameterizedTest(name = "group.protocol={0}")
	@ValueSource(strings = { "classic", "consumer" })
	void withTheStarterEveryPartitionIsReadFromTheConsumersZone(String groupProtocol) {
		withStarter("orders", groupProtocol).withUserConfiguration(OneListener.class).run((context) -> {
			assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
				.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, ZONE);
			ConsumerReadStats stats = consumeAll(context, "reader");
			assertReadsFromZone(stats, rf3);
		});
	}

	@ParameterizedTest(name = "group.protocol={0}")
	@ValueSource(strings = { "classic", "consumer" })
	void withoutTheStarterEveryPartitionIsReadFromItsLeader(String groupProtocol) {
		runner("orders", groupProtocol).withUserConfiguration(OneListener.class).run((context) -> {
			assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
				.doesNotContainKey(ConsumerConfig.CLIENT_RACK_CONFIG);
			ConsumerReadStats stats = consumeAll(context, "reader");
			assertReadsFromLeaders(stats);
		});
	}

	@Test
	void aPartitionWithoutAReplicaInTheConsumersZoneIsReadFromItsLeader() {
		withStarter("clicks", "classic").withUserConfiguration(OneListener.class).run((context) -> {
			ConsumerReadStats stats = consumeAll(context, "reader");
			int local = broker(ZONE);
			rf2.forEach((partition, replicas) -> {
				int replica = stats.preferredReadReplicas().get(new TopicPartition("clicks", partition));
				if (replicas.contains(local)) {
					assertThat(replica).as("partition %d has a replica in %s", partition, ZONE)
						.isEqualTo((replicas.get(0) == local) ? ConsumerReadStats.LEADER : local);
				}
				else {
					assertThat(replica).as("partition %d has no replica in %s: read from its leader in %s",
							partition, ZONE, kafka.cluster().rackOf(replicas.get(0)))
						.isEqualTo(ConsumerReadStats.LEADER);
				}
			});
			assertThat(rf2.values().stream().filter((replicas) -> !replicas.contains(local))).hasSize(2);
		});
	}

	@Test
	void aLocalityConsumerReadsInZoneWhileAFreshnessListenerOnTheSameTopicReadsFromLeaders() {
		withStarter("orders", "classic").withBean(HealthApplication.PolicyListeners.class).run((context) -> {
			assertReadsFromZone(consumeAll(context, "analytics"), rf3);
			assertReadsFromLeaders(consumeAll(context, "payments"));
		});
	}

	@Test
	void aPropertyFlipsEachListenerWithoutACodeChange() {
		withStarter("orders", "classic").withBean(HealthApplication.PolicyListeners.class)
			.withPropertyValues("follower-fetch.policy.listeners.payments=locality",
					"follower-fetch.policy.listeners.analytics=freshness")
			.run((context) -> {
				assertReadsFromZone(consumeAll(context, "payments"), rf3);
				assertReadsFromLeaders(consumeAll(context, "analytics"));
			});
	}

	private ConsumerReadStats consumeAll(AssertableApplicationContext context, String listenerId) {
		assertThat(context).hasNotFailed();
		Listeners listeners = context.getBean(Listeners.class);
		listeners.awaitReceived(listenerId, RECORDS);
		assertThat(listeners.received(listenerId)).isEqualTo(RECORDS);
		await("a read replica reported for every partition of " + listenerId).atMost(Duration.ofSeconds(60))
			.until(() -> Listeners.readStats(context, listenerId)
				.preferredReadReplicas()
				.size() >= 6);
		return Listeners.readStats(context, listenerId);
	}

	private static void assertReadsFromZone(ConsumerReadStats stats, Map<Integer, List<Integer>> assignment) {
		int local = broker(ZONE);
		String topic = stats.preferredReadReplicas().keySet().iterator().next().topic();
		assignment.forEach((partition, replicas) -> assertThat(
				stats.preferredReadReplicas().get(new TopicPartition(topic, partition)))
			.as("read replica of partition %d (leader %d)", partition, replicas.get(0))
			.isEqualTo((replicas.get(0) == local) ? ConsumerReadStats.LEADER : local));
		assertThat(stats.fractionOfBytesFrom(ZONE, rackOf())).as("bytes from %s: %s", ZONE, stats.bytesByBroker())
			.isGreaterThanOrEqualTo(0.99);
	}

	private static void assertReadsFromLeaders(ConsumerReadStats stats) {
		assertThat(stats.preferredReadReplicas()).isNotEmpty()
			.allSatisfy((partition, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER));
		assertThat(stats.fractionOfBytesFrom(ZONE, rackOf())).as("bytes from %s: %s", ZONE, stats.bytesByBroker())
			.isBetween(0.2, 0.5);
	}

	private static int broker(String zone) {
		return kafka.cluster().brokerId(zone);
	}

	private static IntFunction<String> rackOf() {
		return kafka.cluster()::rackOf;
	}

	@Configuration(proxyBeanMethods = false)
	static class OneListener {

		private final Listeners listeners;

		OneListener(Listeners listeners) {
			this.listeners = listeners;
		}

		@KafkaListener(id = "reader", topics = "${test.topic}", groupId = "${test.group}-reader")
		void read(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received("reader", record);
		}

	}

}
