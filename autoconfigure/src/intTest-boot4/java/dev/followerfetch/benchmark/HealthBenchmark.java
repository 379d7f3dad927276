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
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import dev.followerfetch.observation.FollowerFetchSnapshot;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaListenerConfigurer;
import org.springframework.kafka.config.KafkaListenerEndpointRegistrar;
import org.springframework.kafka.config.MethodKafkaListenerEndpoint;
import org.springframework.messaging.handler.annotation.support.DefaultMessageHandlerMethodFactory;
import org.springframework.util.ReflectionUtils;

import static org.awaitility.Awaitility.await;

/**
 * What the {@code followerFetch} health contributor costs: the latency of health requests
 * with it and without it, and the time one background refresh takes with N listeners over
 * P partitions, on a real three-zone cluster. A plain {@code main}, not a test.
 *
 * @author follower-fetch authors
 */
public final class HealthBenchmark {

	private static final int RECORDS = 600;

	/**
	 * The largest refresh scenario: listeners, each its own group reading the whole topic,
	 * and the topic's partitions. Its topic gets one small record per partition, just
	 * enough for every partition to be fetched once.
	 */
	private static final int HUGE_LISTENERS = 50;

	private static final int HUGE_PARTITIONS = 1_200;

	/**
	 * The monitor's own Admin client ({@code ClusterInspectors}): {@code follower-fetch-monitor},
	 * and for other clusters ids that start with it.
	 */
	private static final String MONITOR_ADMIN_METRICS = "kafka.admin.client:type=admin-client-metrics,client-id=follower-fetch-monitor*";

	private static final int WARM_UP_REQUESTS = 2_000;

	private static final int REQUESTS = 5_000;

	private static final int ROUNDS = 10;

	private static final int REFRESHES = 200;

	/**
	 * Refreshes measured in the largest scenario, where one refresh reads the metrics of
	 * 60,000 assigned partitions.
	 */
	private static final int HUGE_REFRESHES = 50;

	private final HttpClient http = HttpClient.newHttpClient();

