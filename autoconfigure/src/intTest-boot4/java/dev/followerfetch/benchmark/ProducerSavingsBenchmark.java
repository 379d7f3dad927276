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
package dev.followerfetch.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.followerfetch.policy.ProducerRackSupport;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import dev.followerfetch.test.ProducerWriteStats;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;

/**
 * Bytes a producer in zone {@code az-b} sends to the leaders in its own zone and in the
 * other zones of a real three-zone cluster, for keyless records: plain Spring Kafka, the
 * starter with {@code follower-fetch.producer.rack-aware} off, and with it on (Kafka
 * 4.4+, KIP-1123). Then the price: how keyless records spread over the partitions with
 * rack-aware partitioning on, from producers all in one zone against producers spread
 * over the three. Bytes come from each producer's own {@code outgoing-byte-total} per
 * broker ({@link ProducerWriteStats}), partitions from the acknowledged
 * {@link RecordMetadata}. Not a unit test; run it with
 * {@code ./mvnw -B -Pkafka-4.4 -pl autoconfigure -am clean test-compile exec:exec@producer-savings-benchmark}.
 * On kafka-clients before 4.4 it prints the plain and off rows, says that the option is
 * unavailable, and exits normally.
 *
 * @author follower-fetch authors
 */
public final class ProducerSavingsBenchmark {

	private static final String ZONE = BenchmarkApplication.ZONE;

	private static final String TOPIC = "producer-savings";

	private static final int PARTITIONS = 6;

	private static final int RECORDS = 12000;

	private static final int RECORD_SIZE = 1024;

	private static final int SKEW_RECORDS_PER_PRODUCER = 4000;

	private static final Duration SEND_TIMEOUT = Duration.ofSeconds(60);

