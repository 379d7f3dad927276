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

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;

import static org.awaitility.Awaitility.await;

/**
 * End-to-end latency, from a record's creation at the producer to the invocation of a
 * listener in zone {@code az-b}, for plain Spring Kafka (leader reads), a LOCALITY and a
 * FRESHNESS listener consuming the same topic at the same time. Two real three-zone
 * clusters run side by side, one with the broker default
 * {@code replica.fetch.wait.max.ms} and one with a lower value, and get the same records
 * at the same moments, so that machine load and pauses hit every column alike. Not a unit
 * test; run it with
 * {@code ./mvnw -B -pl autoconfigure -am test-compile exec:exec@freshness-benchmark}. The
 * system property {@code benchmark.fetch.max.wait.ms} sets the consumers'
 * {@code fetch.max.wait.ms} (500 by default, as in Kafka).
 *
 * @author follower-fetch authors
 */
public final class FreshnessLatencyBenchmark {

	private static final String TOPIC = "latency";

	private static final int PARTITIONS = 3;

	private static final int RATE_PER_SECOND = 20;

	private static final int RECORDS = 600;

	private static final int WARM_UP_RECORDS = 100;

	private static final int RECORD_SIZE = 100;

	private static final long FETCH_MAX_WAIT_MS = Long.getLong("benchmark.fetch.max.wait.ms", 500);

	private static final double GOAL = 1.10;

	private static final Duration CONSUME_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

	private static final String LEADER = "leader";

	private static final String LOCALITY = "locality";

	private static final String FRESHNESS = "freshness";