	private HealthBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		System.setProperty("logging.level.root", "WARN");
		try (MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder().timeout(Duration.ofMinutes(3)).start()) {
			cluster.createTopicLedByEveryZone("small", 6, 3);
			cluster.createTopicLedByEveryZone("large", 60, 3);
			cluster.produce("small", RECORDS, 1024);
			cluster.produce("large", RECORDS, 1024);
			new HealthBenchmark().run(cluster);
		}
	}

	private void run(MultiZoneKafkaCluster cluster) throws Exception {
		List<String> rows = new ArrayList<>();
		try (ConfigurableApplicationContext withHealth = start(cluster, "large", 10, true);
				ConfigurableApplicationContext withoutHealth = start(cluster, "large", 10, false)) {
			List<Stats> stats = requests(List.of(new Target(withoutHealth, "/actuator/health"),
					new Target(withHealth, "/actuator/health"), new Target(withHealth, "/actuator/health/ping"),
					new Target(withHealth, "/actuator/health/followerFetch")));
			Stats aggregateWithout = stats.get(0);
			Stats aggregateWith = stats.get(1);
			Stats ping = stats.get(2);
			Stats followerFetch = stats.get(3);
			rows.add(row("GET /actuator/health, followerFetch disabled", aggregateWithout, aggregateWithout));
			rows.add(row("GET /actuator/health, followerFetch enabled", aggregateWith, aggregateWithout));
			rows.add(row("GET /actuator/health/ping", ping, aggregateWithout));
			rows.add(row("GET /actuator/health/followerFetch", followerFetch, aggregateWithout));
			print("Health requests (10 listeners, 60 partitions each; " + REQUESTS
					+ " sequential requests per scenario, interleaved in " + ROUNDS + " rounds)",
					"vs disabled", rows);
		}
		// one application at a time: every monitor's Admin client has the same client id, so
		// its JMX metrics are only this application's when no other one runs
		Refresh small = refreshes(cluster, "small", 1, 6, RECORDS, REFRESHES);
		Refresh large = refreshes(cluster, "large", 10, 60, RECORDS, REFRESHES);
		long created = System.nanoTime();
		cluster.createTopicLedByEveryZone("huge", HUGE_PARTITIONS, 3);
		cluster.produce("huge", HUGE_PARTITIONS, 16);
		System.out.printf(Locale.ROOT, "%ntopic 'huge' (%d partitions, RF 3) created and filled in %.1f s%n",
				HUGE_PARTITIONS, (System.nanoTime() - created) / 1e9);
		Refresh huge = refreshes(cluster, "huge", HUGE_LISTENERS, HUGE_PARTITIONS, HUGE_PARTITIONS, HUGE_REFRESHES);
		List<String> refreshRows = List.of(refreshRow(small, small), refreshRow(large, small), refreshRow(huge, small));
		System.out.println();
		System.out.println("One background refresh (" + REFRESHES + " refreshes, " + HUGE_REFRESHES + " for "
				+ HUGE_LISTENERS + " x " + HUGE_PARTITIONS
				+ ", after 20 warm-up; admin calls to the brokers included; one application at a time)");
		System.out.println();
		System.out.println("| listeners x partitions | assigned partitions | p50 (ms) | p99 (ms) | mean (ms) "
				+ "| mean ms per 1,000 assigned | admin requests per refresh | assigned vs 1x6 | p50 vs 1x6 "
				+ "| mean vs 1x6 | admin requests vs 1x6 |");
		System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
		refreshRows.forEach(System.out::println);
	}

	private Refresh refreshes(MultiZoneKafkaCluster cluster, String topic, int listeners, int partitions,
			int records, int refreshes) throws Exception {
		long started = System.nanoTime();
		try (ConfigurableApplicationContext context = start(cluster, topic, listeners, true, records)) {
			double startSeconds = (System.nanoTime() - started) / 1e9;
			ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
			FollowerFetchSnapshot snapshot = monitor.refresh();
			int assigned = snapshot.listeners().values().stream().mapToInt((reads) -> reads.partitions()).sum();
			if (assigned != listeners * partitions) {
				throw new IllegalStateException(
						topic + ": " + assigned + " partitions assigned, expected " + listeners * partitions);
			}
			for (int i = 0; i < 20; i++) {
				monitor.refresh();
			}
			System.out.printf(Locale.ROOT, "%d listeners x %d partitions: ready after %.1f s, measuring%n", listeners,
					partitions, (System.nanoTime() - started) / 1e9);
			double requestsBefore = adminRequests();
			long[] nanos = new long[refreshes];
			for (int i = 0; i < refreshes; i++) {
				long start = System.nanoTime();
				monitor.refresh();
				nanos[i] = System.nanoTime() - start;
			}
			double requests = (adminRequests() - requestsBefore) / refreshes;
			System.out.printf(Locale.ROOT, "%d listeners x %d partitions: application ready and every partition "
					+ "fetched in %.1f s; heap used %d MB; refresh mean %.3f ms, %.2f admin requests per refresh%n",
					listeners, partitions, startSeconds, usedHeapMegabytes(), Stats.of(nanos).mean(), requests);
			return new Refresh(listeners, partitions, assigned, Stats.of(nanos), requests);
		}
	}

	private static long usedHeapMegabytes() {
		Runtime runtime = Runtime.getRuntime();
		return (runtime.totalMemory() - runtime.freeMemory()) / (1024 * 1024);
	}

	/**
	 * The requests the monitor's Admin clients have sent, from their own JMX metrics.
	 * @return the sum of {@code request-total} of every monitor Admin client
	 */
	private static double adminRequests() throws Exception {
		MBeanServer server = ManagementFactory.getPlatformMBeanServer();
		Set<ObjectName> names = server.queryNames(new ObjectName(MONITOR_ADMIN_METRICS), null);
		if (names.isEmpty()) {
			throw new IllegalStateException("no MBean " + MONITOR_ADMIN_METRICS);
		}
		double total = 0;
		for (ObjectName name : names) {
			total += ((Number) server.getAttribute(name, "request-total")).doubleValue();
		}
		return total;
	}

	private static String refreshRow(Refresh refresh, Refresh baseline) {
		Stats stats = refresh.stats();
		return String.format(Locale.ROOT,
				"| %d x %,d | %,d | %.3f | %.3f | %.3f | %.3f | %.2f | %.0fx | %.2fx | %.2fx | %.2fx |",
				refresh.listeners(), refresh.partitions(), refresh.assigned(), stats.p50(), stats.p99(), stats.mean(),
				stats.mean() * 1000.0 / refresh.assigned(), refresh.adminRequests(),
				(double) refresh.assigned() / baseline.assigned(), stats.p50() / baseline.stats().p50(),
				stats.mean() / baseline.stats().mean(), refresh.adminRequests() / baseline.adminRequests());
	}

	private ConfigurableApplicationContext start(MultiZoneKafkaCluster cluster, String topic, int listeners,
			boolean health) {
		return start(cluster, topic, listeners, health, RECORDS);
	}

	private ConfigurableApplicationContext start(MultiZoneKafkaCluster cluster, String topic, int listeners,
			boolean health, int records) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthBenchmarkApplication.class)
			.properties("server.port=0", "server.address=127.0.0.1",
					"management.endpoints.web.exposure.include=health",
					"management.endpoint.health.show-details=always",
					"management.health.followerfetch.enabled=" + health,
					"spring.kafka.bootstrap-servers=" + cluster.bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=az-b", "follower-fetch.detection.order=env",
					"follower-fetch.observation.refresh-interval=1h", "benchmark.topic=" + topic,
					"benchmark.listeners=" + listeners, "benchmark.group=" + UUID.randomUUID(),
					"logging.level.root=WARN")
			.run();
		Counts counts = context.getBean(Counts.class);
		await("every listener consumes every record").atMost(Duration.ofMinutes(5))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> counts.all().size() == listeners
					&& counts.all().values().stream().allMatch((count) -> count.get() >= records));
		ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
		await("every partition fetched").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500)).until(() -> {
			FollowerFetchSnapshot snapshot = monitor.refresh();
			return snapshot.listeners().size() == listeners && snapshot.listeners()
				.values()
				.stream()
				.allMatch((reads) -> reads.zoneLocalPartitions() + reads.crossZonePartitions() == reads.partitions()
						&& reads.partitions() > 0);
		});
		return context;
	}

	private List<Stats> requests(List<Target> targets) throws Exception {
		for (Target target : targets) {
			for (int i = 0; i < WARM_UP_REQUESTS; i++) {
				send(target);
			}
		}
		int perRound = REQUESTS / ROUNDS;
		long[][] nanos = new long[targets.size()][perRound * ROUNDS];
		for (int round = 0; round < ROUNDS; round++) {
			for (int t = 0; t < targets.size(); t++) {
				for (int i = 0; i < perRound; i++) {
					long start = System.nanoTime();
					send(targets.get(t));
					nanos[t][round * perRound + i] = System.nanoTime() - start;
				}
			}
		}
		return Arrays.stream(nanos).map(Stats::of).toList();
	}

	private void send(Target target) throws Exception {
		HttpResponse<Void> response = this.http.send(target.request(), HttpResponse.BodyHandlers.discarding());
		if (response.statusCode() != 200) {
			throw new IllegalStateException(target.request().uri() + " answered " + response.statusCode());
		}
	}

	private static String row(String name, Stats stats, Stats baseline) {
		return String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.2fx | %.2fx |", name, stats.p50(),
				stats.p99(), stats.mean(), stats.p50() / baseline.p50(), stats.p99() / baseline.p99());
	}

	private static void print(String title, String baseline, List<String> rows) {
		System.out.println();
		System.out.println(title);
		System.out.println();
		System.out.println("| scenario | p50 (ms) | p99 (ms) | mean (ms) | p50 " + baseline + " | p99 " + baseline + " |");
		System.out.println("|---|---:|---:|---:|---:|---:|");
		rows.forEach(System.out::println);
	}

	record Refresh(int listeners, int partitions, int assigned, Stats stats, double adminRequests) {

	}

	record Target(HttpRequest request) {

		Target(ConfigurableApplicationContext context, String path) {
			this(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
					+ ((WebServerApplicationContext) context).getWebServer().getPort() + path)).build());
		}

	}

	record Stats(double p50, double p99, double mean) {

		static Stats of(long[] nanos) {
			long[] sorted = nanos.clone();
			Arrays.sort(sorted);
			return new Stats(millis(sorted[sorted.length / 2]), millis(sorted[(int) Math.ceil(sorted.length * 0.99) - 1]),
					Arrays.stream(sorted).average().orElse(0) / 1_000_000.0);
		}

		private static double millis(long nanos) {
			return nanos / 1_000_000.0;
		}

	}

	/**
	 * Records consumed per listener.
	 */
	static final class Counts {

		private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

		Map<String, AtomicLong> all() {
			return this.counts;
		}

		AtomicLong of(String listenerId) {
			return this.counts.computeIfAbsent(listenerId, (id) -> new AtomicLong());
		}

	}

	/**
	 * Counts the records of one listener.
	 *
	 * @param count the count
	 */
	record Counter(AtomicLong count) {

		public void onRecord(ConsumerRecord<byte[], byte[]> record) {
			this.count.incrementAndGet();
		}

	}

	/**
	 * The application under measurement: N listeners, each its own consumer group on one
	 * topic.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class HealthBenchmarkApplication {

		@Bean
		Counts counts() {
			return new Counts();
		}

		@Bean
		KafkaListenerConfigurer benchmarkListeners(Environment environment, Counts counts) {
			int listeners = environment.getRequiredProperty("benchmark.listeners", Integer.class);
			String topic = environment.getRequiredProperty("benchmark.topic");
			String group = environment.getRequiredProperty("benchmark.group");
			DefaultMessageHandlerMethodFactory handlerMethodFactory = new DefaultMessageHandlerMethodFactory();
			handlerMethodFactory.afterPropertiesSet();
			return (KafkaListenerEndpointRegistrar registrar) -> {
				for (int i = 0; i < listeners; i++) {
					String id = "listener-" + i;
					MethodKafkaListenerEndpoint<byte[], byte[]> endpoint = new MethodKafkaListenerEndpoint<>();
					endpoint.setId(id);
					endpoint.setGroupId(group + "-" + id);
					endpoint.setTopics(topic);
					endpoint.setBean(new Counter(counts.of(id)));
					endpoint.setMethod(ReflectionUtils.findMethod(Counter.class, "onRecord", ConsumerRecord.class));
					endpoint.setMessageHandlerMethodFactory(handlerMethodFactory);
					registrar.registerEndpoint(endpoint);
				}
			};
		}

	}

}