	private ProducerSavingsBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		ProducerRackSupport support = ProducerRackSupport.ofClasspath();
		List<Writing> writings = new ArrayList<>();
		List<Skew> skews = new ArrayList<>();
		List<String> zones;
		Map<Integer, String> leaderZones = new TreeMap<>();
		try (MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder().zones("az-a", "az-b", "az-c").start()) {
			zones = cluster.zones();
			cluster.createTopicLedByEveryZone(TOPIC, PARTITIONS, 3);
			for (TopicPartitionInfo partition : cluster.describeTopic(TOPIC).partitions()) {
				leaderZones.put(partition.partition(), cluster.rackOf(partition.leader().id()));
			}
			writings.add(write(cluster, "plain Spring Kafka", BenchmarkApplication.PlainSpringKafka.class, ZONE,
					RECORDS));
			writings.add(write(cluster, "starter, rack-aware off", BenchmarkApplication.WithStarter.class, ZONE,
					RECORDS));
			if (support.rackAwarePartitioner()) {
				writings.add(write(cluster, "starter, rack-aware on", BenchmarkApplication.WithStarter.class, ZONE,
						RECORDS, "follower-fetch.producer.rack-aware=true"));
				skews.add(skew(cluster, "rack-aware on, 3 producers in " + ZONE, List.of(ZONE, ZONE, ZONE), true));
				skews.add(skew(cluster, "rack-aware on, 1 producer per zone", zones, true));
				skews.add(skew(cluster, "rack-aware off, 3 producers in " + ZONE, List.of(ZONE, ZONE, ZONE), false));
			}
		}
		print(support, zones, leaderZones, writings, skews);
	}

	/**
	 * Start one application as a process in {@code zone}, send {@code count} keyless
	 * records from its {@code KafkaTemplate}, wait for every acknowledgement and read the
	 * producer's own metrics.
	 */
	private static Writing write(MultiZoneKafkaCluster cluster, String description, Class<?> configuration,
			String zone, int count, String... properties) throws Exception {
		List<String> all = new ArrayList<>(List.of("spring.kafka.bootstrap-servers=" + cluster.bootstrapServers(),
				"spring.kafka.producer.key-serializer=" + StringSerializer.class.getName(),
				"spring.kafka.producer.value-serializer=" + ByteArraySerializer.class.getName(),
				"follower-fetch.rack=" + zone, "follower-fetch.detection.order=env",
				"logging.level.org.springframework=WARN"));
		all.addAll(List.of(properties));
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(configuration)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(all.toArray(String[]::new))
			.run()) {
			@SuppressWarnings("unchecked")
			KafkaTemplate<String, byte[]> template = context.getBean(KafkaTemplate.class);
			Map<String, Object> configs = template.getProducerFactory().getConfigurationProperties();
			byte[] value = new byte[RECORD_SIZE];
			List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				sends.add(template.send(TOPIC, value));
			}
			template.flush();
			long deadline = System.nanoTime() + SEND_TIMEOUT.toNanos();
			List<RecordMetadata> sent = new ArrayList<>(count);
			for (CompletableFuture<SendResult<String, byte[]>> send : sends) {
				long left = Math.max(1, deadline - System.nanoTime());
				sent.add(send.get(left, TimeUnit.NANOSECONDS).getRecordMetadata());
			}
			ProducerWriteStats stats = ProducerWriteStats.of(template.metrics(), sent, cluster::rackOf);
			return new Writing(description, zone, String.valueOf(configs.get(ProducerRackSupport.CLIENT_RACK)),
					String.valueOf(configs.get(ProducerRackSupport.RACK_AWARE)), stats);
		}
	}

	private static Skew skew(MultiZoneKafkaCluster cluster, String description, List<String> producerZones,
			boolean rackAware) throws Exception {
		List<Writing> producers = new ArrayList<>();
		for (String zone : producerZones) {
			producers.add(write(cluster, description, BenchmarkApplication.WithStarter.class, zone,
					SKEW_RECORDS_PER_PRODUCER, "follower-fetch.producer.rack-aware=" + rackAware));
		}
		return new Skew(description, producers);
	}

	private static void print(ProducerRackSupport support, List<String> zones, Map<Integer, String> leaderZones,
			List<Writing> writings, List<Skew> skews) {
		System.out.println();
		System.out.println(BenchmarkApplication.machine() + ", kafka-clients " + support.kafkaVersion());
		System.out.printf(
				"topic of %d partitions, RF=3, leaders %s; %d keyless records x %d bytes from a producer in %s%n%n",
				PARTITIONS, leaderZones, RECORDS, RECORD_SIZE, ZONE);
		StringBuilder header = new StringBuilder("| producer in " + ZONE + " |");
		zones.forEach((zone) -> header.append(" to ")
			.append(zone)
			.append(zone.equals(ZONE) ? " (local)" : "")
			.append(" (KiB) |"));
		System.out.println(header + " cross-zone (KiB) | cross-zone fraction | cross-zone / plain | records to "
				+ ZONE + " leaders | client.rack | partitioner.rack.aware |");
		System.out.println("|---|" + "---:|".repeat(zones.size() + 4) + "---|---|");
		double plainCrossZone = writings.get(0).crossZoneBytes();
		for (Writing writing : writings) {
			StringBuilder row = new StringBuilder("| " + writing.description() + " |");
			zones.forEach((zone) -> row.append(' ')
				.append(kib(writing.stats().bytesByRack().getOrDefault(zone, 0.0)))
				.append(" |"));
			System.out.printf("%s %s | %.2f%% | %.4fx | %.2f%% | %s | %s |%n", row, kib(writing.crossZoneBytes()),
					100 * (1 - writing.stats().byteShare(ZONE)), writing.crossZoneBytes() / plainCrossZone,
					100 * writing.stats().recordShare(ZONE, (partition) -> leaderZones.get(partition.partition())),
					writing.clientRack(), writing.rackAware());
		}
		System.out.println();
		if (!support.rackAwarePartitioner()) {
			System.out.printf("follower-fetch.producer.rack-aware is unavailable: kafka-clients %s has no producer "
					+ "client.rack / partitioner.rack.aware (Kafka 4.4+, KIP-1123). Run with -Pkafka-4.4 for the "
					+ "rack-aware row and the skew.%n", support.kafkaVersion());
			System.out.printf("System load average (1 min) at the end: %.2f%n", BenchmarkApplication.loadAverage());
			return;
		}
		System.out.printf("Skew: %d keyless records x %d bytes from each producer, records per partition from the "
				+ "acknowledgements (leader zone in brackets)%n%n", SKEW_RECORDS_PER_PRODUCER, RECORD_SIZE);
		StringBuilder skewHeader = new StringBuilder("| producers |");
		leaderZones.forEach((partition, zone) -> skewHeader.append(" p")
			.append(partition)
			.append(" [")
			.append(zone)
			.append("] |"));
		System.out.println(skewHeader
				+ " partitions receiving records | max/min | max / even share | records to a leader in the producer's zone |");
		System.out.println("|---|" + "---:|".repeat(PARTITIONS + 4));
		for (Skew skew : skews) {
			Map<Integer, Integer> counts = skew.recordsByPartition();
			StringBuilder row = new StringBuilder("| " + skew.description() + " |");
			leaderZones.keySet().forEach((partition) -> row.append(' ')
				.append(String.format("%,d", counts.getOrDefault(partition, 0)))
				.append(" |"));
			int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
			int min = leaderZones.keySet().stream().mapToInt((p) -> counts.getOrDefault(p, 0)).min().orElse(0);
			int total = counts.values().stream().mapToInt(Integer::intValue).sum();
			long receiving = counts.values().stream().filter((n) -> n > 0).count();
			System.out.printf("%s %d/%d | %s | %.2fx | %.2f%% |%n", row, receiving, PARTITIONS,
					(min == 0) ? "inf (min 0)" : String.format("%.2f", (double) max / min),
					(double) max * PARTITIONS / total, 100 * skew.inZoneShare(leaderZones));
		}
		System.out.println();
		System.out.printf("System load average (1 min) at the end: %.2f%n", BenchmarkApplication.loadAverage());
	}

	private static String kib(double bytes) {
		return String.format("%,.1f", bytes / 1024.0);
	}

	/**
	 * What one producer sent: its zone, the settings its factory got, its stats.
	 */
	private record Writing(String description, String zone, String clientRack, String rackAware,
			ProducerWriteStats stats) {

		double crossZoneBytes() {
			return this.stats.bytesByRack()
				.entrySet()
				.stream()
				.filter((entry) -> !entry.getKey().equals(this.zone))
				.mapToDouble(Map.Entry::getValue)
				.sum();
		}

	}

	/**
	 * Several producers writing keyless records to the same topic, one after another.
	 */
	private record Skew(String description, List<Writing> producers) {

		Map<Integer, Integer> recordsByPartition() {
			Map<Integer, Integer> counts = new LinkedHashMap<>();
			for (Writing producer : this.producers) {
				for (Map.Entry<TopicPartition, Integer> entry : producer.stats().recordsByPartition().entrySet()) {
					counts.merge(entry.getKey().partition(), entry.getValue(), Integer::sum);
				}
			}
			return counts;
		}

		double inZoneShare(Map<Integer, String> leaderZones) {
			double inZone = 0;
			double total = 0;
			for (Writing producer : this.producers) {
				for (Map.Entry<TopicPartition, Integer> entry : producer.stats().recordsByPartition().entrySet()) {
					total += entry.getValue();
					if (producer.zone().equals(leaderZones.get(entry.getKey().partition()))) {
						inZone += entry.getValue();
					}
				}
			}
			return (total > 0) ? inZone / total : 0;
		}

	}

}
