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

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;

import static org.awaitility.Awaitility.await;

/**
 * A soak: an application in az-b with two locality and two freshness listeners, each with
 * concurrency 3, consumes tens of thousands of records produced at a steady rate, while 4
 * threads request {@code /actuator/health/followerFetch} as fast as they can. Reports
 * records lost, live threads and heap used after GC at the start and at the end, and the
 * health latency p50/p99 in the first and the last third of the run. A plain
 * {@code main}, not a test. The brokers run in the same JVM, so their threads and heap are
 * in the figures too; what matters is the difference between start and end.
 * <p>
 * {@code -Dsoak.seconds} (default 90) and {@code -Dsoak.rate} (records/s, default 500) size
 * the run.
 *
 * @author follower-fetch authors
 */
public final class SoakBenchmark {

	private static final String ZONE = "az-b";

	private static final String TOPIC = "soak";

	private static final int PARTITIONS = 12;

	private static final int CONCURRENCY = 3;

	private static final int HEALTH_THREADS = 4;

	private static final List<String> LISTENERS = List.of("locality-1", "locality-2", "freshness-1", "freshness-2");

	/**
	 * Health latencies are kept in 1 µs buckets up to 1 s per third of the run, allocated
	 * before the start figures are taken, so that recording them does not grow the heap.
	 */
	private static final int LATENCY_BUCKETS = 1_000_000;

