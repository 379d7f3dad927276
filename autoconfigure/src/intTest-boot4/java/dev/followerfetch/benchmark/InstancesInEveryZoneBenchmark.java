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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import dev.followerfetch.benchmark.Latencies.Percentiles;
import dev.followerfetch.e2e.Listeners;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

import static org.awaitility.Awaitility.await;

/**
 * Three instances of one application, one in each zone, with a LOCALITY and a FRESHNESS
 * listener group on a topic of six partitions (RF=3, two leaders per zone): plain Spring
 * Kafka, the starter with zone-aware assignment off, and the starter with it on, all
 * consuming the same records at the same time from one three-zone cluster. For each
 * listener: where its partitions are read from (an in-zone leader, an in-zone follower,
 * another zone), the share of its bytes that crossed zones, and its end-to-end latency,
 * side by side with plain Spring Kafka as ratios; all from what the consumers report. Not
 * a unit test; run it with
 * {@code ./mvnw -B -pl autoconfigure -am test-compile exec:exec@instances-benchmark}.
 *
 * @author follower-fetch authors
 */
public final class InstancesInEveryZoneBenchmark {

	private static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	private static final String TOPIC = "instances";

	private static final int PARTITIONS = 6;

	private static final int RATE_PER_SECOND = 30;

	private static final int RECORDS = 900;

	private static final int WARM_UP_RECORDS = 150;

	private static final int RECORD_SIZE = 100;

	private static final double LOCALITY_GOAL = 1.2;

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

	private static final String LOCALITY = "locality";

	private static final String FRESHNESS = "freshness";

	private static final List<String> LISTENERS = List.of(LOCALITY, FRESHNESS);

