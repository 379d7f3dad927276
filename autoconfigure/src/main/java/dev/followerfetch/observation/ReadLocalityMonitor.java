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
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.observation.ObservedProducers.ObservedProducer;
import dev.followerfetch.observation.ReadLocalityJudge.Cluster;
import dev.followerfetch.observation.ReadLocalityJudge.Judged;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.common.TopicPartition;

import org.springframework.context.SmartLifecycle;

/**
 * Keeps a {@link FollowerFetchSnapshot} fresh in the background. Every refresh asks each
 * {@link ObservedConsumers} source for the application's consumers and reads their client
 * metrics ({@link ConsumerMetricsReader}); consumers no source accounts for are found in
 * JMX, attributed to a consumer configured through the {@code ClientRackDecider} when
 * their client id matches one, and otherwise reported by client id. It reads the
 * clusters' facts (broker racks, replica selectors, partition placement) and has each
 * consumer and the whole application judged ({@link ReadLocalityJudge}). This class
 * schedules and keeps what must outlive a refresh: the last cluster views, the byte
 * totals, when a partition started to be read across zones. Nothing here runs on a
 * request thread; readers get the last snapshot.
 *
 * @author follower-fetch authors
 */
public final class ReadLocalityMonitor implements SmartLifecycle {

	private final Supplier<DetectedRack> detectedRack;

	private final Supplier<List<ObservedConsumers>> sources;

	private final ClusterInspectors inspectors;

	private final MonitorSettings settings;

	private final Clock clock;

	private final OtherConsumers others;

	private final ReadLocalityJudge judge;

	private final ZoneBytes receivedBytes = new ZoneBytes();

	private final Supplier<List<ObservedProducer>> producers;

	private final ProducerWriteJudge producerJudge = new ProducerWriteJudge();

	private final StateLog stateLog = new StateLog();

	private final AssignmentRealigner realigner;

	private final Map<String, Long> conditionSince = new HashMap<>();

	private final List<Consumer<FollowerFetchSnapshot>> refreshListeners = new CopyOnWriteArrayList<>();

	private volatile FollowerFetchSnapshot snapshot;

	private final Map<ClusterInspector, ClusterView> lastViews = new HashMap<>();

	private final Object lifecycle = new Object();

	private volatile ScheduledExecutorService scheduler;

