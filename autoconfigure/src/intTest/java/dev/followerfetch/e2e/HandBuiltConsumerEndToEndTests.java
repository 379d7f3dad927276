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
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import dev.followerfetch.BootApis;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Consumers the application builds itself, on a real three-zone cluster: one built
 * without a rack is found in JMX, named by its client id and turns the state to
 * {@code UNCOVERED}; one configured through the documented ways reads in-zone, as its
 * own metrics say.
 *
 * @author follower-fetch authors
 */
class HandBuiltConsumerEndToEndTests {

	private static final String TOPIC = "ledger";

	private static final int RECORDS = 600;

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	private static ConfigurableApplicationContext context;

	@BeforeAll
	static void start() {
		kafka.cluster().createTopicLedByEveryZone(TOPIC, 3, 3);
		kafka.cluster().produce(TOPIC, RECORDS, 1024);
		context = new SpringApplicationBuilder(HandBuiltApplication.class).web(WebApplicationType.NONE)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=az-b", "follower-fetch.observation.refresh-interval=200ms",
					"follower-fetch.observation.fallback-grace=0s",
					"follower-fetch.policy.consumers.hand-built-leaders=freshness")
			.run();
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void aConsumerBuiltWithoutARackIsNamedByItsClientIdMakesTheStateUncoveredAndLosesItsMetersWhenClosed() {
		Map<String, Object> config = BootApis.consumerProperties(context);
		config.put(ConsumerConfig.CLIENT_ID_CONFIG, "hand-built-plain");
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
			ConsumerReadStats stats = readAll(consumer);
			assertThat(stats.preferredReadReplicas()).hasSize(3)
				.allSatisfy((tp, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER));
			assertThat(stats.fractionOfBytesFrom("az-b", kafka.cluster()::rackOf)).isLessThan(0.5);
			BootApis.HealthReading health = awaitHealth("UNCOVERED", (reads) -> reads.containsKey("hand-built-plain")
					&& ((Map<?, ?>) reads.get("hand-built-plain")).get("uncoveredPartitions") instanceof List<?> list
					&& list.size() == 2
					&& Integer.valueOf(1).equals(((Map<?, ?>) reads.get("hand-built-plain")).get("zoneLocalPartitions")));
			assertThat(health.status()).isEqualTo("UNKNOWN");
			Map<String, Object> plain = otherConsumer(health, "hand-built-plain");
			assertThat(plain).containsEntry("policy", "LOCALITY")
				.containsEntry("declared", false)
				.containsEntry("clientRack", "none")
				.containsEntry("partitions", 3)
				.containsEntry("zoneLocalPartitions", 1)
				.containsEntry("crossZonePartitions", 2);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			await().atMost(TIMEOUT).untilAsserted(() -> {
				assertThat(registry.get("follower.fetch.partitions")
					.tags("listener", "hand-built-plain", "kind", "other", "zone", "remote", "replica", "any")
					.gauge()
					.value()).isEqualTo(2);
				assertThat(registry.get("follower.fetch.bytes")
					.tags("listener", "hand-built-plain", "kind", "other", "policy", "locality", "zone", "remote")
					.functionCounter()
					.count()).isGreaterThan(RECORDS * 1024 / 2);
			});
			assertThat(registry.get("follower.fetch.state").tags("state", "UNCOVERED").gauge().value()).isEqualTo(1);
		}
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(registry.find("follower.fetch.partitions")
				.tag("listener", "hand-built-plain")
				.gauges()).isEmpty());
		assertThat(registry.find("follower.fetch.bytes").tag("listener", "hand-built-plain").functionCounters())
			.isEmpty();
	}

	@Test
	void aConsumerBuiltWithoutARackThatAPropertyDeclaresFreshnessReadsTheLeadersWithoutMakingTheStateUncovered() {
		Map<String, Object> config = BootApis.consumerProperties(context);
		config.put(ConsumerConfig.CLIENT_ID_CONFIG, "hand-built-leaders");
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
			ConsumerReadStats stats = readAll(consumer);
			assertThat(stats.preferredReadReplicas()).hasSize(3)
				.allSatisfy((tp, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER));
			assertThat(stats.fractionOfBytesFrom("az-b", kafka.cluster()::rackOf)).isLessThan(0.5);
			// until a snapshot has the first fetch answer for the partition led in az-b, it counts in neither zone
			awaitHealthAsserting("ACTIVE", (reads) -> {
				assertThat(reads).doesNotContainKeys("hand-built-plain", "ledger-export");
				assertThat(reads.get("hand-built-leaders")).asInstanceOf(InstanceOfAssertFactories.MAP)
					.containsEntry("policy", "FRESHNESS")
					.containsEntry("origin", "PROPERTY")
					.containsEntry("declared", false)
					.containsEntry("crossZonePartitions", 2)
					.containsEntry("zoneLocalPartitions", 1)
					.doesNotContainKey("uncoveredPartitions");
			});
		}
	}

	@Test
	void aConsumerConfiguredThroughTheDeciderReadsInZoneUnderItsDeclaredPolicy() {
		try (KafkaConsumer<byte[], byte[]> consumer = context.getBean(LedgerExport.class).open()) {
			ConsumerReadStats stats = readAll(consumer);
			assertReadsInZone(stats);
			BootApis.HealthReading health = awaitHealth("ACTIVE", (reads) -> readsInZone(reads, "ledger-export")
					&& !reads.containsKey("hand-built-plain") && !reads.containsKey("hand-built-detected"));
			assertThat(otherConsumer(health, "ledger-export")).containsEntry("policy", "LOCALITY")
				.containsEntry("declared", true)
				.containsEntry("clientRack", "az-b")
				.containsEntry("zoneLocalPartitions", 3)
				.containsEntry("crossZonePartitions", 0)
				.doesNotContainKey("uncoveredPartitions");
		}
	}

	@Test
	void aConsumerGivenTheDetectedRackBeanReadsInZoneAndItsRackIsInferred() {
		Map<String, Object> config = BootApis.consumerProperties(context);
		config.put(ConsumerConfig.CLIENT_ID_CONFIG, "hand-built-detected");
		DetectedRack detectedRack = context.getBean(DetectedRack.class);
		detectedRack.rack().ifPresent((rack) -> config.put(ConsumerConfig.CLIENT_RACK_CONFIG, rack));
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
			assertReadsInZone(readAll(consumer));
			BootApis.HealthReading health = awaitHealth("ACTIVE", (reads) -> readsInZone(reads, "hand-built-detected")
					&& !reads.containsKey("hand-built-plain") && !reads.containsKey("ledger-export"));
			assertThat(otherConsumer(health, "hand-built-detected")).containsEntry("declared", false)
				.containsEntry("clientRack", "az-b")
				.containsEntry("zoneLocalPartitions", 3);
		}
	}

	private static boolean readsInZone(Map<String, Object> otherConsumers, String clientId) {
		return otherConsumers.get(clientId) instanceof Map<?, ?> reads
				&& Integer.valueOf(3).equals(reads.get("zoneLocalPartitions"));
	}

	private static void assertReadsInZone(ConsumerReadStats stats) {
		int inZone = kafka.cluster().brokerId("az-b");
		assertThat(stats.preferredReadReplicas()).hasSize(3).allSatisfy((tp, replica) -> {
			int leader = kafka.cluster().describeTopic(TOPIC).partitions().get(tp.partition()).leader().id();
			assertThat(replica).isEqualTo((leader == inZone) ? ConsumerReadStats.LEADER : inZone);
		});
		assertThat(stats.fractionOfBytesFrom("az-b", kafka.cluster()::rackOf)).isGreaterThanOrEqualTo(0.99);
	}

	private static ConsumerReadStats readAll(KafkaConsumer<byte[], byte[]> consumer) {
		List<TopicPartition> partitions = IntStream.range(0, 3).mapToObj((p) -> new TopicPartition(TOPIC, p)).toList();
		consumer.assign(partitions);
		consumer.seekToBeginning(partitions);
		int[] read = { 0 };
		await().atMost(TIMEOUT).until(() -> {
			read[0] += consumer.poll(Duration.ofMillis(100)).count();
			return read[0] >= RECORDS;
		});
		return ConsumerReadStats.of(consumer.metrics());
	}

	private static BootApis.HealthReading awaitHealth(String state, Predicate<Map<String, Object>> otherConsumers) {
		return awaitHealthAsserting(state,
				(reads) -> assertThat(otherConsumers.test(reads)).as("other consumers %s", reads).isTrue());
	}

	/**
	 * Wait for a health in the given state whose other consumers pass the assertions, all
	 * in that one reading: the health is the last snapshot, which may predate part of what
	 * the clients report now.
	 */
	private static BootApis.HealthReading awaitHealthAsserting(String state,
			Consumer<Map<String, Object>> otherConsumers) {
		return Readings.awaitReading(await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)),
				() -> BootApis.health(context), (health) -> {
					assertThat(health.details()).containsEntry("state", state);
					otherConsumers.accept(otherConsumers(health));
				});
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> otherConsumers(BootApis.HealthReading health) {
		return (Map<String, Object>) health.details().getOrDefault("otherConsumers", Map.of());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> otherConsumer(BootApis.HealthReading health, String clientId) {
		return (Map<String, Object>) otherConsumers(health).get(clientId);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class HandBuiltApplication {

		@Bean
		LedgerExport ledgerExport(ApplicationContext context, ClientRackDecider decider) {
			return new LedgerExport(BootApis.kafkaProperties(context), decider);
		}

	}

	/**
	 * A consumer built by hand the documented way (docs/hand-built-consumers.md).
	 */
	static class LedgerExport {

		private final BootApis.ConsumerProperties kafkaProperties;

		private final ClientRackDecider decider;

		LedgerExport(BootApis.ConsumerProperties kafkaProperties, ClientRackDecider decider) {
			this.kafkaProperties = kafkaProperties;
			this.decider = decider;
		}

		KafkaConsumer<byte[], byte[]> open() {
			Map<String, Object> config = this.kafkaProperties.buildConsumerProperties();
			config.put(ConsumerConfig.CLIENT_ID_CONFIG, "ledger-export");
			this.decider.configure(ConsumerKind.OTHER, "ledger-export", config);
			return new KafkaConsumer<>(config);
		}

	}

}
