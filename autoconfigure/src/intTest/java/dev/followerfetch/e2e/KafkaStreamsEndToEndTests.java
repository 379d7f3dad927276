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

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import dev.followerfetch.BootApis;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.application.StreamsClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.observation.FollowerFetchObservationAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.policy.ZoneRoutingBrokers;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.core.CleanupConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kafka Streams applications on a real three-zone cluster, as the Kafka client itself
 * reports their reads: the {@code preferred-read-replica} gauges and bytes received per
 * broker of the stream thread's consumer and of the restore consumer. The application
 * plays a process in zone {@code az-b}.
 *
 * @author follower-fetch authors
 */
class KafkaStreamsEndToEndTests {

	private static final String ZONE = "az-b";

	private static final String INPUT = "words";

	private static final String STORE = "latest";

	private static final int RECORDS = 600;

	private static final String MAIN_CONSUMER = "-StreamThread-1-consumer";

	private static final String RESTORE_CONSUMER = "-restore-consumer";

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final String UUID_PATTERN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@TempDir
	static Path stateDir;

	private static Map<Integer, List<Integer>> placement;

	@BeforeAll
	static void createTopics() throws Exception {
		placement = kafka.cluster().createTopicLedByEveryZone(INPUT, 3, 3);
		Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers(),
				ProducerConfig.ACKS_CONFIG, "all");
		try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(config, new StringSerializer(),
				new ByteArraySerializer())) {
			for (int i = 0; i < RECORDS; i++) {
				producer.send(new ProducerRecord<>(INPUT, i % 3, "word-" + i, new byte[1024]));
			}
			producer.flush();
		}
		kafka.cluster().awaitInSync(INPUT);
	}

	private ApplicationContextRunner runner(String applicationId) {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
					ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
					StreamsClientRackAutoConfiguration.class, FollowerFetchObservationAutoConfiguration.class))
			.withBean(Processed.class)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.streams.application-id=" + applicationId, "test.application-id=" + applicationId,
					"spring.kafka.streams.replication-factor=3", "spring.kafka.streams.state-dir=" + stateDir,
					"spring.kafka.streams.properties.commit.interval.ms=100", "follower-fetch.rack=" + ZONE,
					"follower-fetch.observation.refresh-interval=200ms");
	}

	@Test
	void bootsFactoryReadsEveryPartitionInZoneAndRestoresItsStoreFromTheInZoneFollower() {
		String applicationId = "latest-default";
		String staticMember = "spring.kafka.streams.properties.group.instance.id=" + applicationId;
		runner(applicationId).withUserConfiguration(DefaultFactory.class).withPropertyValues(staticMember).run((context) -> {
			StreamsBuilderFactoryBean factory = awaitProcessed(context, "&defaultKafkaStreamsBuilder");
			assertReadsFromZone(clientStats(factory.getKafkaStreams(), MAIN_CONSUMER), INPUT, placement);
			Map<String, Object> section = awaitStreamsHealth(context, applicationId, "LOCALITY", 3, 0);
			assertThat(section).containsEntry("clientRack", Map.of("main", ZONE, "restore", ZONE, "global", ZONE))
				.containsEntry("rackAwareAssignmentStrategy", "none");
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			context.getBeansOfType(MeterBinder.class).values().forEach((binder) -> binder.bindTo(registry));
			await("the streams meters").atMost(WAIT).untilAsserted(() -> {
				assertThat(registry.get("follower.fetch.partitions")
					.tags("listener", applicationId, "kind", "streams", "policy", "locality", "zone", "local")
					.gauges()
					.stream()
					.mapToDouble(Gauge::value)
					.sum()).isEqualTo(3);
				double local = registry.get("follower.fetch.bytes")
					.tags("listener", applicationId, "kind", "streams", "zone", "local")
					.functionCounter()
					.count();
				double remote = registry.get("follower.fetch.bytes")
					.tags("listener", applicationId, "kind", "streams", "zone", "remote")
					.functionCounter()
					.count();
				assertThat(local).isGreaterThan(RECORDS * 1024);
				assertThat(local / (local + remote)).isGreaterThanOrEqualTo(0.99);
			});
		});
		runner(applicationId).withUserConfiguration(DefaultFactory.class)
			.withPropertyValues(staticMember, "spring.kafka.streams.cleanup.on-startup=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RestoreWatch restore = context.getBean(RestoreWatch.class);
				String changelog = applicationId + "-" + STORE + "-changelog";
				await("the store restored from " + changelog).atMost(WAIT).until(() -> restore.restored() >= RECORDS);
				assertThat(restore.readReplicas().keySet()).extracting(TopicPartition::topic).containsOnly(changelog);
				assertReadsFromZone(restore.readReplicas(), restore.stats(), changelog, replicas(changelog));
			});
	}

	@Test
	void anApplicationsOwnFactoryReadsEveryPartitionInZone() {
		runner("latest-own").withUserConfiguration(OwnFactory.class).run((context) -> {
			StreamsBuilderFactoryBean factory = awaitProcessed(context, "&ownStreams");
			assertReadsFromZone(clientStats(factory.getKafkaStreams(), MAIN_CONSUMER), INPUT, placement);
		});
	}

	@Test
	void withAClientIdZoneEveryClientOfTheApplicationIsNamedBehindTheTagAndStillReadsAndIsReportedInZone() {
		runner("latest-tagged").withUserConfiguration(DefaultFactory.class)
			.withPropertyValues("follower-fetch.client-id-zone=warpstream")
			.run((context) -> {
				StreamsBuilderFactoryBean factory = awaitProcessed(context, "&defaultKafkaStreamsBuilder");
				Set<String> clientIds = factory.getKafkaStreams()
					.metrics()
					.keySet()
					.stream()
					.map((name) -> name.tags().get("client-id"))
					.filter((id) -> id != null)
					.collect(Collectors.toSet());
				System.out.println("Kafka Streams client ids: " + clientIds);
				String instance = "warpstream_az=" + ZONE + ",latest-tagged-" + UUID_PATTERN;
				assertThat(clientIds).anySatisfy((id) -> assertThat(id).matches(instance + MAIN_CONSUMER))
					.allSatisfy((id) -> assertThat(id).matches(instance + ".*"))
					.allSatisfy((id) -> assertThat(ZoneRoutingBrokers.warpstream(id)).contains(ZONE));
				assertReadsFromZone(clientStats(factory.getKafkaStreams(), MAIN_CONSUMER), INPUT, placement);
				awaitStreamsHealth(context, "latest-tagged", "LOCALITY", 3, 0);
			});
	}

	@Test
	void aPropertyKeepsTheStreamThreadsOnTheLeaders() {
		runner("latest-fresh").withUserConfiguration(DefaultFactory.class)
			.withPropertyValues("follower-fetch.policy.streams.latest-fresh=freshness")
			.run((context) -> {
				StreamsBuilderFactoryBean factory = awaitProcessed(context, "&defaultKafkaStreamsBuilder");
				assertReadsFromLeaders(clientStats(factory.getKafkaStreams(), MAIN_CONSUMER));
				assertThat(awaitStreamsHealth(context, "latest-fresh", "FRESHNESS", 1, 2)).containsEntry("clientRack",
						Map.of("main", "", "restore", ZONE, "global", ZONE));
			});
	}

	@Test
	void anExplicitMainConsumerRackIsKept() {
		runner("latest-explicit").withUserConfiguration(OwnFactory.class)
			.withPropertyValues("test.main-consumer-rack=az-c")
			.run((context) -> {
				StreamsBuilderFactoryBean factory = awaitProcessed(context, "&ownStreams");
				ConsumerReadStats stats = clientStats(factory.getKafkaStreams(), MAIN_CONSUMER);
				int azC = kafka.cluster().brokerId("az-c");
				placement.forEach((partition, replicas) -> assertThat(
						stats.preferredReadReplicas().get(new TopicPartition(INPUT, partition)))
					.as("read replica of partition %d (leader %d)", partition, replicas.get(0))
					.isEqualTo((replicas.get(0) == azC) ? ConsumerReadStats.LEADER : azC));
				assertThat(stats.fractionOfBytesFrom("az-c", rackOf())).as("bytes by broker: %s", stats.bytesByBroker())
					.isGreaterThanOrEqualTo(0.99);
			});
	}

	private static StreamsBuilderFactoryBean awaitProcessed(AssertableApplicationContext context, String factoryName) {
		assertThat(context).hasNotFailed();
		Processed processed = context.getBean(Processed.class);
		await("every record processed").atMost(WAIT).until(() -> processed.count() >= RECORDS);
		StreamsBuilderFactoryBean factory = context.getBean(factoryName, StreamsBuilderFactoryBean.class);
		await("a read replica reported for every input partition").atMost(WAIT)
			.until(() -> clientStats(factory.getKafkaStreams(), MAIN_CONSUMER).preferredReadReplicas()
				.keySet()
				.stream()
				.filter((partition) -> partition.topic().equals(INPUT))
				.count() >= placement.size());
		return factory;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> awaitStreamsHealth(AssertableApplicationContext context, String applicationId,
			String policy, int zoneLocal, int crossZone) {
		AtomicReference<Map<String, Object>> section = new AtomicReference<>();
		await("the health section of " + applicationId).atMost(WAIT).untilAsserted(() -> {
			Map<String, Object> details = BootApis.health(context).details();
			assertThat(details).containsEntry("state", "ACTIVE").containsKey("streams");
			Map<String, Object> streams = (Map<String, Object>) ((Map<String, Object>) details.get("streams"))
				.get(applicationId);
			assertThat(streams).containsEntry("policy", policy)
				.containsEntry("partitions", placement.size())
				.containsEntry("zoneLocalPartitions", zoneLocal)
				.containsEntry("crossZonePartitions", crossZone);
			section.set(streams);
		});
		return section.get();
	}

	private static ConsumerReadStats clientStats(KafkaStreams streams, String clientIdSuffix) {
		Map<String, Map<MetricName, Metric>> byClient = clientMetrics(streams, clientIdSuffix);
		assertThat(byClient).as("clients named *%s", clientIdSuffix).hasSize(1);
		return ConsumerReadStats.ofClients(byClient);
	}

	private static Map<String, Map<MetricName, Metric>> clientMetrics(KafkaStreams streams, String clientIdSuffix) {
		Map<String, Map<MetricName, Metric>> byClient = new HashMap<>();
		streams.metrics().forEach((name, metric) -> {
			String clientId = name.tags().get("client-id");
			if (clientId != null && clientId.endsWith(clientIdSuffix)) {
				byClient.computeIfAbsent(clientId, (key) -> new HashMap<>()).put(name, metric);
			}
		});
		return byClient;
	}

	private static Map<Integer, List<Integer>> replicas(String topic) {
		Map<Integer, List<Integer>> replicas = new HashMap<>();
		for (TopicPartitionInfo partition : kafka.cluster().describeTopic(topic).partitions()) {
			List<Integer> leaderFirst = new ArrayList<>();
			leaderFirst.add(partition.leader().id());
			partition.replicas()
				.stream()
				.map(Node::id)
				.filter((id) -> id != partition.leader().id())
				.forEach(leaderFirst::add);
			replicas.put(partition.partition(), leaderFirst);
		}
		return replicas;
	}

	private static void assertReadsFromZone(ConsumerReadStats stats, String topic,
			Map<Integer, List<Integer>> replicas) {
		assertReadsFromZone(stats.preferredReadReplicas(), stats, topic, replicas);
	}

	private static void assertReadsFromZone(Map<TopicPartition, Integer> readReplicas, ConsumerReadStats stats,
			String topic, Map<Integer, List<Integer>> replicas) {
		int local = kafka.cluster().brokerId(ZONE);
		assertThat(replicas).hasSizeGreaterThan(0);
		replicas.forEach((partition, brokers) -> assertThat(readReplicas.get(new TopicPartition(topic, partition)))
			.as("read replica of %s-%d (leader %d)", topic, partition, brokers.get(0))
			.isEqualTo((brokers.get(0) == local) ? ConsumerReadStats.LEADER : local));
		assertThat(stats.fractionOfBytesFrom(ZONE, rackOf())).as("bytes by broker: %s", stats.bytesByBroker())
			.isGreaterThanOrEqualTo(0.99);
	}

	private static void assertReadsFromLeaders(ConsumerReadStats stats) {
		assertThat(stats.preferredReadReplicas()).isNotEmpty()
			.allSatisfy((partition, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER));
		assertThat(stats.fractionOfBytesFrom(ZONE, rackOf())).as("bytes by broker: %s", stats.bytesByBroker())
			.isBetween(0.2, 0.5);
	}

	private static IntFunction<String> rackOf() {
		return kafka.cluster()::rackOf;
	}

	/**
	 * Keeps the latest value of every key in a store; its changelog carries the values,
	 * so a restore reads as many bytes as the input held.
	 */
	static void latest(StreamsBuilder builder, Processed processed) {
		KStream<String, byte[]> words = builder.stream(INPUT, Consumed.with(Serdes.String(), Serdes.ByteArray()));
		words.peek((key, value) -> processed.increment())
			.groupByKey(Grouped.with(Serdes.String(), Serdes.ByteArray()))
			.reduce((previous, current) -> current,
					Materialized.<String, byte[], KeyValueStore<Bytes, byte[]>>as(STORE)
						.withKeySerde(Serdes.String())
						.withValueSerde(Serdes.ByteArray()));
	}

	static final class Processed {

		private final AtomicInteger count = new AtomicInteger();

		void increment() {
			this.count.incrementAndGet();
		}

		int count() {
			return this.count.get();
		}

	}

	/**
	 * Boot's default factory ({@code @EnableKafkaStreams}, {@code spring.kafka.streams.*}),
	 * whose restore consumer is watched.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableKafkaStreams
	static class DefaultFactory {

		@Bean
		RestoreWatch restoreWatch() {
			return new RestoreWatch();
		}

		@Bean
		Object topology(StreamsBuilder builder, Processed processed) {
			latest(builder, processed);
			return "latest";
		}

	}

	/**
	 * A factory the application declares itself, from its own configuration.
	 */
	@Configuration(proxyBeanMethods = false)
	static class OwnFactory {

		@Bean
		StreamsBuilderFactoryBean ownStreams(@Value("${test.application-id}") String applicationId,
				@Value("${test.main-consumer-rack:#{null}}") String mainConsumerRack) {
			Map<String, Object> config = new HashMap<>();
			config.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
			config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers());
			config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 3);
			config.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
			config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
			if (mainConsumerRack != null) {
				config.put(StreamsConfig.mainConsumerPrefix("client.rack"), mainConsumerRack);
			}
			return new StreamsBuilderFactoryBean(new KafkaStreamsConfiguration(config), new CleanupConfig());
		}

		@Bean
		Object topology(StreamsBuilder builder, Processed processed) {
			latest(builder, processed);
			return "latest";
		}

	}

	/**
	 * Takes the restore consumer's read figures after every restored batch, while it is
	 * still assigned the changelog partitions (their gauges go with the assignment). Lets
	 * a static member of the group leave it on close, so that the next run of the
	 * application is assigned its tasks without waiting for the session timeout.
	 */
	static final class RestoreWatch implements StateRestoreListener, StreamsBuilderFactoryBeanConfigurer {

		private final AtomicReference<StreamsBuilderFactoryBean> factory = new AtomicReference<>();

		private final Map<TopicPartition, Integer> readReplicas = new ConcurrentHashMap<>();

		private final AtomicReference<ConsumerReadStats> last = new AtomicReference<>();

		private final AtomicInteger restored = new AtomicInteger();

		@Override
		public void configure(StreamsBuilderFactoryBean factoryBean) {
			this.factory.set(factoryBean);
			factoryBean.setStateRestoreListener(this);
			factoryBean.setLeaveGroupOnClose(true);
		}

		@Override
		public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset,
				long endingOffset) {
		}

		@Override
		public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset,
				long numRestored) {
			KafkaStreams streams = this.factory.get().getKafkaStreams();
			if (streams != null) {
				ConsumerReadStats stats = ConsumerReadStats.ofClients(clientMetrics(streams, RESTORE_CONSUMER));
				this.readReplicas.putAll(stats.preferredReadReplicas());
				this.last.set(stats);
			}
			this.restored.addAndGet((int) numRestored);
		}

		@Override
		public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
		}

		int restored() {
			return this.restored.get();
		}

		Map<TopicPartition, Integer> readReplicas() {
			return Map.copyOf(this.readReplicas);
		}

		ConsumerReadStats stats() {
			ConsumerReadStats stats = this.last.get();
			assertThat(stats).as("restore consumer figures").isNotNull();
			return stats;
		}

	}

}