	ReadLocalityMonitor(Supplier<DetectedRack> detectedRack, Supplier<List<ObservedConsumers>> sources,
			OtherConsumers others, Supplier<List<ObservedProducer>> producers, ClusterInspectors inspectors,
			MonitorSettings settings, Clock clock) {
		this.detectedRack = detectedRack;
		this.producers = producers;
		this.sources = sources;
		this.others = others;
		this.inspectors = inspectors;
		this.settings = settings;
		this.clock = clock;
		this.judge = new ReadLocalityJudge(settings.maxListedPartitions());
		this.realigner = new AssignmentRealigner(ZoneAwareAssignor::leaderships, settings.realign(), clock);
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
	 * Bytes received by one listener's, Streams application's, binding's or other
	 * consumer's clients since start-up, from brokers in this zone or in others. Monotonic
	 * across consumer restarts and rebalances.
	 * @param kind how the application consumes
	 * @param name the listener id, application id, binding name or client id
	 * @param local {@code true} for bytes from this zone
	 * @return the byte count
	 */
	public double bytes(ConsumerKind kind, String name, boolean local) {
		return this.receivedBytes.total(key(kind, name), local);
	}

	/**
	 * Bytes sent by one producer factory's producers since start-up, to brokers in this
	 * zone or in others. Monotonic across producer restarts.
	 * @param producer the producer factory's name
	 * @param local {@code true} for bytes to this zone
	 * @return the byte count
	 */
	public double producedBytes(String producer, boolean local) {
		return this.producerJudge.total(producer, local);
	}

	/**
	 * Take a snapshot now. Called by the background refresher.
	 * @return the new snapshot
	 */
	public synchronized FollowerFetchSnapshot refresh() {
		try {
			this.snapshot = take();
			this.stateLog.refreshed(this.snapshot);
			this.refreshListeners.forEach((listener) -> listener.accept(this.snapshot));
		}
		catch (RuntimeException ex) {
			this.stateLog.refreshFailed(ex, this.snapshot);
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
		List<Subject> all = observeAll(problems);
		if (this.others != null) {
			all.addAll(this.others.find(all, problems));
		}
		List<ObservedProducer> producers = this.producers.get();
		Map<ClusterInspector, List<Subject>> byCluster = new LinkedHashMap<>();
		if (all.isEmpty()) {
			problems.add("no consumer to observe: only the rack and the brokers are checked");
			byCluster.put(this.inspectors.forConsumers(Map.of()), List.of());
		}
		// a factory that never created a producer (Boot's, in a binder-only application) asks no cluster
		boolean producing = producers.stream().anyMatch((producer) -> !producer.clients().isEmpty());
		ClusterInspector producerCluster = producing ? this.inspectors.forConsumers(Map.of()) : null;
		if (producerCluster != null) {
			byCluster.putIfAbsent(producerCluster, new ArrayList<>());
		}
		Set<String> producerTopics = new TreeSet<>();
		producers.forEach((producer) -> producerTopics.addAll(producer.topics()));
		all.forEach((subject) -> byCluster
			.computeIfAbsent(this.inspectors.forConsumers(subject.consumer().config()), (inspector) -> new ArrayList<>())
			.add(subject));
		Map<ClusterInspector, ClusterView> views = new LinkedHashMap<>();
		byCluster.forEach((inspector, subjects) -> {
			ClusterView view = inspect(inspector, subjects,
					inspector.equals(producerCluster) ? producerTopics : Set.of(), byCluster.size() > 1, problems);
			if (view != null) {
				views.put(inspector, view);
			}
		});
		this.lastViews.keySet().retainAll(byCluster.keySet());
		if (views.isEmpty()) {
			boolean locality = ReadLocalityJudge.readsWithLocality(
					all.stream().map((subject) -> subject.consumer().policy()).toList(), this.settings.defaultPolicy());
			return new FollowerFetchSnapshot(
					(rack == null && locality) ? FollowerFetchState.NO_RACK : FollowerFetchState.STARTING, rack, source,
					Set.of(), "unknown", Map.of(), problems, this.clock.instant());
		}
		Map<ConsumerKind, Map<String, ConsumerReads>> consumers = new EnumMap<>(ConsumerKind.class);
		List<Cluster> judged = new ArrayList<>();
		Set<String> conditionsSeen = new HashSet<>();
		long now = System.nanoTime();
		Map<Subject, ClusterView> viewOf = new IdentityHashMap<>();
		byCluster.forEach((inspector, subjects) -> subjects
			.forEach((subject) -> viewOf.put(subject, views.getOrDefault(inspector, ClusterView.UNKNOWN))));
		Map<String, Map<String, Object>> groups = this.realigner.check(all, viewOf::get);
		for (Map.Entry<ClusterInspector, List<Subject>> cluster : byCluster.entrySet()) {
			ClusterView view = views.getOrDefault(cluster.getKey(), ClusterView.UNKNOWN);
			List<Judged> clusterReads = new ArrayList<>();
			for (Subject listed : cluster.getValue()) {
				Map<String, Object> group = (listed.consumer().kind() == ConsumerKind.LISTENER)
						? groups.get(listed.consumer().name()) : null;
				Subject subject = (group != null)
						? listed.withDetail(AssignmentRealigner.GROUP_ASSIGNMENT, group) : listed;
				String key = key(subject.consumer().kind(), subject.consumer().name());
				ZoneBytes.Totals bytes = this.receivedBytes.count(key, subject.clients(), view, rack);
				Judged reads = this.judge.judge(subject, view, rack,
						(condition, tp) -> beyondGrace(condition + "|" + key + "|" + tp, now, conditionsSeen), bytes);
				clusterReads.add(reads);
				consumers.computeIfAbsent(reads.summary().kind(), (kind) -> new LinkedHashMap<>())
					.put(reads.summary().name(), reads.summary());
			}
			judged.add(new Cluster(view, clusterReads));
		}
		this.conditionSince.keySet().retainAll(conditionsSeen);
		Set<String> racks = views.values()
			.stream()
			.flatMap((view) -> view.racks().stream())
			.collect(Collectors.toCollection(TreeSet::new));
		FollowerFetchState state = ReadLocalityJudge.state(rack, judged, this.settings.defaultPolicy());
		Map<String, ProducerWrites> writes = new LinkedHashMap<>();
		ClusterView producerView = (producerCluster != null) ? views.getOrDefault(producerCluster, ClusterView.UNKNOWN)
				: ClusterView.UNKNOWN;
		producers.forEach((producer) -> writes.put(producer.name(), this.producerJudge.judge(producer, producerView, rack)));
		return new FollowerFetchSnapshot(state, rack, source, racks, describeSelectors(views), consumers, problems,
				this.clock.instant(), writes);
	}

	private boolean beyondGrace(String key, long now, Set<String> seen) {
		seen.add(key);
		long since = this.conditionSince.computeIfAbsent(key, (k) -> now);
		return now - since >= this.settings.fallbackGrace().toNanos();
	}

	/**
	 * Ask every source for its consumers, and read each one's metrics once for this
	 * refresh. A source that fails is reported, not fatal.
	 */
	private List<Subject> observeAll(List<String> problems) {
		List<Subject> all = new ArrayList<>();
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
				Map<String, ClientMetrics> clients;
				try {
					clients = ConsumerMetricsReader.fromMetrics(consumer.metrics().get());
				}
				catch (RuntimeException ex) {
					clients = Map.of();
				}
				all.add(new Subject(consumer, true, assigned(consumer, clients.values()), clients.values()));
			}
		}
		return all;
	}

