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
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.benchmark.ClientByteMetrics.Bytes;
import dev.followerfetch.benchmark.FleetCostReport.GroupRun;
import dev.followerfetch.benchmark.FleetCostReport.Window;
import dev.followerfetch.e2e.BrokerRequests;
import dev.followerfetch.observation.FollowerFetchSnapshot;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.logging.LoggingSystem;
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
 * What one application instance with the starter costs the Kafka cluster, counted where
 * the brokers count it, against the same application with {@code follower-fetch.enabled=false}:
 * an instance in one zone with two listeners in one consumer group on an idle topic of 6
 * partitions, in groups that also hold G-1 plain Kafka consumers, for each G of
 * {@code -Dfleet.groups}. For each G and each of the two applications, after the group
 * settled, a steady window of {@code -Dfleet.window}: the requests per request type that
 * the brokers completed (their {@code RequestsPerSec} metrics, every client together, and
 * their request log, by client id, for the instance's own clients), and the bytes the
 * instance's consumers and admin clients received and sent (their own metrics). A plain
 * {@code main}, not a test: {@code ./mvnw -B -pl autoconfigure -am test-compile
 * exec:exec@fleet-cost-benchmark}, see docs/benchmarks.md.
 *
 * @author follower-fetch authors
 */
public final class FleetCostBenchmark {

	static final String TOPIC = "idle";

	static final int PARTITIONS = 6;

	/**
	 * The instance's consumers' client ids start with this.
	 */
	static final String INSTANCE_CLIENT_PREFIX = "instance-";

	/**
	 * The client ids of the starter's monitor's admin clients start with this.
	 */
	static final String MONITOR_CLIENT_PREFIX = "follower-fetch-monitor";

	private static final Logger logger = LoggerFactory.getLogger(FleetCostBenchmark.class);

	private static final Duration SETTLE = Duration.ofSeconds(10);

	private static final Duration GROUP_TIMEOUT = Duration.ofMinutes(10);

	/**
	 * Threads that poll the plain members.
	 */
	private static final int POLLERS = 4;

	private final MultiZoneKafkaCluster cluster;

	private final BrokerRequestsByClient requestLog;

	private final Settings settings;

	private final Admin admin;

	private FleetCostBenchmark(MultiZoneKafkaCluster cluster, BrokerRequestsByClient requestLog, Settings settings,
			Admin admin) {
		this.cluster = cluster;
		this.requestLog = requestLog;
		this.settings = settings;
		this.admin = admin;
	}

	public static void main(String[] args) throws Exception {
		// Boot would reset Logback at every start and drop the brokers' request log appender
		System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
		Settings settings = Settings.fromSystemProperties();
		BrokerRequestsByClient requestLog = BrokerRequestsByClient.install();
		long started = System.nanoTime();
		List<GroupRun> runs = new ArrayList<>();
		try (MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder().timeout(Duration.ofMinutes(3)).start()) {
			cluster.createTopicLedByEveryZone(TOPIC, PARTITIONS, 3);
			progress("cluster up, topic '%s' (%d partitions, RF 3, leaders in every zone); %s", TOPIC, PARTITIONS,
					settings);
			try (Admin admin = Admin.create(benchmarkAdmin(cluster.bootstrapServers()))) {
				FleetCostBenchmark benchmark = new FleetCostBenchmark(cluster, requestLog, settings, admin);
				for (int size : settings.groups()) {
					runs.add(benchmark.measure(size));
				}
			}
		}
		new FleetCostReport(settings.window(), settings.zone(), settings.refreshInterval(), PARTITIONS,
				(System.nanoTime() - started) / 1e9)
			.print(runs, System.out);
		System.out.flush();
	}

	/**
	 * The benchmark's own admin client: no JMX metrics (it is not the instance's) and no
	 * periodic metadata request in a window.
	 */
	private static Map<String, Object> benchmarkAdmin(String bootstrapServers) {
		return Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, AdminClientConfig.CLIENT_ID_CONFIG,
				"fleet-cost-benchmark", AdminClientConfig.METRIC_REPORTER_CLASSES_CONFIG, "",
				AdminClientConfig.METADATA_MAX_AGE_CONFIG, (int) Duration.ofHours(1).toMillis());
	}

	private GroupRun measure(int size) throws Exception {
		String group = "fleet-" + size;
		int plainMembers = size - 1;
		long heapBefore = usedHeapMebibytes();
		PlainGroupMembers members = null;
		try {
			if (plainMembers > 0) {
				long started = System.nanoTime();
				members = PlainGroupMembers.start(this.cluster.bootstrapServers(), group, TOPIC, plainMembers,
						POLLERS);
				awaitSettled(group, plainMembers, 0, members);
				progress("G=%d: %d plain members stable in %.1f s, heap used %d MiB (%d MiB before)", size,
						plainMembers, (System.nanoTime() - started) / 1e9, usedHeapMebibytes(), heapBefore);
			}
			Window plain = window(group, size, false, members);
			Window starter = window(group, size, true, members);
			return new GroupRun(size, plainMembers, plain, starter);
		}
		finally {
			if (members != null) {
				members.close();
			}
		}
	}

	private Window window(String group, int size, boolean starter, @Nullable PlainGroupMembers members)
			throws Exception {
		String name = (starter ? "with the starter" : "follower-fetch.enabled=false") + ", G=" + size;
		Set<String> before = ClientByteMetrics.all().keySet();
		long started = System.nanoTime();
		Window window;
		try (ConfigurableApplicationContext application = startApplication(group, starter)) {
			int plainMembers = size - 1;
			ConsumerGroupDescription settled = awaitSettled(group, plainMembers + 2, 2, members);
			progress("%s: application up and group stable (%d members) in %.1f s", name, settled.members().size(),
					(System.nanoTime() - started) / 1e9);
			Refreshes refreshes = new Refreshes(application, this.settings.window());
			refreshes.awaitNext();
			Map<String, Bytes> bytesBefore = ClientByteMetrics.all();
			Map<String, Long> brokersBefore = BrokerRequests.count();
			Map<String, Map<String, Long>> logBefore = this.requestLog.counts();
			long unreadableBefore = this.requestLog.unreadable();
			long windowStart = System.nanoTime();
			refreshes.awaitWindow();
			double seconds = (System.nanoTime() - windowStart) / 1e9;
			Map<String, Map<String, Long>> logAfter = this.requestLog.counts();
			Map<String, Long> brokersAfter = BrokerRequests.count();
			Map<String, Bytes> bytesAfter = ClientByteMetrics.all();
			long unreadable = this.requestLog.unreadable() - unreadableBefore;
			ConsumerGroupDescription after = describe(group);
			boolean rebalanced = !assignments(settled).equals(assignments(after));
			Set<String> instance = new TreeSet<>(bytesAfter.keySet());
			instance.removeAll(before);
			Map<String, Bytes> clients = new TreeMap<>();
			for (String client : instance) {
				Bytes end = bytesAfter.get(client);
				Bytes start = bytesBefore.getOrDefault(client, new Bytes(end.kind(), 0, 0));
				clients.put(client, end.minus(start));
			}
			Map<String, Long> instanceRequests = new TreeMap<>();
			Map<String, Map<String, Long>> byClient = new TreeMap<>();
			long monitorRequests = 0;
			for (String client : instance) {
				Map<String, Long> requests = minus(logAfter.getOrDefault(client, Map.of()),
						logBefore.getOrDefault(client, Map.of()));
				byClient.put(client, requests);
				requests.forEach((type, count) -> instanceRequests.merge(type, count, Long::sum));
				if (client.startsWith(MONITOR_CLIENT_PREFIX)) {
					monitorRequests += requests.values().stream().mapToLong(Long::longValue).sum();
				}
			}
			window = new Window(starter, seconds, refreshes.counted(), minus(brokersAfter, brokersBefore),
					instanceRequests, monitorRequests, clients, instancePartitions(settled), rebalanced, unreadable);
			progress("%s: %d refreshes in %.1f s; requests of the instance's clients at the brokers: %s%s", name,
					refreshes.counted(), seconds, byClient, rebalanced ? "; THE GROUP REBALANCED IN THE WINDOW" : "");
		}
		if (size > 1) {
			awaitSettled(group, size - 1, 0, members);
		}
		return window;
	}

	private ConfigurableApplicationContext startApplication(String group, boolean starter) {
		List<String> properties = new ArrayList<>(List.of(
				"spring.kafka.bootstrap-servers=" + this.cluster.bootstrapServers(),
				"spring.kafka.consumer.auto-offset-reset=earliest",
				"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
				"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
				"follower-fetch.enabled=" + starter, "follower-fetch.rack=" + this.settings.zone(),
				"follower-fetch.detection.order=env", "fleet-cost.topic=" + TOPIC, "fleet-cost.group=" + group));
		if (this.settings.refreshInterval() != null) {
			properties.add("follower-fetch.observation.refresh-interval=" + this.settings.refreshInterval());
		}
		return new SpringApplicationBuilder(FleetCostApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	/**
	 * Wait until the group is stable with the given members, then until it stays so, with
	 * the same assignment, for {@link #SETTLE} (a cooperative rebalance has a second round).
	 */
	private ConsumerGroupDescription awaitSettled(String group, int members, int instanceMembers,
			@Nullable PlainGroupMembers plain) throws Exception {
		AtomicReference<ConsumerGroupDescription> last = new AtomicReference<>();
		await("group " + group + " stable with " + members + " members").atMost(GROUP_TIMEOUT)
			.pollInterval(Duration.ofSeconds(1))
			.until(() -> {
				if (plain != null) {
					plain.check();
				}
				ConsumerGroupDescription description = describeIfFound(group);
				if (description == null || !stable(description, members, instanceMembers)) {
					last.set(null);
					return false;
				}
				ConsumerGroupDescription previous = last.getAndSet(description);
				return previous != null && assignments(previous).equals(assignments(description));
			});
		long settled = System.nanoTime();
		ConsumerGroupDescription description = last.get();
		while (System.nanoTime() - settled < SETTLE.toNanos()) {
			sleep(Duration.ofSeconds(1));
			ConsumerGroupDescription now = describe(group);
			if (!stable(now, members, instanceMembers) || !assignments(now).equals(assignments(description))) {
				return awaitSettled(group, members, instanceMembers, plain);
			}
		}
		return description;
	}

	private static boolean stable(ConsumerGroupDescription description, int members, int instanceMembers) {
		return description.groupState() == GroupState.STABLE && description.members().size() == members
				&& description.members()
					.stream()
					.filter((member) -> member.clientId().startsWith(INSTANCE_CLIENT_PREFIX))
					.count() == instanceMembers;
	}

	private static Map<String, Set<String>> assignments(ConsumerGroupDescription description) {
		Map<String, Set<String>> assignments = new HashMap<>();
		for (MemberDescription member : description.members()) {
			Set<String> partitions = new HashSet<>();
			member.assignment().topicPartitions().forEach((partition) -> partitions.add(partition.toString()));
			assignments.put(member.consumerId(), partitions);
		}
		return assignments;
	}

	private static int instancePartitions(ConsumerGroupDescription description) {
		return description.members()
			.stream()
			.filter((member) -> member.clientId().startsWith(INSTANCE_CLIENT_PREFIX))
			.mapToInt((member) -> member.assignment().topicPartitions().size())
			.sum();
	}

	private @Nullable ConsumerGroupDescription describeIfFound(String group) throws Exception {
		try {
			return describe(group);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof GroupIdNotFoundException) {
				return null;
			}
			throw ex;
		}
	}

	private ConsumerGroupDescription describe(String group) throws Exception {
		return this.admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get(30, TimeUnit.SECONDS);
	}

	private static Map<String, Long> minus(Map<String, Long> after, Map<String, Long> before) {
		Map<String, Long> difference = new TreeMap<>();
		after.forEach((key, value) -> {
			long delta = value - before.getOrDefault(key, 0L);
			if (delta != 0) {
				difference.put(key, delta);
			}
		});
		return difference;
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static long usedHeapMebibytes() {
		Runtime runtime = Runtime.getRuntime();
		return (runtime.totalMemory() - runtime.freeMemory()) / (1024 * 1024);
	}

	private static void progress(String format, Object... arguments) {
		System.out.printf(Locale.ROOT, format + "%n", arguments);
		System.out.flush();
	}

	/**
	 * The window of one application: with the starter, it starts just after a refresh of
	 * its monitor and ends just after the refresh that completes as many refreshes as the
	 * window's length holds, so that no refresh is cut by the window and every window of
	 * the starter holds the same number of them; without it, it is the window's length.
	 */
	private static final class Refreshes {

		private final @Nullable ReadLocalityMonitor monitor;

		private final Duration window;

		private final int expected;

		private final Duration timeout;

		private int counted;

		Refreshes(ConfigurableApplicationContext application, Duration window) {
			this.monitor = application.getBeanProvider(ReadLocalityMonitor.class).getIfAvailable();
			this.window = window;
			Duration interval = (this.monitor != null) ? application.getBean(FollowerFetchProperties.class)
				.getObservation()
				.getRefreshInterval() : window;
			this.expected = (int) Math.max(1, Math.round((double) window.toMillis() / interval.toMillis()));
			this.timeout = interval.multipliedBy(2).plusMinutes(1);
		}

		/**
		 * Wait for the next refresh to complete, when there is a monitor.
		 */
		void awaitNext() {
			ReadLocalityMonitor monitor = this.monitor;
			if (monitor == null) {
				return;
			}
			FollowerFetchSnapshot last = monitor.snapshot();
			await("a refresh of the monitor").atMost(this.timeout)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> monitor.snapshot() != last);
		}

		void awaitWindow() {
			if (this.monitor == null) {
				sleep(this.window);
				return;
			}
			for (int i = 0; i < this.expected; i++) {
				awaitNext();
				this.counted++;
			}
		}

		int counted() {
			return this.counted;
		}

	}

	/**
	 * What the run measures, from system properties.
	 *
	 * @param groups the group sizes G ({@code fleet.groups}, default {@code 1,100,1000})
	 * @param window the steady window ({@code fleet.window}, default 120 s)
	 * @param zone the instance's zone ({@code fleet.zone}, default {@code az-b})
	 * @param refreshInterval the monitor's refresh interval ({@code fleet.refresh-interval}),
	 * {@code null} for the starter's default
	 */
	record Settings(List<Integer> groups, Duration window, String zone, @Nullable Duration refreshInterval) {

		static Settings fromSystemProperties() {
			List<Integer> groups = Arrays.stream(System.getProperty("fleet.groups", "1,100,1000").split(","))
				.map(String::trim)
				.filter((size) -> !size.isEmpty())
				.map(Integer::valueOf)
				.toList();
			if (groups.isEmpty() || groups.stream().anyMatch((size) -> size < 1)) {
				throw new IllegalArgumentException("fleet.groups must list sizes of at least 1: " + groups);
			}
			String interval = System.getProperty("fleet.refresh-interval", "");
			return new Settings(groups, DurationStyle.detectAndParse(System.getProperty("fleet.window", "120s")),
					System.getProperty("fleet.zone", "az-b"),
					interval.isBlank() ? null : DurationStyle.detectAndParse(interval));
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "groups %s, window %d s, zone %s, refresh interval %s", this.groups,
					this.window.toSeconds(), this.zone,
					(this.refreshInterval != null) ? this.refreshInterval.toSeconds() + " s" : "the starter's default");
		}

	}

	/**
	 * A listener that does nothing with what it gets: the topic stays idle.
	 */
	static final class Sink {

		public void onRecord(ConsumerRecord<byte[], byte[]> record) {
			logger.warn("Record on the idle topic at offset {}", record.offset());
		}

	}

	/**
	 * The application instance: two listeners in one consumer group on the idle topic,
	 * whatever else Boot and the starter auto-configure.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class FleetCostApplication {

		@Bean
		KafkaListenerConfigurer fleetCostListeners(Environment environment) {
			String topic = environment.getRequiredProperty("fleet-cost.topic");
			String group = environment.getRequiredProperty("fleet-cost.group");
			DefaultMessageHandlerMethodFactory handlerMethodFactory = new DefaultMessageHandlerMethodFactory();
			handlerMethodFactory.afterPropertiesSet();
			return (KafkaListenerEndpointRegistrar registrar) -> {
				for (int i = 0; i < 2; i++) {
					String id = "listener-" + i;
					MethodKafkaListenerEndpoint<byte[], byte[]> endpoint = new MethodKafkaListenerEndpoint<>();
					endpoint.setId(id);
					endpoint.setGroupId(group);
					endpoint.setClientIdPrefix(INSTANCE_CLIENT_PREFIX + id);
					endpoint.setTopics(topic);
					endpoint.setBean(new Sink());
					endpoint.setMethod(ReflectionUtils.findMethod(Sink.class, "onRecord", ConsumerRecord.class));
					endpoint.setMessageHandlerMethodFactory(handlerMethodFactory);
					registrar.registerEndpoint(endpoint);
				}
			};
		}

	}

}
