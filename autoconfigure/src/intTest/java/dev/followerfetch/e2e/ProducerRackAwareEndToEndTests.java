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

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.followerfetch.BootApis;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.policy.ProducerRackSupport;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import dev.followerfetch.test.ProducerWriteStats;
import dev.followerfetch.observation.FollowerFetchObservationAutoConfiguration;
import dev.followerfetch.observation.ProducerWrites;
import dev.followerfetch.observation.ReadLocalityMonitor;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/**
 * Rack-aware partitioning of records without a key (KIP-1123) proven on a real three-zone
 * cluster, from what the producer itself reports: its bytes sent to each broker and the
 * partition of every acknowledged record. The application plays a process in zone
 * {@code az-b}. Needs Kafka clients and brokers 4.4: runs in the {@code -Pkafka-4.4} leg.
 *
 * @author follower-fetch authors
 */
@EnabledIf(value = "producerRacksSupported",
		disabledReason = "kafka-clients on the classpath has no producer client.rack (Kafka 4.4+, KIP-1123): "
				+ "run the -Pkafka-4.4 leg")
class ProducerRackAwareEndToEndTests {

	private static final String ZONE = "az-b";

	private static final String TOPIC = "events";

	private static final int PARTITIONS = 6;

	private static final int RECORDS = 1500;

	private static final int RECORD_SIZE = 1024;

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	private static Map<TopicPartition, String> leaderRacks;

	static boolean producerRacksSupported() {
		return ProducerRackSupport.ofClasspath().rackAwarePartitioner();
	}

	@BeforeAll
	static void createTopic() {
		kafka.cluster().createTopicLedByEveryZone(TOPIC, PARTITIONS, 3);
		leaderRacks = new HashMap<>();
		for (TopicPartitionInfo partition : kafka.cluster().describeTopic(TOPIC).partitions()) {
			leaderRacks.put(new TopicPartition(TOPIC, partition.partition()),
					kafka.cluster().rackOf(partition.leader().id()));
		}
	}

