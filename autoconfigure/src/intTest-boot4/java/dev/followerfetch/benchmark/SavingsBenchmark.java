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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.followerfetch.e2e.Listeners;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;

import static org.awaitility.Awaitility.await;

/**
 * Cross-zone bytes a consumer in zone {@code az-b} receives from a real three-zone
 * cluster, plain Spring Kafka versus the starter, for topics with replication factor 3
 * and 2, against the physical limit of each placement. Bytes come from the consumers' own
 * {@code incoming-byte-total} per broker, read once every record is consumed. Not a unit
 * test; run it with
 * {@code ./mvnw -B -pl autoconfigure -am test-compile exec:exec@savings-benchmark}.
 *
 * @author follower-fetch authors
 */
public final class SavingsBenchmark {

	private static final String ZONE = BenchmarkApplication.ZONE;

	private static final int PARTITIONS = 6;

	private static final int RECORDS = 3000;

	private static final int RECORD_SIZE = 2048;

	private static final Duration CONSUME_TIMEOUT = Duration.ofMinutes(2);

	private SavingsBenchmark() {
	}

	public static void main(String[] args) {
		List<Placement> placements = new ArrayList<>();
		List<String> zones;
		try (MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder().zones("az-a", "az-b", "az-c").start()) {
			zones = cluster.zones();
			for (int replicationFactor : new int[] { 3, 2 }) {
				String topic = "savings-rf" + replicationFactor;
				cluster.createTopicLedByEveryZone(topic, PARTITIONS, replicationFactor);
				cluster.produce(topic, RECORDS, RECORD_SIZE);
				TopicDescription description = cluster.describeTopic(topic);
				Reading plain = read(cluster, description, BenchmarkApplication.PLAIN);
				Reading starter = read(cluster, description, BenchmarkApplication.STARTER);
				placements.add(Placement.of(replicationFactor, cluster, description, plain, starter));
			}
		}
		print(zones, placements);
	}