	private SoakBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		System.setProperty("logging.level.root", "WARN");
		int seconds = Integer.getInteger("soak.seconds", 90);
		int rate = Integer.getInteger("soak.rate", 500);
		int records = seconds * rate;
		Received received = new Received(records);
		AtomicIntegerArray[] latencies = { new AtomicIntegerArray(LATENCY_BUCKETS + 1),
				new AtomicIntegerArray(LATENCY_BUCKETS + 1), new AtomicIntegerArray(LATENCY_BUCKETS + 1) };
		System.out.println(BenchmarkApplication.machine());
		try (MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder().start()) {
			cluster.createTopicLedByEveryZone(TOPIC, PARTITIONS, 3);
			try (ConfigurableApplicationContext context = start(cluster, received)) {
				String port = context.getEnvironment().getRequiredProperty("local.server.port");
				URI health = URI.create("http://127.0.0.1:" + port + "/actuator/health/followerFetch");
				HttpClient http = HttpClient.newHttpClient();
				await("followerFetch ACTIVE").atMost(Duration.ofMinutes(1))
					.pollInterval(Duration.ofMillis(200))
					.until(() -> http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
						.body()
						.contains("\"state\":\"ACTIVE\""));
				Figures start = Figures.now();
				long startedAt = System.nanoTime();
				long runNanos = TimeUnit.SECONDS.toNanos(seconds);
				AtomicBoolean running = new AtomicBoolean(true);
				AtomicLong healthFailures = new AtomicLong();
				AtomicLong healthNotUp = new AtomicLong();
				CountDownLatch pollersDone = new CountDownLatch(HEALTH_THREADS);
				for (int t = 0; t < HEALTH_THREADS; t++) {
					Thread poller = new Thread(() -> {
						HttpRequest request = HttpRequest.newBuilder(health).build();
						try {
							while (running.get()) {
								long sentAt = System.nanoTime();
								try {
									HttpResponse<String> response = http.send(request,
											HttpResponse.BodyHandlers.ofString());
									long micros = (System.nanoTime() - sentAt) / 1_000;
									if (response.statusCode() != 200 || !response.body().contains("\"status\":\"UP\"")) {
										healthNotUp.incrementAndGet();
									}
									int third = (int) Math.min(2, (sentAt - startedAt) * 3 / runNanos);
									latencies[third].incrementAndGet((int) Math.min(LATENCY_BUCKETS, micros));
								}
								catch (Exception ex) {
									healthFailures.incrementAndGet();
								}
							}
						}
						finally {
							pollersDone.countDown();
						}
					}, "soak-health-" + t);
					poller.setDaemon(true);
					poller.start();
				}
				long acknowledged = produce(cluster, records, rate);
				running.set(false);
				pollersDone.await(30, TimeUnit.SECONDS);
				await("every listener receives every acknowledged record").atMost(Duration.ofMinutes(2))
					.pollInterval(Duration.ofMillis(500))
					.until(() -> LISTENERS.stream().allMatch((id) -> received.distinct(id) >= acknowledged));
				long elapsed = System.nanoTime() - startedAt;
				Figures end = Figures.now();
				print(seconds, rate, records, acknowledged, received, start, end, latencies, healthFailures.get(),
						healthNotUp.get(), elapsed);
			}
		}
	}

	private static ConfigurableApplicationContext start(MultiZoneKafkaCluster cluster, Received received) {
		return new SpringApplicationBuilder(SoakApplication.class).bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.initializers((initializing) -> initializing.getBeanFactory().registerSingleton("received", received))
			.properties("server.port=0", "server.address=127.0.0.1",
					"management.endpoints.web.exposure.include=health",
					"management.endpoint.health.show-details=always",
					"spring.kafka.bootstrap-servers=" + cluster.bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=" + ZONE, "follower-fetch.detection.order=env",
					"follower-fetch.observation.refresh-interval=1s", "soak.topic=" + TOPIC,
					"soak.concurrency=" + CONCURRENCY, "soak.group=" + UUID.randomUUID(), "logging.level.root=WARN")
			.run();
	}

	/**
	 * Send records with keys {@code 0..records-1} at a steady rate, {@code acks=all}, and
	 * return how many were acknowledged once all are.
	 */
	private static long produce(MultiZoneKafkaCluster cluster, int records, int rate) throws InterruptedException {
		AtomicLong acknowledged = new AtomicLong();
		AtomicLong failed = new AtomicLong();
		byte[] padding = new byte[200];
		String value = new String(padding).replace('\0', 'x');
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(), ProducerConfig.ACKS_CONFIG,
						"all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.LINGER_MS_CONFIG, 5),
				new StringSerializer(), new StringSerializer())) {
			long start = System.nanoTime();
			for (int i = 0; i < records; i++) {
				long due = start + TimeUnit.SECONDS.toNanos(i) / rate;
				long wait = due - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				producer.send(new ProducerRecord<>(TOPIC, Integer.toString(i), value), (metadata, exception) -> {
					if (exception == null) {
						acknowledged.incrementAndGet();
					}
					else {
						failed.incrementAndGet();
					}
				});
			}
			producer.flush();
		}
		if (failed.get() > 0) {
			throw new IllegalStateException(failed.get() + " sends failed");
		}
		return acknowledged.get();
	}

	private static void print(int seconds, int rate, int records, long acknowledged, Received received, Figures start,
			Figures end, AtomicIntegerArray[] latencies, long healthFailures, long healthNotUp, long elapsed) {
		System.out.printf(Locale.ROOT,
				"Soak: %d s at %d records/s, %d records sent, %d acknowledged; %d listeners (2 LOCALITY, 2 FRESHNESS) "
						+ "x concurrency %d over %d partitions; %d threads polling /actuator/health/followerFetch; "
						+ "%.0f s in all%n",
				seconds, rate, records, acknowledged, LISTENERS.size(), CONCURRENCY, PARTITIONS, HEALTH_THREADS,
				elapsed / 1e9);
		for (String id : LISTENERS) {
			System.out.printf(Locale.ROOT, "  %-12s received %d distinct of %d acknowledged, %d lost, %d redelivered%n",
					id, received.distinct(id), acknowledged, acknowledged - received.distinct(id),
					received.deliveries(id) - received.distinct(id));
		}
		System.out.println("| | start | end |");
		System.out.println("|---|---:|---:|");
		System.out.printf(Locale.ROOT, "| live threads | %d | %d |%n", start.threads(), end.threads());
		System.out.printf(Locale.ROOT, "| heap used after GC | %.1f MiB | %.1f MiB |%n", start.heapMiB(),
				end.heapMiB());
		System.out.println("threads whose count changed: " + Figures.threadChanges(start, end));
		System.out.println("| health requests | p50 | p99 | count |");
		System.out.println("|---|---:|---:|---:|");
		String[] names = { "first third", "middle third", "last third" };
		for (int third = 0; third < 3; third++) {
			long[] counts = new long[LATENCY_BUCKETS + 1];
			long total = 0;
			for (int i = 0; i <= LATENCY_BUCKETS; i++) {
				counts[i] = latencies[third].get(i);
				total += counts[i];
			}
			System.out.printf(Locale.ROOT, "| %s | %.2f ms | %.2f ms | %d |%n", names[third],
					percentile(counts, total, 0.50) / 1000.0, percentile(counts, total, 0.99) / 1000.0, total);
		}
		System.out.printf("health requests failed: %d, answered other than 200 UP: %d%n", healthFailures, healthNotUp);
	}

	private static long percentile(long[] counts, long total, double fraction) {
		long rank = (long) Math.ceil(total * fraction);
		long seen = 0;
		for (int i = 0; i < counts.length; i++) {
			seen += counts[i];
			if (seen >= rank && rank > 0) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Live threads and heap used after a full GC.
	 *
	 * @param threads live threads
	 * @param heapMiB heap used, MiB
	 */
	record Figures(int threads, double heapMiB, Map<String, Integer> threadsByName) {

		static Figures now() throws InterruptedException {
			for (int i = 0; i < 3; i++) {
				System.gc();
				Thread.sleep(200);
			}
			Map<String, Integer> byName = new TreeMap<>();
			Thread.getAllStackTraces()
				.keySet()
				.forEach((thread) -> byName.merge(thread.getName().replaceAll("\\d+", "N"), 1, Integer::sum));
			return new Figures(ManagementFactory.getThreadMXBean().getThreadCount(),
					ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0), byName);
		}

		/**
		 * The thread names (digits as N) whose count changed between two figures.
		 */
		static Map<String, String> threadChanges(Figures start, Figures end) {
			Map<String, String> changes = new TreeMap<>();
			Set<String> names = new TreeSet<>(start.threadsByName().keySet());
			names.addAll(end.threadsByName().keySet());
			for (String name : names) {
				int before = start.threadsByName().getOrDefault(name, 0);
				int after = end.threadsByName().getOrDefault(name, 0);
				if (before != after) {
					changes.put(name, before + " -> " + after);
				}
			}
			return changes;
		}

	}

	/**
	 * Which keys each listener received, in bit sets allocated up front.
	 */
	static final class Received {

		private final Map<String, AtomicLongArray> bits = new ConcurrentHashMap<>();

		private final Map<String, AtomicLong> distinct = new ConcurrentHashMap<>();

		private final Map<String, AtomicLong> deliveries = new ConcurrentHashMap<>();

		Received(int records) {
			for (String id : LISTENERS) {
				this.bits.put(id, new AtomicLongArray(records / 64 + 1));
				this.distinct.put(id, new AtomicLong());
				this.deliveries.put(id, new AtomicLong());
			}
		}

		void received(String id, ConsumerRecord<byte[], byte[]> record) {
			this.deliveries.get(id).incrementAndGet();
			int key = Integer.parseInt(new String(record.key(), StandardCharsets.US_ASCII));
			AtomicLongArray bits = this.bits.get(id);
			long mask = 1L << (key % 64);
			long before = bits.getAndAccumulate(key / 64, mask, (current, bit) -> current | bit);
			if ((before & mask) == 0) {
				this.distinct.get(id).incrementAndGet();
			}
		}

		long distinct(String id) {
			return this.distinct.get(id).get();
		}

		long deliveries(String id) {
			return this.deliveries.get(id).get();
		}

	}

	/**
	 * The application under soak: two locality and two freshness listeners, each its own
	 * consumer group, all on one topic.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class SoakApplication {

		@Bean
		SoakListeners soakListeners(Received received) {
			return new SoakListeners(received);
		}

	}

	static class SoakListeners {

		private final Received received;

		SoakListeners(Received received) {
			this.received = received;
		}

		@KafkaListener(id = "locality-1", topics = "${soak.topic}", groupId = "${soak.group}-locality-1",
				concurrency = "${soak.concurrency}")
		void locality1(ConsumerRecord<byte[], byte[]> record) {
			this.received.received("locality-1", record);
		}

		@KafkaListener(id = "locality-2", topics = "${soak.topic}", groupId = "${soak.group}-locality-2",
				concurrency = "${soak.concurrency}")
		void locality2(ConsumerRecord<byte[], byte[]> record) {
			this.received.received("locality-2", record);
		}

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = "freshness-1", topics = "${soak.topic}", groupId = "${soak.group}-freshness-1",
				concurrency = "${soak.concurrency}")
		void freshness1(ConsumerRecord<byte[], byte[]> record) {
			this.received.received("freshness-1", record);
		}

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = "freshness-2", topics = "${soak.topic}", groupId = "${soak.group}-freshness-2",
				concurrency = "${soak.concurrency}")
		void freshness2(ConsumerRecord<byte[], byte[]> record) {
			this.received.received("freshness-2", record);
		}

	}

}