	private InstancesInEveryZoneBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		Latencies latencies = new Latencies(
				Setup.all().stream().flatMap((setup) -> LISTENERS.stream().map(setup::key)).toList(), RECORDS,
				WARM_UP_RECORDS, PARTITIONS);
		List<Instance> instances = new ArrayList<>();
		try (MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder().zones(ZONES.toArray(String[]::new)).start();
				KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
						Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
								ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 0),
						new ByteArraySerializer(), new ByteArraySerializer())) {
			Map<Integer, Integer> leaders = new TreeMap<>();
			cluster.createTopicLedByEveryZone(TOPIC, PARTITIONS, 3)
				.forEach((partition, replicas) -> leaders.put(partition, replicas.get(0)));
			String run = UUID.randomUUID().toString();
			for (Setup setup : Setup.all()) {
				for (String zone : ZONES) {
					instances.add(setup.start(cluster, zone, latencies, run));
				}
			}
			awaitBalanced(instances);
			Map<Instance, Map<String, ConsumerReadStats>> before = stats(instances);
			double loadBefore = BenchmarkApplication.loadAverage();
			produceSteadily(producer);
			await("every listener group receives " + RECORDS + " records").atMost(TIMEOUT)
				.pollInterval(Duration.ofMillis(50))
				.until(latencies::complete);
			print(cluster, leaders, latencies, instances, before, loadBefore);
		}
		finally {
			instances.forEach(Instance::close);
		}
	}

	/**
	 * Wait until every group has settled: each instance reads two of the six partitions,
	 * for longer than {@code fetch.max.wait.ms}, so that no fetch sent under an earlier
	 * assignment is still open when the measurement starts.
	 */
	private static void awaitBalanced(List<Instance> instances) {
		await("every group assigns two partitions to each of its instances").during(Duration.ofSeconds(2))
			.atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(100))
			.until(() -> instances.stream()
				.allMatch((instance) -> LISTENERS.stream()
					.allMatch((listener) -> instance.assigned(listener).size() == PARTITIONS / ZONES.size())));
	}

	private static Map<Instance, Map<String, ConsumerReadStats>> stats(List<Instance> instances) {
		Map<Instance, Map<String, ConsumerReadStats>> stats = new TreeMap<>();
		for (Instance instance : instances) {
			Map<String, ConsumerReadStats> byListener = new TreeMap<>();
			for (String listener : LISTENERS) {
				byListener.put(listener, Listeners.readStats(instance.context(), listener));
			}
			stats.put(instance, byListener);
		}
		return stats;
	}

	/**
	 * Send at a fixed rate, round-robin over the partitions, so that every leader gets a
	 * steady share.
	 */
	private static void produceSteadily(KafkaProducer<byte[], byte[]> producer) throws Exception {
		long interval = TimeUnit.SECONDS.toNanos(1) / RATE_PER_SECOND;
		List<Future<RecordMetadata>> sends = new ArrayList<>(RECORDS);
		long start = System.nanoTime();
		for (int sequence = 0; sequence < RECORDS; sequence++) {
			long due = start + sequence * interval;
			for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
				LockSupport.parkNanos(wait);
			}
			sends.add(producer.send(new ProducerRecord<>(TOPIC, sequence % PARTITIONS, null, Latencies.key(sequence),
					Latencies.value(RECORD_SIZE))));
		}
		for (Future<RecordMetadata> send : sends) {
			send.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	private static void print(MultiZoneKafkaCluster cluster, Map<Integer, Integer> leaders, Latencies latencies,
			List<Instance> instances, Map<Instance, Map<String, ConsumerReadStats>> before, double loadBefore) {
		Map<Instance, Map<String, ConsumerReadStats>> after = stats(instances);
		System.out.println();
		System.out.println(BenchmarkApplication.machine());
		System.out.printf(
				"%d partitions led by every zone, RF=3; one instance per zone (%s) per setup; %d records of %d bytes "
						+ "at %d/s, first %d left out of the latencies%n%n",
				PARTITIONS, String.join(", ", ZONES), RECORDS, RECORD_SIZE, RATE_PER_SECOND, WARM_UP_RECORDS);
		System.out.println("| setup | listener | partitions from an in-zone leader | from an in-zone follower | "
				+ "from another zone | cross-zone bytes | p50 (ms) | p99 (ms) | p50 / plain | p99 / plain |");
		System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
		Map<String, Percentiles> plain = new TreeMap<>();
		for (String listener : LISTENERS) {
			plain.put(listener, latencies.percentiles(Setup.PLAIN.key(listener), -1));
		}
		Map<String, Reads> allReads = new TreeMap<>();
		for (Setup setup : Setup.all()) {
			for (String listener : LISTENERS) {
				Reads reads = new Reads();
				instances.stream()
					.filter((instance) -> instance.setup() == setup)
					.forEach((instance) -> reads.add(cluster, leaders, instance, listener,
							after.get(instance).get(listener).since(before.get(instance).get(listener))));
				allReads.put(setup.key(listener), reads);
				Percentiles latency = latencies.percentiles(setup.key(listener), -1);
				System.out.printf("| %s | %s | %d/%d | %d/%d | %d/%d | %.2f%% | %.1f | %.1f | %.2fx | %.2fx |%n",
						setup.description, listener, reads.count(Source.IN_ZONE_LEADER), PARTITIONS,
						reads.count(Source.IN_ZONE_FOLLOWER), PARTITIONS, reads.count(Source.OTHER_ZONE), PARTITIONS,
						100.0 * reads.crossZoneBytes / reads.totalBytes, millis(latency.p50()), millis(latency.p99()),
						ratio(latency.p50(), plain.get(listener).p50()),
						ratio(latency.p99(), plain.get(listener).p99()));
			}
		}
		System.out.println();
		System.out.println("By where each partition is read from, same run:");
		System.out.println();
		System.out.println("| setup | listener | read from | partitions | p50 (ms) | p99 (ms) |");
		System.out.println("|---|---|---|---:|---:|---:|");
		allReads.forEach((key, reads) -> {
			for (Source source : Source.values()) {
				Percentiles latency = latencies.percentiles(key, (partition) -> reads.source(partition) == source);
				if (latency != null) {
					Setup setup = Setup.valueOf(key.substring(0, key.indexOf('/')));
					System.out.printf("| %s | %s | %s | %d | %.1f | %.1f |%n", setup.description,
							key.substring(key.indexOf('/') + 1), source.description, reads.count(source),
							millis(latency.p50()), millis(latency.p99()));
				}
			}
		});
		System.out.println();
		for (Setup setup : List.of(Setup.OFF, Setup.ON)) {
			double ratio = ratio(latencies.percentiles(setup.key(LOCALITY), -1).p99(), plain.get(FRESHNESS).p99());
			System.out.printf("%s: LOCALITY p99 is %.2fx plain Spring Kafka's leader reads (goal with zone-aware "
					+ "assignment: within %.1fx)%n", setup.description, ratio, LOCALITY_GOAL);
		}
		int coordinator = cluster.describeTopic("__consumer_offsets").partitions().get(0).leader().id();
		System.out.printf("__consumer_offsets (one partition: every group's coordinator, where they commit) is led "
				+ "in %s%n", cluster.rackOf(coordinator));
		System.out.printf("System load average (1 min) before producing %.2f, after consuming %.2f%n", loadBefore,
				BenchmarkApplication.loadAverage());
	}

	private static double ratio(long value, long baseline) {
		return (double) value / baseline;
	}

	private static double millis(long nanos) {
		return nanos / 1e6;
	}

	/**
	 * The three ways one application runs, each with an instance in every zone.
	 */
	private enum Setup {

		PLAIN("plain Spring Kafka", BenchmarkApplication.PLAIN),

		OFF("starter, zone-aware assignment off", BenchmarkApplication.STARTER,
				"follower-fetch.assignment.enabled=false"),

		ON("starter, zone-aware assignment on", BenchmarkApplication.STARTER);

		private final String description;

		private final BenchmarkApplication application;

		private final String[] properties;

		Setup(String description, BenchmarkApplication application, String... properties) {
			this.description = description;
			this.application = application;
			this.properties = properties;
		}

		static List<Setup> all() {
			return List.of(values());
		}

		String key(String listener) {
			return name() + "/" + listener;
		}

		Instance start(MultiZoneKafkaCluster cluster, String zone, Latencies latencies, String run) {
			List<String> all = new ArrayList<>(List.of("benchmark.topic=" + TOPIC, "benchmark.setup=" + name(),
					"benchmark.group=" + run + "-" + name()));
			all.addAll(List.of(this.properties));
			return new Instance(this, zone, this.application.start(cluster, zone, ZoneListeners.class, latencies,
					all.toArray(String[]::new)));
		}

	}

	private record Instance(Setup setup, String zone,
			ConfigurableApplicationContext context) implements Comparable<Instance> {

		Collection<TopicPartition> assigned(String listener) {
			Collection<TopicPartition> assigned = this.context.getBean(KafkaListenerEndpointRegistry.class)
				.getListenerContainer(listener)
				.getAssignedPartitions();
			return (assigned != null) ? assigned : List.of();
		}

		void close() {
			this.context.close();
		}

		@Override
		public int compareTo(Instance other) {
			int bySetup = this.setup.compareTo(other.setup);
			return (bySetup != 0) ? bySetup : this.zone.compareTo(other.zone);
		}

	}

	/**
	 * Where a partition is read from, judged against the zone of the instance reading it.
	 */
	private enum Source {

		IN_ZONE_LEADER("an in-zone leader"), IN_ZONE_FOLLOWER("an in-zone follower"), OTHER_ZONE("another zone");

		private final String description;

		Source(String description) {
			this.description = description;
		}

	}

	/**
	 * What one listener group read, over its instances: where each assigned partition was
	 * read from, and the bytes from brokers in another zone than the reading instance's.
	 */
	private static final class Reads {

		private final Map<Integer, Source> sources = new TreeMap<>();

		private long totalBytes;

		private long crossZoneBytes;

		void add(MultiZoneKafkaCluster cluster, Map<Integer, Integer> leaders, Instance instance, String listener,
				ConsumerReadStats read) {
			for (TopicPartition partition : instance.assigned(listener)) {
				Integer replica = read.preferredReadReplicas().get(partition);
				if (replica == null) {
					throw new IllegalStateException(
							instance.setup().description + " " + listener + " reports no read replica for " + partition);
				}
				int leader = leaders.get(partition.partition());
				int broker = (replica == ConsumerReadStats.LEADER) ? leader : replica;
				Source source = !cluster.rackOf(broker).equals(instance.zone()) ? Source.OTHER_ZONE
						: (broker == leader) ? Source.IN_ZONE_LEADER : Source.IN_ZONE_FOLLOWER;
				if (this.sources.put(partition.partition(), source) != null) {
					throw new IllegalStateException(partition + " is assigned twice in " + instance.setup().description);
				}
			}
			this.totalBytes += read.totalBytes();
			this.crossZoneBytes += read.totalBytes()
					- read.bytesByZone(cluster::rackOf).getOrDefault(instance.zone(), 0L);
		}

		Source source(int partition) {
			return this.sources.get(partition);
		}

		long count(Source source) {
			return this.sources.values().stream().filter(source::equals).count();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ZoneListeners {

		private final Latencies latencies;

		private final String setup;

		ZoneListeners(Latencies latencies, @Value("${benchmark.setup}") String setup) {
			this.latencies = latencies;
			this.setup = setup;
		}

		@FetchPolicy(Policy.LOCALITY)
		@KafkaListener(id = LOCALITY, topics = "${benchmark.topic}", groupId = "${benchmark.group}-locality")
		void locality(ConsumerRecord<byte[], byte[]> record) {
			this.latencies.record(this.setup + "/" + LOCALITY, record);
		}

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = FRESHNESS, topics = "${benchmark.topic}", groupId = "${benchmark.group}-freshness")
		void freshness(ConsumerRecord<byte[], byte[]> record) {
			this.latencies.record(this.setup + "/" + FRESHNESS, record);
		}

	}

}