	private static Collection<TopicPartition> assigned(ObservedConsumer consumer, Collection<ClientMetrics> clients) {
		if (consumer.assigned() != null) {
			return consumer.assigned();
		}
		Set<TopicPartition> named = new HashSet<>();
		clients.forEach((client) -> named.addAll(client.readReplicas().keySet()));
		return named;
	}

	private static String key(ConsumerKind kind, String name) {
		return kind.tag() + ":" + name;
	}

	/**
	 * Read one cluster's facts for the topics its consumers are assigned, or the last ones
	 * read when the brokers do not answer.
	 */
	private ClusterView inspect(ClusterInspector inspector, List<Subject> subjects, Set<String> producerTopics,
			boolean severalClusters, List<String> problems) {
		String cluster = this.inspectors.clusterOf(inspector);
		String of = (cluster != null) ? " of " + cluster : (severalClusters ? " of the application's KafkaAdmin" : "");
		String brokers = "brokers" + of;
		Set<String> topics = new TreeSet<>(producerTopics);
		Set<String> groups = new TreeSet<>();
		subjects.forEach((subject) -> {
			subject.assigned().forEach((tp) -> topics.add(tp.topic()));
			if (subject.consumer().group() != null) {
				groups.add(subject.consumer().group());
			}
		});
		topics.addAll(this.realigner.topics(subjects));
		if (Thread.currentThread().isInterrupted()) {
			return this.lastViews.get(inspector);
		}
		ClusterView view;
		try {
			view = inspector.inspect(topics, groups);
			this.lastViews.put(inspector, view);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return this.lastViews.get(inspector);
		}
		catch (Exception ex) {
			Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
			problems.add(brokers + " not reachable: " + ClusterInspector.describe(cause));
			ClusterView last = this.lastViews.get(inspector);
			view = (last != null) ? last.withoutReachability() : null;
		}
		if (view == null) {
			return null;
		}
		if (view.selectorProblem() != null) {
			problems.add("replica.selector.class" + of + " unknown: " + view.selectorProblem());
		}
		for (Map.Entry<Integer, String> broker : view.unreachable().entrySet()) {
			problems.add("broker " + broker.getKey() + " (rack " + view.rackOf(broker.getKey()) + ")" + of
					+ " not reachable from this application, asked for its configuration directly: "
					+ broker.getValue());
		}
		view.topicProblems()
			.forEach((topic, problem) -> problems.add("topic " + topic + " not found by the " + brokers
					+ ", so its partitions are not counted: " + problem));
		return view;
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
		String unknown = view.unreachable().isEmpty() ? ""
				: "; unknown on brokers " + new TreeSet<>(view.unreachable().keySet());
		Map<String, List<Integer>> byClass = new LinkedHashMap<>();
		view.selectors()
			.forEach((broker, selector) -> byClass
				.computeIfAbsent((selector.className() != null) ? selector.className() : "default (LeaderSelector)",
						(key) -> new ArrayList<>())
				.add(broker));
		return byClass.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + " on brokers " + entry.getValue().stream().sorted().toList())
			.collect(Collectors.joining("; ")) + unknown;
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
	 * @param fallbackGrace how long a partition may be read across zones, or have its
	 * in-zone replicas unreachable, before it counts
	 * @param timeout bound of every call to the brokers
	 * @param maxListedPartitions how many partitions a list in the details shows at most
	 * @param defaultPolicy the policy of consumers that say nothing, which decides whether
	 * the rack matters while there is no consumer
	 * @param realign how zone-aware assignments are kept in step with the leaders
	 */
	record MonitorSettings(Duration refreshInterval, Duration fallbackGrace, Duration timeout,
			int maxListedPartitions, Policy defaultPolicy, AssignmentRealigner.Settings realign) {

		MonitorSettings(Duration refreshInterval, Duration fallbackGrace, Duration timeout, int maxListedPartitions,
				Policy defaultPolicy) {
			this(refreshInterval, fallbackGrace, timeout, maxListedPartitions, defaultPolicy,
					new AssignmentRealigner.Settings(false, Duration.ZERO, Duration.ZERO));
		}

	}

}
