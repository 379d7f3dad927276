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
package dev.followerfetch.observation;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.followerfetch.Policy;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

import org.springframework.context.SmartLifecycle;

/**
 * Keeps a {@link FollowerFetchSnapshot} fresh in the background: every refresh asks each
 * {@link ObservedConsumers} source for the application's consumers, reads their own client
 * metrics (preferred read replica per partition, bytes per broker) and the cluster's facts
 * (broker racks, replica selectors, partition placement), and derives where each of them
 * reads from. A partition counts once its
 * consumer has processed a fetch answer for it (its {@code records-lag} metric exists):
 * the read-replica gauge says -1 from the assignment on, before the leader has named a
 * follower. Nothing here runs on a request
 * thread; readers get the last snapshot.
 *
 * @author follower-fetch authors
 */
public final class ReadLocalityMonitor implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(ReadLocalityMonitor.class);

	private static final String FETCH_GROUP = "consumer-fetch-manager-metrics";

	private static final String NODE_GROUP = "consumer-node-metrics";

	private final Supplier<DetectedRack> detectedRack;

	private final Supplier<List<ObservedConsumers>> sources;

	private final ClusterInspectors inspectors;

	private final MonitorSettings settings;

	private final Clock clock;

	private final Map<String, LastTotal> lastByteTotals = new HashMap<>();

	private final Map<String, ByteTotals> byteTotals = new ConcurrentHashMap<>();

	private final Map<String, Long> crossZoneSince = new HashMap<>();

	private final List<Consumer<FollowerFetchSnapshot>> refreshListeners = new CopyOnWriteArrayList<>();

	private volatile FollowerFetchSnapshot snapshot;

	private final Map<ClusterInspector, ClusterView> lastViews = new HashMap<>();

	private final Object lifecycle = new Object();

	private volatile ScheduledExecutorService scheduler;

	ReadLocalityMonitor(Supplier<DetectedRack> detectedRack, Supplier<List<ObservedConsumers>> sources,
			ClusterInspectors inspectors, MonitorSettings settings, Clock clock) {
		this.detectedRack = detectedRack;
		this.sources = sources;
		this.inspectors = inspectors;
		this.settings = settings;
		this.clock = clock;
		this.snapshot = new FollowerFetchSnapshot(FollowerFetchState.STARTING, null, null, Set.of(), "unknown",
				Map.of(), List.of("not refreshed yet"), clock.instant());
	}

	/**
	 * The last snapshot taken.
	 * @return the snapshot, never {@code null}
	 */
	public FollowerFetchSnapshot snapshot() {
		return this.snapshot;
	}

	/**
	 * Bytes received by one listener's, Streams application's or binding's consumers since
	 * start-up, from brokers in this zone or in others. Monotonic across consumer restarts
	 * and rebalances.
	 * @param kind how the application consumes
	 * @param name the listener id, application id or binding name
	 * @param local {@code true} for bytes from this zone
	 * @return the byte count
	 */
	public double bytes(ConsumerKind kind, String name, boolean local) {
		ByteTotals totals = this.byteTotals.get(key(kind, name));
		return (totals != null) ? (local ? totals.local : totals.remote) : 0;
	}

	/**
	 * Take a snapshot now. Called by the background refresher.
	 * @return the new snapshot
	 */
	public synchronized FollowerFetchSnapshot refresh() {
		try {
			this.snapshot = take();
			this.refreshListeners.forEach((listener) -> listener.accept(this.snapshot));
		}
		catch (RuntimeException ex) {
			logger.warn("follower-fetch could not refresh its read-locality snapshot", ex);
		}
		return this.snapshot;
	}

	void onRefresh(Consumer<FollowerFetchSnapshot> listener) {
		this.refreshListeners.add(listener);
	}

	private FollowerFetchSnapshot take() {
		DetectedRack detected = this.detectedRack.get();
		String rack = detected.rack().filter((value) -> !value.isBlank()).orElse(null);
		String source = detected.source().orElse(null);
		List<String> problems = new ArrayList<>();
		List<Observed> all = observeAll(problems);
		Map<ClusterInspector, List<Observed>> byCluster = new LinkedHashMap<>();
		if (all.isEmpty()) {
			problems.add("no consumer to observe: only the rack and the brokers are checked");
			byCluster.put(this.inspectors.forConsumers(Map.of()), List.of());
		}
		all.forEach((observed) -> byCluster
			.computeIfAbsent(this.inspectors.forConsumers(observed.consumer().config()), (inspector) -> new ArrayList<>())
			.add(observed));
		Map<ClusterInspector, ClusterView> views = new LinkedHashMap<>();
		byCluster.forEach((inspector, observed) -> {
			ClusterView view = inspect(inspector, observed, byCluster.size() > 1, problems);
			if (view != null) {
				views.put(inspector, view);
			}
		});
		this.lastViews.keySet().retainAll(byCluster.keySet());
		if (views.isEmpty()) {
			return new FollowerFetchSnapshot((rack == null) ? FollowerFetchState.NO_RACK : FollowerFetchState.STARTING,
					rack, source, Set.of(), "unknown", Map.of(), problems, this.clock.instant());
		}
		Map<ConsumerKind, Map<String, ConsumerReads>> consumers = new EnumMap<>(ConsumerKind.class);
		boolean anyFetched = false;
		boolean anyLocalityAssigned = false;
		Set<String> keys = new HashSet<>();
		for (Map.Entry<ClusterInspector, List<Observed>> cluster : byCluster.entrySet()) {
			ClusterView view = views.getOrDefault(cluster.getKey(), ClusterView.UNKNOWN);
			for (Observed observed : cluster.getValue()) {
				Reads reads = reads(observed, view, rack);
				ConsumerReads summary = reads.summary();
				keys.add(key(summary.kind(), summary.name()));
				consumers.computeIfAbsent(summary.kind(), (kind) -> new LinkedHashMap<>()).put(summary.name(), summary);
				anyFetched |= reads.fetched;
				anyLocalityAssigned |= summary.policy() == Policy.LOCALITY && summary.partitions() > 0;
			}
		}
		this.crossZoneSince.keySet().removeIf((key) -> !keys.contains(key.substring(0, key.lastIndexOf('|'))));
		Set<String> racks = views.values()
			.stream()
			.flatMap((view) -> view.racks().stream())
			.collect(Collectors.toCollection(TreeSet::new));
		List<ConsumerReads> reads = consumers.values().stream().flatMap((byName) -> byName.values().stream()).toList();
		FollowerFetchState state = state(rack, views.values(), racks, reads, anyFetched, anyLocalityAssigned);
		return new FollowerFetchSnapshot(state, rack, source, racks, describeSelectors(views), consumers, problems,
				this.clock.instant());
	}

	/**
	 * Ask every source for its consumers, and read each one's metrics once for this
	 * refresh. A source that fails is reported, not fatal.
	 */
	private List<Observed> observeAll(List<String> problems) {
		List<Observed> all = new ArrayList<>();
		Set<String> names = new HashSet<>();
		for (ObservedConsumers source : this.sources.get()) {
			Collection<ObservedConsumer> found;
			try {
				found = source.find();
			}
			catch (RuntimeException ex) {
				problems.add("could not list the consumers of " + source.getClass().getSimpleName() + ": "
						+ ClusterInspector.describe(ex));
				continue;
			}
			for (ObservedConsumer consumer : found) {
				if (consumer.name() == null || !names.add(key(consumer.kind(), consumer.name()))) {
					continue;
				}
				Map<String, Map<MetricName, ? extends Metric>> metrics;
				try {
					metrics = consumer.metrics().get();
				}
				catch (RuntimeException ex) {
					metrics = Map.of();
				}
				all.add(new Observed(consumer, metrics, assigned(consumer, metrics)));
			}
		}
		return all;
	}

	private static Collection<TopicPartition> assigned(ObservedConsumer consumer,
			Map<String, Map<MetricName, ? extends Metric>> metrics) {
		if (consumer.assigned() != null) {
			return consumer.assigned();
		}
		Set<TopicPartition> named = new HashSet<>();
		metrics.values().forEach((clientMetrics) -> clientMetrics.keySet().forEach((name) -> {
			TopicPartition tp = partitionOf(name);
			if (tp != null && name.name().equals("preferred-read-replica")) {
				named.add(tp);
			}
		}));
		return named;
	}

	private static TopicPartition partitionOf(MetricName name) {
		String topic = name.tags().get("topic");
		String partition = name.tags().get("partition");
		if (!name.group().equals(FETCH_GROUP) || topic == null || partition == null) {
			return null;
		}
		try {
			return new TopicPartition(topic, Integer.parseInt(partition));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	private static String key(ConsumerKind kind, String name) {
		return kind.tag() + ":" + name;
	}

	/**
	 * Read one cluster's facts for the topics its listeners are assigned, or the last ones
	 * read when the brokers do not answer.
	 */
	private ClusterView inspect(ClusterInspector inspector, List<Observed> observed, boolean severalClusters,
			List<String> problems) {
		String cluster = this.inspectors.clusterOf(inspector);
		String of = (cluster != null) ? " of " + cluster : (severalClusters ? " of the application's KafkaAdmin" : "");
		String brokers = "brokers" + of;
		Set<String> topics = new TreeSet<>();
		observed.forEach((consumer) -> consumer.assigned().forEach((tp) -> topics.add(tp.topic())));
		if (Thread.currentThread().isInterrupted()) {
			return this.lastViews.get(inspector);
		}
		ClusterView view;
		try {
			view = inspector.inspect(topics);
			this.lastViews.put(inspector, view);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return this.lastViews.get(inspector);
		}
		catch (Exception ex) {
			Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
			problems.add(brokers + " not reachable: " + ClusterInspector.describe(cause));
			view = this.lastViews.get(inspector);
		}
		if (view == null) {
			return null;
		}
		if (view.selectorProblem() != null) {
			problems.add("replica.selector.class" + of + " unknown: " + view.selectorProblem());
		}
		view.topicProblems()
			.forEach((topic, problem) -> problems.add("topic " + topic + " not found by the " + brokers
					+ ", so its partitions are not counted: " + problem));
		return view;
	}

	private FollowerFetchState state(String rack, Collection<ClusterView> views, Set<String> racks,
			List<ConsumerReads> listeners, boolean anyFetched, boolean anyLocalityAssigned) {
		if (rack == null) {
			return FollowerFetchState.NO_RACK;
		}
		if (views.stream()
			.flatMap((view) -> view.selectors().values().stream())
			.anyMatch((selector) -> !selector.rackAware())) {
			return FollowerFetchState.SELECTOR_DISABLED;
		}
		if (!racks.contains(rack)) {
			return FollowerFetchState.RACK_MISMATCH;
		}
		if (anyLocalityAssigned && !anyFetched) {
			return FollowerFetchState.STARTING;
		}
		if (listeners.stream().anyMatch((reads) -> !reads.laggingPartitions().isEmpty())) {
			return FollowerFetchState.LAGGING;
		}
		if (listeners.stream().anyMatch((reads) -> !reads.fallbackPartitions().isEmpty())) {
			return FollowerFetchState.FALLBACK;
		}
		if (listeners.stream().anyMatch((reads) -> reads.placementGapCount() > 0)) {
			return FollowerFetchState.PARTIAL;
		}
		return FollowerFetchState.ACTIVE;
	}

	private Reads reads(Observed observed, ClusterView view, String rack) {
		ObservedConsumer consumer = observed.consumer();
		String id = key(consumer.kind(), consumer.name());
		Policy policy = consumer.policy();
		Collection<TopicPartition> assigned = observed.assigned();
		Map<String, Map<MetricName, ? extends Metric>> metrics = observed.metrics();
		Map<TopicPartition, Integer> readReplica = new HashMap<>();
		Set<TopicPartition> answered = new HashSet<>();
		metrics.forEach((clientId, clientMetrics) -> clientMetrics.forEach((name, metric) -> {
			TopicPartition tp = partitionOf(name);
			if (tp == null) {
				return;
			}
			if (name.name().equals("preferred-read-replica") && metric.metricValue() instanceof Number value) {
				readReplica.put(tp, value.intValue());
			}
			else if (name.name().equals("records-lag")) {
				answered.add(tp);
			}
		}));
		int local = 0;
		int cross = 0;
		boolean fetched = false;
		List<String> gaps = new ArrayList<>();
		List<String> fallback = new ArrayList<>();
		List<String> lagging = new ArrayList<>();
		long now = System.nanoTime();
		Set<String> seenKeys = new HashSet<>();
		for (TopicPartition tp : assigned) {
			ClusterView.Placement placement = view.partitions().get(tp);
			Integer replica = readReplica.get(tp);
			boolean inZoneIsr = placement != null && rack != null
					&& placement.isr().stream().anyMatch((broker) -> rack.equals(view.rackOf(broker)));
			if (policy == Policy.LOCALITY && placement != null && !inZoneIsr) {
				gaps.add(tp.toString());
			}
			if (replica == null || placement == null || !answered.contains(tp)) {
				continue;
			}
			fetched = true;
			int readFrom = (replica >= 0) ? replica : placement.leader();
			if (replica >= 0 && !placement.isr().contains(replica)) {
				lagging.add(tp.toString());
			}
			boolean inZone = rack != null && rack.equals(view.rackOf(readFrom));
			if (inZone) {
				local++;
			}
			else {
				cross++;
			}
			String key = id + "|" + tp;
			if (policy == Policy.LOCALITY && inZoneIsr && !inZone) {
				seenKeys.add(key);
				long since = this.crossZoneSince.computeIfAbsent(key, (k) -> now);
				if (now - since >= this.settings.fallbackGrace().toNanos()) {
					fallback.add(tp.toString());
				}
			}
		}
		this.crossZoneSince.keySet().removeIf((key) -> key.startsWith(id + "|") && !seenKeys.contains(key));
		ByteTotals totals = countBytes(id, metrics, view, rack);
		int gapCount = gaps.size();
		List<String> listedGaps = gaps.stream().sorted().limit(this.settings.maxListedPartitions()).toList();
		ConsumerReads summary = new ConsumerReads(consumer.kind(), consumer.name(), policy, assigned.size(), local,
				cross, listedGaps, gapCount,
				fallback.stream().sorted().limit(this.settings.maxListedPartitions()).toList(),
				lagging.stream().sorted().limit(this.settings.maxListedPartitions()).toList(), (long) totals.local,
				(long) totals.remote, consumer.details());
		return new Reads(summary, fetched);
	}

	private ByteTotals countBytes(String id, Map<String, Map<MetricName, ? extends Metric>> metrics, ClusterView view,
			String rack) {
		ByteTotals totals = this.byteTotals.computeIfAbsent(id, (key) -> new ByteTotals());
		Set<String> seen = new HashSet<>();
		metrics.forEach((clientId, clientMetrics) -> clientMetrics.forEach((name, metric) -> {
			if (!name.group().equals(NODE_GROUP) || !name.name().equals("incoming-byte-total")) {
				return;
			}
			String node = name.tags().get("node-id");
			if (node == null || !node.startsWith("node-")) {
				return;
			}
			int brokerId;
			try {
				brokerId = Integer.parseInt(node.substring("node-".length()));
			}
			catch (NumberFormatException ex) {
				return;
			}
			if (!(metric.metricValue() instanceof Number value)) {
				return;
			}
			String key = id + "|" + clientId + "|" + brokerId;
			seen.add(key);
			double current = value.doubleValue();
			LastTotal last = this.lastByteTotals.put(key, new LastTotal(metric, current));
			boolean sameCounter = last != null && last.metric() == metric && current >= last.value();
			double delta = sameCounter ? current - last.value() : current;
			if (!view.brokerRacks().containsKey(brokerId)) {
				// a coordinator connection, or a broker the last refresh did not see: its
				// total is kept so that its bytes are never counted twice, but not counted
				return;
			}
			if (rack != null && rack.equals(view.rackOf(brokerId))) {
				totals.local += delta;
			}
			else {
				totals.remote += delta;
			}
		}));
		this.lastByteTotals.keySet().removeIf((key) -> key.startsWith(id + "|") && !seen.contains(key));
		return totals;
	}

	private String describeSelectors(Map<ClusterInspector, ClusterView> views) {
		if (views.size() == 1) {
			return describeSelectors(views.values().iterator().next());
		}
		Map<String, String> byCluster = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
		views.forEach((inspector, view) -> byCluster.put(this.inspectors.clusterOf(inspector), describeSelectors(view)));
		return byCluster.entrySet()
			.stream()
			.map((entry) -> ((entry.getKey() != null) ? entry.getKey() : "KafkaAdmin") + ": " + entry.getValue())
			.collect(Collectors.joining(" | "));
	}

	private static String describeSelectors(ClusterView view) {
		if (view.selectors().isEmpty()) {
			return "unknown";
		}
		Map<String, List<Integer>> byClass = new LinkedHashMap<>();
		view.selectors()
			.forEach((broker, selector) -> byClass
				.computeIfAbsent((selector.className() != null) ? selector.className() : "default (LeaderSelector)",
						(key) -> new ArrayList<>())
				.add(broker));
		return byClass.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + " on brokers " + entry.getValue().stream().sorted().toList())
			.collect(Collectors.joining("; "));
	}

	@Override
	public void start() {
		synchronized (this.lifecycle) {
			if (this.scheduler != null) {
				return;
			}
			this.inspectors.reopen();
			ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((runnable) -> {
				Thread thread = new Thread(runnable, "follower-fetch-monitor");
				thread.setDaemon(true);
				return thread;
			});
			this.scheduler = executor;
			schedule(executor, 0);
		}
	}

	private void schedule(ScheduledExecutorService executor, long delayMillis) {
		if (executor.isShutdown()) {
			return;
		}
		try {
			executor.schedule(() -> {
				refresh();
				schedule(executor, jittered(this.settings.refreshInterval()));
			}, delayMillis, TimeUnit.MILLISECONDS);
		}
		catch (RejectedExecutionException ex) {
			// stopped meanwhile
		}
	}

	private static long jittered(Duration interval) {
		long millis = interval.toMillis();
		long jitter = millis / 10;
		return millis - jitter + ((jitter > 0) ? ThreadLocalRandom.current().nextLong(2 * jitter + 1) : 0);
	}

	/**
	 * Stop refreshing: interrupt a refresh in flight rather than wait for its calls to the
	 * brokers, then close the admin clients. {@link #start()} opens them again.
	 */
	@Override
	public void stop() {
		synchronized (this.lifecycle) {
			ScheduledExecutorService executor = this.scheduler;
			this.scheduler = null;
			if (executor != null) {
				executor.shutdownNow();
				try {
					executor.awaitTermination(this.settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			this.inspectors.close();
		}
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

	@Override
	public int getPhase() {
		return Integer.MAX_VALUE - 50;
	}

	/**
	 * How the monitor refreshes.
	 *
	 * @param refreshInterval time between refreshes
	 * @param fallbackGrace how long a partition may be read across zones before it counts
	 * as a fallback
	 * @param timeout bound of every call to the brokers
	 * @param maxListedPartitions how many partitions a list in the details shows at most
	 */
	record MonitorSettings(Duration refreshInterval, Duration fallbackGrace, Duration timeout,
			int maxListedPartitions) {

	}

	private record Reads(ConsumerReads summary, boolean fetched) {

	}

	private record Observed(ObservedConsumer consumer, Map<String, Map<MetricName, ? extends Metric>> metrics,
			Collection<TopicPartition> assigned) {

	}

	private record LastTotal(Metric metric, double value) {

	}

	private static final class ByteTotals {

		private volatile double local;

		private volatile double remote;

	}

}