	private ApplicationContextRunner withStarter(String... properties) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG,
					RackDetectionAutoConfiguration.class, FetchPolicyAutoConfiguration.class, ClientRackAutoConfiguration.class))
			.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.producer.key-serializer=" + StringSerializer.class.getName(),
					"spring.kafka.producer.value-serializer=" + ByteArraySerializer.class.getName(),
					"follower-fetch.detection.order=env", "follower-fetch.rack=" + ZONE)
			.withPropertyValues(properties);
	}

	@Test
	void withRackAwarePartitioningKeylessRecordsGoOnlyToTheLeaderInTheProducersZone() {
		withStarter("follower-fetch.producer.rack-aware=true").run((context) -> {
			assertThat(template(context).getProducerFactory().getConfigurationProperties())
				.containsEntry("client.rack", ZONE)
				.containsEntry("partitioner.rack.aware", "true");
			ProducerWriteStats stats = sendKeyless(context);
			System.out.printf("rack-aware on: %s record share %.4f byte share %.4f%n", stats.bytesByRack(),
					stats.recordShare(ZONE, leaderRacks::get), stats.byteShare(ZONE));
			assertThat(stats.recordShare(ZONE, leaderRacks::get)).as(stats.toString()).isEqualTo(1.0);
			assertThat(stats.byteShare(ZONE)).as(stats.toString()).isGreaterThanOrEqualTo(0.99);
		});
	}

	@Test
	void withoutRackAwarePartitioningAboutAThirdOfTheKeylessBytesGoToTheLeaderInTheProducersZone() {
		withStarter().run((context) -> {
			assertThat(template(context).getProducerFactory().getConfigurationProperties())
				.containsEntry("client.rack", ZONE)
				.doesNotContainKey("partitioner.rack.aware");
			ProducerWriteStats stats = sendKeyless(context);
			System.out.printf("rack-aware off: %s record share %.4f byte share %.4f%n", stats.bytesByRack(),
					stats.recordShare(ZONE, leaderRacks::get), stats.byteShare(ZONE));
			// a third on average; the sticky partitioner sends whole batches to one partition (0.48 seen)
			assertThat(stats.recordShare(ZONE, leaderRacks::get)).as(stats.toString()).isBetween(0.15, 0.6);
			assertThat(stats.byteShare(ZONE)).as(stats.toString()).isBetween(0.15, 0.6);
			assertThat(stats.recordsByPartition()).as(stats.toString()).hasSize(PARTITIONS);
		});
	}

	@Test
	void theHealthAndTheMeterShowTheBytesSentInZoneAndTheShareOfPartitionsKeylessRecordsGoTo() {
		withStarter("follower-fetch.producer.rack-aware=true")
			.withConfiguration(AutoConfigurations.of(FetchPolicyAutoConfiguration.class,
					FollowerFetchObservationAutoConfiguration.class))
			.run((context) -> {
				ProducerWriteStats stats = sendKeyless(context);
				ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
				ProducerWrites writes = monitor.refresh().producers().get("kafkaProducerFactory");
				System.out.printf("observed: %s%n", writes);
				assertThat(writes.rackAware()).isTrue();
				assertThat(writes.topics()).containsExactly(TOPIC);
				assertThat(writes.partitions()).isEqualTo(PARTITIONS);
				assertThat(writes.keylessPartitions()).isEqualTo(PARTITIONS / 3);
				assertThat((double) writes.localBytes()).isGreaterThanOrEqualTo(stats.bytesByRack().get(ZONE));
				// outgoing bytes include the producer's metadata requests, which may go to any broker
				assertThat((double) writes.remoteBytes() / (writes.localBytes() + writes.remoteBytes()))
					.isLessThan(0.01);
				SimpleMeterRegistry registry = new SimpleMeterRegistry();
				context.getBean(MeterBinder.class).bindTo(registry);
				assertThat(registry.get("follower.fetch.produced.bytes")
					.tags("producer", "kafkaProducerFactory", "zone", "local")
					.functionCounter()
					.count()).isEqualTo(writes.localBytes(), offset(1.0));
				Map<String, Object> details = BootApis.health(context).details();
				assertThat(details).extracting("producers")
					.extracting("kafkaProducerFactory")
					.asInstanceOf(InstanceOfAssertFactories.MAP)
					.containsEntry("rackAware", true)
					.containsEntry("keylessPartitionShare", 0.333);
			});
	}

	@Test
	void keyedRecordsGoToTheirKeysPartitionWithRackAwarePartitioningOnOrOff() {
		for (String rackAware : List.of("true", "false")) {
			withStarter("follower-fetch.producer.rack-aware=" + rackAware).run((context) -> {
				KafkaTemplate<String, byte[]> template = template(context);
				List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>();
				for (int i = 0; i < 300; i++) {
					sends.add(template.send(TOPIC, "key-" + i, new byte[RECORD_SIZE]));
				}
				for (int i = 0; i < sends.size(); i++) {
					RecordMetadata metadata = sends.get(i).get(30, TimeUnit.SECONDS).getRecordMetadata();
					assertThat(metadata.partition()).as("key-%d with rack-aware=%s", i, rackAware)
						.isEqualTo(keyPartition("key-" + i));
				}
			});
		}
	}

	private static int keyPartition(String key) {
		return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
	}

	@SuppressWarnings("unchecked")
	private static KafkaTemplate<String, byte[]> template(ApplicationContext context) {
		return context.getBean(KafkaTemplate.class);
	}

	private static ProducerWriteStats sendKeyless(ApplicationContext context) throws Exception {
		KafkaTemplate<String, byte[]> template = template(context);
		List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>();
		for (int i = 0; i < RECORDS; i++) {
			sends.add(template.send(TOPIC, new byte[RECORD_SIZE]));
		}
		List<RecordMetadata> sent = new ArrayList<>();
		for (CompletableFuture<SendResult<String, byte[]>> send : sends) {
			sent.add(send.get(30, TimeUnit.SECONDS).getRecordMetadata());
		}
		return ProducerWriteStats.of(template.metrics(), sent, kafka.cluster()::rackOf);
	}

}