	private FreshnessLatencyBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		List<Scenario> scenarios = List.of(new Scenario("500 (default)", null), new Scenario("50", "50"));
		try {
			scenarios.forEach(Scenario::start);
			double loadBefore = BenchmarkApplication.loadAverage();
			produceSteadily(scenarios);
			for (Scenario scenario : scenarios) {
				await("every listener on the cluster with replica.fetch.wait.max.ms=" + scenario.replicaFetchWait
						+ " receives " + RECORDS + " records")
					.atMost(CONSUME_TIMEOUT)
					.pollInterval(Duration.ofMillis(50))
					.until(scenario.latencies::complete);
			}
			List<Map<String, Result>> results = new ArrayList<>();
			for (Scenario scenario : scenarios) {
				results.add(scenario.results());
			}
			print(scenarios, results);
			System.out.printf("System load average (1 min) before producing %.2f, after consuming %.2f%n", loadBefore,
					BenchmarkApplication.loadAverage());
		}
		finally {
			scenarios.forEach(Scenario::close);
		}
	}

	/**
	 * Send at a fixed rate to every cluster, round-robin over the partitions so that every
	 * leader gets a steady share. Each value starts with the {@link System#nanoTime()} of
	 * its send, for sub-millisecond resolution; the record's CreateTime is taken by the
	 * producer in the same {@code send} call.
	 */
	private static void produceSteadily(List<Scenario> scenarios) throws Exception {
		long interval = TimeUnit.SECONDS.toNanos(1) / RATE_PER_SECOND;
		List<Future<RecordMetadata>> sends = new ArrayList<>(RECORDS * scenarios.size());
		long start = System.nanoTime();
		for (int sequence = 0; sequence < RECORDS; sequence++) {
			long due = start + sequence * interval;
			for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
				LockSupport.parkNanos(wait);
			}
			byte[] key = Latencies.key(sequence);
			for (Scenario scenario : scenarios) {
				sends.add(scenario.producer.send(
						new ProducerRecord<>(TOPIC, sequence % PARTITIONS, null, key, Latencies.value(RECORD_SIZE))));
			}
		}
		for (Future<RecordMetadata> send : sends) {
			send.get(CONSUME_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
	}

	private static void print(List<Scenario> scenarios, List<Map<String, Result>> results) {
		System.out.println();
		System.out.println(BenchmarkApplication.machine());
		System.out.printf(
				"%d partitions led by every zone, RF=3; %d records of %d bytes at %d/s, first %d discarded; "
						+ "consumers in %s with fetch.max.wait.ms=%d, fetch.min.bytes=1%n%n",
				PARTITIONS, RECORDS, RECORD_SIZE, RATE_PER_SECOND, WARM_UP_RECORDS, BenchmarkApplication.ZONE,
				FETCH_MAX_WAIT_MS);
		System.out.println("| replica.fetch.wait.max.ms | listener | partitions read from a follower | records | "
				+ "p50 (ms) | p99 (ms) | max (ms) | p50 / leader | p99 / leader |");
		System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|---:|");
		for (int i = 0; i < scenarios.size(); i++) {
			Result leader = results.get(i).get(LEADER);
			for (Result result : results.get(i).values()) {
				System.out.printf("| %s | %s | %d/%d | %d | %.1f | %.1f | %.1f | %.2fx | %.2fx |%n",
						scenarios.get(i).replicaFetchWait, result.name(), result.followerPartitions(), PARTITIONS,
						result.all().records(), millis(result.all().p50()), millis(result.all().p99()),
						millis(result.all().max()), ratio(result.all().p50(), leader.all().p50()),
						ratio(result.all().p99(), leader.all().p99()));
			}
		}
		System.out.println();
		System.out.println("By partition:");
		System.out.println();
		System.out.println("| replica.fetch.wait.max.ms | partition (leader) | "
				+ "locality reads from | locality p50 (ms) | locality p99 (ms) | leader p50 (ms) | leader p99 (ms) |");
		System.out.println("|---:|---|---|---:|---:|---:|---:|");
		for (int i = 0; i < scenarios.size(); i++) {
			Scenario scenario = scenarios.get(i);
			Result locality = results.get(i).get(LOCALITY);
			Result leader = results.get(i).get(LEADER);
			for (int partition = 0; partition < PARTITIONS; partition++) {
				int leaderId = scenario.leaders.get(partition);
				int served = locality.servingBrokers().get(partition);
				Percentiles local = locality.byPartition().get(partition);
				Percentiles remote = leader.byPartition().get(partition);
				System.out.printf("| %s | %d (%s%s) | %s | %.1f | %.1f | %.1f | %.1f |%n", scenario.replicaFetchWait,
						partition, scenario.cluster.rackOf(leaderId),
						(leaderId == scenario.coordinator) ? ", also leads __consumer_offsets" : "",
						(served == leaderId) ? "leader" : "follower in " + scenario.cluster.rackOf(served),
						millis(local.p50()), millis(local.p99()), millis(remote.p50()), millis(remote.p99()));
			}
		}
		System.out.println();
		for (int i = 0; i < scenarios.size(); i++) {
			double ratio = ratio(results.get(i).get(FRESHNESS).all().p99(), results.get(i).get(LEADER).all().p99());
			System.out.printf("replica.fetch.wait.max.ms=%s: FRESHNESS p99 is %.2fx plain leader reads: goal "
					+ "(within %.0f%%) %s%n", scenarios.get(i).replicaFetchWait, ratio, (GOAL - 1) * 100,
					(ratio <= GOAL) ? "met" : "NOT met");
		}
		Percentiles first = results.get(0).get(LEADER).all();
		for (int i = 1; i < scenarios.size(); i++) {
			Percentiles other = results.get(i).get(LEADER).all();
			System.out.printf("Noise floor: plain leader reads, which replica.fetch.wait.max.ms does not touch, "
					+ "measured %.2fx at p50 and %.2fx at p99 on the cluster with %s as on the one with %s%n",
					ratio(other.p50(), first.p50()), ratio(other.p99(), first.p99()),
					scenarios.get(i).replicaFetchWait, scenarios.get(0).replicaFetchWait);
		}
		for (int i = 0; i < scenarios.size(); i++) {
			StringBuilder line = new StringBuilder("replica.fetch.wait.max.ms=" + scenarios.get(i).replicaFetchWait
					+ ", CreateTime-based p50/p99 (ms):");
			results.get(i)
				.values()
				.forEach((result) -> line.append(' ')
					.append(result.name())
					.append(' ')
					.append(result.createTimeP50())
					.append('/')
					.append(result.createTimeP99()));
			System.out.println(line);
		}
	}

	private static double ratio(long value, long baseline) {
		return (double) value / baseline;
	}

	private static double millis(long nanos) {
		return nanos / 1e6;
	}

	/**
	 * One cluster with its topic, its producer and both applications consuming from it.
	 */
	private static final class Scenario implements AutoCloseable {

		private final String replicaFetchWait;

		private final String brokerValue;

		private final Latencies latencies = new Latencies(List.of(LEADER, LOCALITY, FRESHNESS), RECORDS, WARM_UP_RECORDS,
				PARTITIONS);

		private MultiZoneKafkaCluster cluster;

		private Map<Integer, Integer> leaders;

		private int coordinator;

		private KafkaProducer<byte[], byte[]> producer;

		private ConfigurableApplicationContext plain;

		private ConfigurableApplicationContext starter;

		Scenario(String replicaFetchWait, String brokerValue) {
			this.replicaFetchWait = replicaFetchWait;
			this.brokerValue = brokerValue;
		}

		void start() {
			MultiZoneKafkaCluster.Builder builder = MultiZoneKafkaCluster.builder().zones("az-a", "az-b", "az-c");
			if (this.brokerValue != null) {
				builder.brokerProperty("replica.fetch.wait.max.ms", this.brokerValue);
			}
			this.cluster = builder.start();
			this.leaders = new TreeMap<>();
			this.cluster.createTopicLedByEveryZone(TOPIC, PARTITIONS, 3)
				.forEach((partition, replicas) -> this.leaders.put(partition, replicas.get(0)));
			this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
					this.cluster.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG,
					0), new ByteArraySerializer(), new ByteArraySerializer());
			String[] properties = { "benchmark.topic=" + TOPIC,
					"spring.kafka.consumer.fetch-max-wait=" + FETCH_MAX_WAIT_MS + "ms" };
			this.plain = BenchmarkApplication.PLAIN.start(this.cluster, LeaderListener.class, this.latencies,
					properties);
			this.starter = BenchmarkApplication.STARTER.start(this.cluster, PolicyListeners.class, this.latencies,
					properties);
			this.coordinator = this.cluster.describeTopic("__consumer_offsets").partitions().get(0).leader().id();
		}

		Map<String, Result> results() {
			Map<String, Result> results = new LinkedHashMap<>();
			results.put(LEADER, result(LEADER, this.plain));
			results.put(LOCALITY, result(LOCALITY, this.starter));
			results.put(FRESHNESS, result(FRESHNESS, this.starter));
			return results;
		}

		private Result result(String listener, ConfigurableApplicationContext context) {
			ConsumerReadStats stats = Listeners.readStats(context, listener);
			Map<Integer, Integer> servingBrokers = new TreeMap<>();
			this.leaders.forEach((partition, leader) -> {
				Integer replica = stats.preferredReadReplicas().get(new TopicPartition(TOPIC, partition));
				if (replica == null) {
					throw new IllegalStateException(listener + " reports no read replica for partition " + partition);
				}
				servingBrokers.put(partition, (replica == ConsumerReadStats.LEADER) ? leader : replica);
			});
			Map<Integer, Percentiles> byPartition = new TreeMap<>();
			for (int partition = 0; partition < PARTITIONS; partition++) {
				byPartition.put(partition, this.latencies.percentiles(listener, partition));
			}
			Percentiles createTime = this.latencies.createTimePercentiles(listener);
			long followerPartitions = servingBrokers.entrySet()
				.stream()
				.filter((entry) -> !entry.getValue().equals(this.leaders.get(entry.getKey())))
				.count();
			return new Result(listener, this.latencies.percentiles(listener, -1), byPartition, createTime.p50(),
					createTime.p99(), followerPartitions, servingBrokers);
		}

		@Override
		public void close() {
			closeQuietly(this.starter);
			closeQuietly(this.plain);
			if (this.producer != null) {
				this.producer.close(CLOSE_TIMEOUT);
			}
			closeQuietly(this.cluster);
		}

		private static void closeQuietly(AutoCloseable resource) {
			if (resource != null) {
				try {
					resource.close();
				}
				catch (Exception ex) {
					System.err.println("Failed to close " + resource + ": " + ex);
				}
			}
		}

	}

	/**
	 * Latencies of one listener: all records after the warm-up, and per partition.
	 */
	private record Result(String name, Percentiles all, Map<Integer, Percentiles> byPartition, long createTimeP50,
			long createTimeP99, long followerPartitions, Map<Integer, Integer> servingBrokers) {

	}

	@Configuration(proxyBeanMethods = false)
	static class LeaderListener {

		private final Latencies latencies;

		LeaderListener(Latencies latencies) {
			this.latencies = latencies;
		}

		@KafkaListener(id = LEADER, topics = "${benchmark.topic}", groupId = "${benchmark.group}-leader")
		void leader(ConsumerRecord<byte[], byte[]> record) {
			this.latencies.record(LEADER, record);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PolicyListeners {

		private final Latencies latencies;

		PolicyListeners(Latencies latencies) {
			this.latencies = latencies;
		}

		@FetchPolicy(Policy.LOCALITY)
		@KafkaListener(id = LOCALITY, topics = "${benchmark.topic}", groupId = "${benchmark.group}-locality")
		void locality(ConsumerRecord<byte[], byte[]> record) {
			this.latencies.record(LOCALITY, record);
		}

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = FRESHNESS, topics = "${benchmark.topic}", groupId = "${benchmark.group}-freshness")
		void freshness(ConsumerRecord<byte[], byte[]> record) {
			this.latencies.record(FRESHNESS, record);
		}

	}

}