	private static Reading read(MultiZoneKafkaCluster cluster, TopicDescription description,
			BenchmarkApplication application) {
		String topic = description.name();
		Deliveries deliveries = new Deliveries();
		try (ConfigurableApplicationContext context = application.start(cluster, Reader.class, deliveries,
				"benchmark.topic=" + topic)) {
			await(application.description() + " consumes " + RECORDS + " records of " + topic)
				.atMost(CONSUME_TIMEOUT)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> deliveries.records() >= RECORDS);
			ConsumerReadStats stats = Listeners.readStats(context, "reader");
			if (deliveries.records() != RECORDS) {
				throw new IllegalStateException(application.description() + " received " + deliveries.records()
						+ " records of " + topic + ", expected " + RECORDS);
			}
			long partitionsReadInZone = description.partitions()
				.stream()
				.filter((partition) -> cluster.rackOf(servingBroker(stats, topic, partition)).equals(ZONE))
				.count();
			Map<String, Long> bytesByZone = stats.bytesByZone(cluster::rackOf);
			return new Reading(application.description(), bytesByZone,
					stats.totalBytes() - bytesByZone.getOrDefault(ZONE, 0L), stats.totalBytes(), partitionsReadInZone,
					deliveries.payloadBytes());
		}
	}

	private static int servingBroker(ConsumerReadStats stats, String topic, TopicPartitionInfo partition) {
		Integer replica = stats.preferredReadReplicas().get(new TopicPartition(topic, partition.partition()));
		if (replica == null) {
			throw new IllegalStateException("No preferred-read-replica for partition " + partition.partition());
		}
		return (replica == ConsumerReadStats.LEADER) ? partition.leader().id() : replica;
	}

	private static void print(List<String> zones, List<Placement> placements) {
		System.out.println();
		System.out.println(BenchmarkApplication.machine());
		System.out.printf("%d partitions led by every zone, %d records x %d bytes; the consumer is in %s%n%n",
				PARTITIONS, RECORDS, RECORD_SIZE, ZONE);
		StringBuilder header = new StringBuilder("| placement | consumer |");
		zones.forEach((zone) -> header.append(" from ")
			.append(zone)
			.append(zone.equals(ZONE) ? " (local)" : "")
			.append(" (KiB) |"));
		System.out.println(header + " cross-zone (KiB) | cross-zone fraction | cross-zone / plain | partitions read in "
				+ ZONE + " |");
		System.out.println("|---|---|" + "---:|".repeat(zones.size() + 4));
		for (Placement placement : placements) {
			long plainCrossZone = placement.plain().crossZoneBytes();
			for (Reading reading : List.of(placement.plain(), placement.starter())) {
				StringBuilder row = new StringBuilder(
						"| RF=" + placement.replicationFactor() + " | " + reading.description() + " |");
				zones.forEach((zone) -> row.append(' ')
					.append(kib(reading.bytesByZone().getOrDefault(zone, 0L)))
					.append(" |"));
				System.out.printf("%s %s | %.2f%% | %.4fx | %d/%d |%n", row, kib(reading.crossZoneBytes()),
						100 * reading.crossZoneFraction(), (double) reading.crossZoneBytes() / plainCrossZone,
						reading.partitionsReadInZone(), PARTITIONS);
			}
			System.out.printf("| RF=%d | physical limit (record bytes) |%s %s | %.2f%% | %.4fx | %d/%d |%n",
					placement.replicationFactor(), " - |".repeat(zones.size()), kib(placement.limitBytes()),
					100 * placement.limitFraction(), placement.limitVersusPlain(),
					placement.partitionsWithReplicaInZone(), PARTITIONS);
		}
		System.out.println();
		for (Placement placement : placements) {
			Reading starter = placement.starter();
			System.out.printf(
					"RF=%d: %d of %d partitions have a replica in %s; the others hold %.2f%% of the record bytes and "
							+ "must be read across zones. The starter read %.2f%% across zones: %+.2f points, %s KiB "
							+ "above the limit (record framing, requests to leaders, metadata).%n",
					placement.replicationFactor(), placement.partitionsWithReplicaInZone(), PARTITIONS, ZONE,
					100 * placement.limitFraction(), 100 * starter.crossZoneFraction(),
					100 * (starter.crossZoneFraction() - placement.limitFraction()),
					kib(starter.crossZoneBytes() - placement.limitBytes()));
		}
		System.out.printf("System load average (1 min) at the end: %.2f%n", BenchmarkApplication.loadAverage());
	}

	private static String kib(long bytes) {
		return String.format("%,.1f", bytes / 1024.0);
	}

	/**
	 * What one consumer received: bytes per zone from its own metrics, record bytes per
	 * partition from its listener.
	 */
	private record Reading(String description, Map<String, Long> bytesByZone, long crossZoneBytes, long totalBytes,
			long partitionsReadInZone, Map<Integer, Long> recordBytes) {

		double crossZoneFraction() {
			return (double) this.crossZoneBytes / this.totalBytes;
		}

	}

	/**
	 * One topic placement, read by both consumers, and its physical limit: no cross-zone
	 * bytes for a partition with a replica in the consumer's zone, every record byte of
	 * the others.
	 */
	private record Placement(int replicationFactor, Reading plain, Reading starter, long partitionsWithReplicaInZone,
			long limitBytes, double limitFraction, double limitVersusPlain) {

		static Placement of(int replicationFactor, MultiZoneKafkaCluster cluster, TopicDescription description,
				Reading plain, Reading starter) {
			Map<Integer, Long> recordBytes = starter.recordBytes();
			long total = recordBytes.values().stream().mapToLong(Long::longValue).sum();
			long limit = 0;
			long remoteLeaders = 0;
			long withReplicaInZone = 0;
			for (TopicPartitionInfo partition : description.partitions()) {
				long bytes = recordBytes.getOrDefault(partition.partition(), 0L);
				if (partition.replicas().stream().map(Node::id).map(cluster::rackOf).anyMatch(ZONE::equals)) {
					withReplicaInZone++;
				}
				else {
					limit += bytes;
				}
				if (!cluster.rackOf(partition.leader().id()).equals(ZONE)) {
					remoteLeaders += bytes;
				}
			}
			return new Placement(replicationFactor, plain, starter, withReplicaInZone, limit, (double) limit / total,
					(double) limit / remoteLeaders);
		}

	}

	/**
	 * Counts records and record bytes (key and value) per partition.
	 */
	static final class Deliveries {

		private final Map<Integer, AtomicLong> payloadBytes = new ConcurrentHashMap<>();

		private final AtomicLong records = new AtomicLong();

		void add(ConsumerRecord<?, ?> record) {
			long bytes = Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
			this.payloadBytes.computeIfAbsent(record.partition(), (partition) -> new AtomicLong()).addAndGet(bytes);
			this.records.incrementAndGet();
		}

		long records() {
			return this.records.get();
		}

		Map<Integer, Long> payloadBytes() {
			Map<Integer, Long> snapshot = new TreeMap<>();
			this.payloadBytes.forEach((partition, bytes) -> snapshot.put(partition, bytes.get()));
			return snapshot;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Reader {

		private final Deliveries deliveries;

		Reader(Deliveries deliveries) {
			this.deliveries = deliveries;
		}

		@KafkaListener(id = "reader", topics = "${benchmark.topic}", groupId = "${benchmark.group}")
		void read(ConsumerRecord<byte[], byte[]> record) {
			this.deliveries.add(record);
		}

	}

}
