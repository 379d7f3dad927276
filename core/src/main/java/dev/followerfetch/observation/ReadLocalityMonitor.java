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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
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
import java.util.random.RandomGenerator;

import dev.followerfetch.ClientRack;
import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.NamedSettings;
import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor.Leadership;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.observation.SnapshotBuilder.ClusterReading;
import dev.followerfetch.observation.SnapshotBuilder.ConsumerKey;
import dev.followerfetch.observation.SnapshotBuilder.Reading;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.PolicySettings;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Keeps a {@link FollowerFetchSnapshot} fresh in the background. Every refresh asks each
 * {@link ObservedConsumers} source for the application's consumers and reads their client
 * metrics ({@link ConsumerMetricsReader}); consumers no source accounts for are found in
 * JMX, attributed to a consumer configured through the {@code ClientRackDecider} when
 * their client id matches one, and otherwise reported by client id; share consumers are
 * found there too, and their share groups' assignments asked of the brokers. It reads the
 * clusters' facts (broker racks, replica selectors, partition placement), keeping the
 * last ones read for a cluster that does not answer, and has the {@link SnapshotBuilder}
 * judge what it read. This class schedules and gathers; the judging is the builder's.
 * Nothing here runs on a request thread; readers get the last snapshot. It needs only a
 * start and a stop: under Spring Boot a lifecycle bean calls them.
 *
 * @author follower-fetch authors
 */
public final class ReadLocalityMonitor {

	private final Supplier<DetectedRack> detectedRack;

	private final Supplier<List<ObservedConsumers>> sources;

	private final ClusterInspectors inspectors;

	private final MonitorSettings settings;

	private final @Nullable OtherConsumers others;

	private final SnapshotBuilder builder;

	private final Supplier<List<ObservedProducer>> producers;

	private final StateLog stateLog = new StateLog();

	private final ZoneAwareAssignors assignors;

	private final AssignmentRealigner realigner;

	private final List<Consumer<FollowerFetchSnapshot>> refreshListeners = new CopyOnWriteArrayList<>();

	private volatile FollowerFetchSnapshot snapshot;

	private final Map<ClusterInspector, ClusterView> lastViews = new HashMap<>();

	private final Object lifecycle = new Object();

	private volatile @Nullable ScheduledExecutorService scheduler;

	private final Clock clock;

	private final ProducerTopics producerTopics = new ProducerTopics();

	private volatile @Nullable Instant startedAt;

	private volatile @Nullable Instant replacedAt;

	private volatile @Nullable Instant refreshRunningSince;

	private volatile @Nullable String lastRefreshError;

	private volatile @Nullable StaleView staleView;

	/**
	 * Start putting a monitor together.
	 * @param settings its settings by name: {@code observation.*}, {@code policy.default}
	 * and {@code assignment.*}
	 * @param detectedRack the zone this application runs in
	 * @param adminConfig the settings of the application's admin client, to read the
	 * clusters with
	 * @return a builder
	 */
	public static ReadLocalityMonitorBuilder builder(NamedSettings settings, Supplier<DetectedRack> detectedRack,
			Supplier<Map<String, Object>> adminConfig) {
		return new ReadLocalityMonitorBuilder(settings, detectedRack, adminConfig);
	}

	/**
	 * A monitor that sees no zone-aware assignor: it leads no group it could realign.
	 */
	ReadLocalityMonitor(Supplier<DetectedRack> detectedRack, Supplier<List<ObservedConsumers>> sources,
			@Nullable OtherConsumers others, Supplier<List<ObservedProducer>> producers, ClusterInspectors inspectors,
			MonitorSettings settings, Clock clock) {
		this(detectedRack, sources, others, producers, inspectors, settings, clock, new ZoneAwareAssignors());
	}

	/**
	 * A monitor of the zone-aware assignors registered in this registry, the one the
	 * application's consumers were handed: what they know of the groups they lead, which
	 * it realigns.
	 */
	ReadLocalityMonitor(Supplier<DetectedRack> detectedRack, Supplier<List<ObservedConsumers>> sources,
			@Nullable OtherConsumers others, Supplier<List<ObservedProducer>> producers, ClusterInspectors inspectors,
			MonitorSettings settings, Clock clock, ZoneAwareAssignors assignors) {
		this(detectedRack, sources, others, producers, inspectors, settings, clock, assignors,
				new AssignmentRealigner(assignors, settings.realign(), clock, new SplittableRandom()));
	}

	/**
	 * A monitor whose realigner reads these leaderships rather than a registry's.
	 */
	ReadLocalityMonitor(Supplier<DetectedRack> detectedRack, Supplier<List<ObservedConsumers>> sources,
			@Nullable OtherConsumers others, Supplier<List<ObservedProducer>> producers, ClusterInspectors inspectors,
			MonitorSettings settings, Clock clock, Supplier<Map<String, Leadership>> leaderships) {
		this(detectedRack, sources, others, producers, inspectors, settings, clock, new ZoneAwareAssignors(),
				new AssignmentRealigner(leaderships, settings.realign(), clock, new SplittableRandom()));
	}

	private ReadLocalityMonitor(Supplier<DetectedRack> detectedRack, Supplier<List<ObservedConsumers>> sources,
			@Nullable OtherConsumers others, Supplier<List<ObservedProducer>> producers, ClusterInspectors inspectors,
			MonitorSettings settings, Clock clock, ZoneAwareAssignors assignors, AssignmentRealigner realigner) {
		this.detectedRack = detectedRack;
		this.producers = producers;
		this.sources = sources;
		this.others = others;
		this.inspectors = inspectors;
		this.settings = settings;
		this.clock = clock;
		this.builder = new SnapshotBuilder(settings.maxListedPartitions(), settings.fallbackGrace(),
				settings.defaultPolicy(), clock);
		this.assignors = assignors;
		this.realigner = realigner;
		this.snapshot = this.builder.notRefreshed();
	}

	/**
	 * The last snapshot taken, as it reads now: {@link FollowerFetchState#STALE} once no
	 * refresh has replaced it for {@link MonitorSettings#staleAfter()} since it was stored
	 * (or since the last {@link #start()}, when that is later), by this monitor's clock.
	 * Judged here, when it is read, because a refresh that hangs runs nothing that could
	 * mark it; the health contributor, the meters and every other reader get it from here.
	 * @return the snapshot, never {@code null}
	 */
	public FollowerFetchSnapshot snapshot() {
		FollowerFetchSnapshot last = this.snapshot;
		Instant since = latest(latest(last.takenAt(), this.replacedAt), this.startedAt);
		if (this.lastRefreshError == null) {
			// a refresh after one that worked is slow, not failed, until it outlasts the age itself
			since = latest(since, this.refreshRunningSince);
		}
		if (Duration.between(since, this.clock.instant()).compareTo(this.settings.staleAfter()) <= 0) {
			return last;
		}
		FollowerFetchSnapshot.Stale why = new FollowerFetchSnapshot.Stale(last.state(), this.lastRefreshError,
				this.refreshRunningSince);
		StaleView view = this.staleView;
		if (view == null || view.of() != last || !view.stale().equals(why)) {
			view = new StaleView(last, why, last.stale(why));
			this.staleView = view;
			this.stateLog.stale(view.snapshot());
		}
		return view.snapshot();
	}

	private static Instant latest(Instant one, @Nullable Instant other) {
		return (other != null && other.isAfter(one)) ? other : one;
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
		return this.builder.receivedBytes(kind, name, local);
	}

	/**
	 * Whether one consumer was listed by its source at the last refresh. A listener,
	 * Streams application or binding is listed while its bean lives; a consumer the
	 * application built is listed until it is closed.
	 * @param kind how the application consumes
	 * @param name the listener id, application id, binding name or client id
	 * @return {@code true} while it is listed
	 */
	public boolean lists(ConsumerKind kind, String name) {
		return this.builder.lists(kind, name);
	}

	/**
	 * Whether one producer factory was listed at the last refresh: a factory is listed
	 * until it is destroyed.
	 * @param producer the producer factory's name
	 * @return {@code true} while it is listed
	 */
	public boolean listsProducer(String producer) {
		return this.builder.listsProducer(producer);
	}

	/**
	 * Bytes sent by one producer factory's producers since start-up, to brokers in this
	 * zone or in others. Monotonic across producer restarts.
	 * @param producer the producer factory's name
	 * @param local {@code true} for bytes to this zone
	 * @return the byte count
	 */
	public double producedBytes(String producer, boolean local) {
		return this.builder.sentBytes(producer, local);
	}

	/**
	 * How many rebalances this application's consumers led in one consumer group kept the
	 * zone-aware assignor's wrapped strategy's own assignment (the rule over its budget,
	 * failed, or its output stopped by the assignor's checks) since start-up, as counted
	 * at the refreshes. Never decreases.
	 * @param group the group id
	 * @return the count
	 */
	public long assignmentFallbacks(String group) {
		return this.realigner.fallbacks(group);
	}

	/**
	 * The consumer groups whose zone-aware rebalances led by this application's consumers
	 * {@link #assignmentFallbacks(String)} counts: every group one of them was seen to
	 * lead, with fallbacks or none.
	 * @return the group ids
	 */
	public Set<String> assignmentFallbackGroups() {
		return this.realigner.fallbackGroups();
	}

	/**
	 * Take a snapshot now. Called by the background refresher.
	 * @return the new snapshot, or the last one, as {@link #snapshot()} reads it, when
	 * this refresh failed
	 */
	public synchronized FollowerFetchSnapshot refresh() {
		this.refreshRunningSince = this.clock.instant();
		try {
			FollowerFetchSnapshot taken = take();
			// before the snapshot: a reader that sees the new snapshot sees when it was stored
			this.replacedAt = this.clock.instant();
			this.snapshot = taken;
			this.lastRefreshError = null;
			this.stateLog.refreshed(this.snapshot);
			this.refreshListeners.forEach((listener) -> listener.accept(this.snapshot));
		}
		catch (Throwable ex) {
			// whatever a refresh throws is logged and shown; the next refresh is scheduled all the same
			this.lastRefreshError = FailureText.of(ex);
			this.stateLog.refreshFailed(ex, this.snapshot);
		}
		finally {
			this.refreshRunningSince = null;
		}
		return snapshot();
	}

	/**
	 * Have each snapshot a refresh takes handed to a listener, on the monitor's thread.
	 * @param listener what reads it
	 */
	public void onRefresh(Consumer<FollowerFetchSnapshot> listener) {
		this.refreshListeners.add(listener);
	}

	private FollowerFetchSnapshot take() {
		// the snapshot shows the consumers as read now: the brokers' answers come after them
		Instant readAt = this.clock.instant();
		DetectedRack detected = this.detectedRack.get();
		String rack = ClientRack.zoneOf(detected.rack().orElse(null));
		List<Problem> problems = new ArrayList<>();
		List<Subject> all = observeAll(problems);
		if (this.others != null) {
			all.addAll(this.others.find(all, problems));
		}
		List<ObservedProducer> producers = this.producerTopics.bound(this.producers.get(), readAt,
				this.settings.maxListedTopics());
		Map<ClusterInspector, List<Subject>> byCluster = new LinkedHashMap<>();
		if (all.isEmpty()) {
			problems.add(Problem.of(Problem.Kind.NO_CONSUMER));
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
		List<ClusterReading> clusters = new ArrayList<>();
		Map<Subject, ClusterView> viewOf = new IdentityHashMap<>();
		byCluster.forEach((inspector, subjects) -> {
			String name = this.inspectors.clusterOf(inspector);
			ClusterView view = inspect(inspector, subjects,
					inspector.equals(producerCluster) ? producerTopics : Set.of(),
					(name == null && byCluster.size() > 1) ? Problem.KAFKA_ADMIN : name, rack, problems);
			ClusterView known = (view != null) ? view : ClusterView.UNKNOWN;
			List<Subject> withShares = subjects.stream()
				.map((subject) -> (subject.consumer().kind() == ConsumerKind.SHARE)
						? ShareConsumers.assigned(subject, known) : subject)
				.toList();
			clusters.add(new ClusterReading(name, view, withShares, inspector.equals(producerCluster)));
			subjects.forEach((subject) -> viewOf.put(subject, (view != null) ? view : ClusterView.UNKNOWN));
		});
		this.lastViews.keySet().retainAll(byCluster.keySet());
		this.inspectors.idleExcept(byCluster.keySet());
		boolean anyRead = clusters.stream().anyMatch((cluster) -> cluster.view() != null);
		Map<String, Map<String, Object>> groups = anyRead ? this.realigner.check(all, viewOf::get) : Map.of();
		if (!anyRead) {
			this.realigner.countFallbacks();
		}
		return this.builder.build(new Reading(rack, detected.source().orElse(null), clusters, producers, problems,
				groups, readAt));
	}

	/**
	 * Ask every source for its consumers, and read each one's metrics once for this
	 * refresh. A source that fails is reported, not fatal.
	 */
	private List<Subject> observeAll(List<Problem> problems) {
		List<Subject> all = new ArrayList<>();
		Set<ConsumerKey> names = new HashSet<>();
		for (ObservedConsumers source : this.sources.get()) {
			Collection<ObservedConsumer> found;
			try {
				found = source.find();
			}
			catch (RuntimeException ex) {
				problems.add(Problem.consumersNotListed(source.getClass().getSimpleName(), ClusterInspector.describe(ex)));
				continue;
			}
			for (ObservedConsumer consumer : found) {
				if (consumer.name() == null || !names.add(new ConsumerKey(consumer.kind(), consumer.name()))) {
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

	/**
	 * Read one cluster's facts for the topics its consumers are assigned, or the last ones
	 * read when the brokers do not answer.
	 */
	private @Nullable ClusterView inspect(ClusterInspector inspector, List<Subject> subjects,
			Set<String> producerTopics, @Nullable String cluster, @Nullable String zone, List<Problem> problems) {
		Set<String> topics = new TreeSet<>(producerTopics);
		Set<String> shareClients = new TreeSet<>();
		subjects.forEach((subject) -> {
			subject.assigned().forEach((tp) -> topics.add(tp.topic()));
			if (subject.consumer().kind() == ConsumerKind.SHARE) {
				shareClients.add(subject.consumer().name());
			}
		});
		topics.addAll(this.realigner.topics(subjects));
		if (Thread.currentThread().isInterrupted()) {
			return this.lastViews.get(inspector);
		}
		ClusterView view;
		try {
			view = inspector.inspect(topics, rebalances(subjects, this.assignors), shareClients, zone);
			this.lastViews.put(inspector, view);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return this.lastViews.get(inspector);
		}
		catch (Exception ex) {
			Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
			problems.add(Problem.brokersUnreachable(cluster, ClusterInspector.describe(cause)));
			ClusterView last = this.lastViews.get(inspector);
			view = (last != null) ? last.withoutReachability() : null;
		}
		if (view == null) {
			return null;
		}
		if (view.selectorProblem() != null) {
			problems.add(Problem.selectorUnknown(cluster, view.selectorProblem()));
		}
		for (Map.Entry<Integer, String> broker : view.unreachable().entrySet()) {
			problems.add(Problem.brokerUnreachable(cluster, broker.getKey(), view.rackOf(broker.getKey()),
					broker.getValue()));
		}
		view.topicProblems().forEach((topic, problem) -> problems.add(Problem.topicNotFound(cluster, topic, problem)));
		return view;
	}

	/**
	 * The classic-protocol consumer groups of some consumers, with what their clients say
	 * of the group's rebalances and whether each of them knows that its zone-aware
	 * assignor was chosen: the brokers assign the consumer protocol's groups, and a share
	 * group has no assignor to name.
	 */
	static Map<String, GroupAssignors.Rebalances> rebalances(List<Subject> subjects, ZoneAwareAssignors assignors) {
		Map<String, Set<String>> clientIds = new TreeMap<>();
		Map<String, Long> totals = new HashMap<>();
		Set<String> notChosen = new HashSet<>();
		subjects.forEach((subject) -> {
			String group = subject.consumer().group();
			if (group == null || subject.consumer().kind() == ConsumerKind.SHARE
					|| AssignmentStrategy.usesConsumerProtocol(subject.consumer().config())) {
				return;
			}
			Set<String> ids = clientIds.computeIfAbsent(group, (key) -> new TreeSet<>());
			subject.clients().forEach((client) -> {
				if (client.rebalances() >= 0) {
					ids.add(client.clientId());
					totals.merge(group, client.rebalances(), Long::sum);
				}
				if (!assignors.chosen(client.clientId(), group).orElse(false)) {
					notChosen.add(group);
				}
			});
		});
		Map<String, GroupAssignors.Rebalances> rebalances = new TreeMap<>();
		clientIds.forEach((group, ids) -> rebalances.put(group, new GroupAssignors.Rebalances(ids,
				totals.getOrDefault(group, 0L), !ids.isEmpty() && !notChosen.contains(group))));
		return rebalances;
	}

	/**
	 * Start refreshing in the background, the first refresh after a random part of the
	 * refresh interval, so that the instances of a deployment started together do not
	 * refresh together. Does nothing when running.
	 */
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
			this.startedAt = this.clock.instant();
			schedule(executor, firstDelay(this.settings.refreshInterval(), ThreadLocalRandom.current()));
		}
	}

	/**
	 * The time to the first refresh after a start.
	 * @param interval the refresh interval
	 * @param random where the part of it comes from
	 * @return milliseconds, uniform in [0, interval)
	 */
	static long firstDelay(Duration interval, RandomGenerator random) {
		long millis = interval.toMillis();
		return (millis > 0) ? random.nextLong(millis) : 0;
	}

	private void schedule(ScheduledExecutorService executor, long delayMillis) {
		if (executor.isShutdown()) {
			return;
		}
		try {
			executor.schedule(() -> {
				try {
					refresh();
				}
				finally {
					schedule(executor, jittered(this.settings.refreshInterval()));
				}
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

	/**
	 * Whether the monitor refreshes in the background.
	 * @return {@code true} between {@link #start()} and {@link #stop()}
	 */
	public boolean isRunning() {
		return this.scheduler != null;
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
	 * @param maxListedTopics how many topics of each producer factory are listed, and
	 * described at the brokers, at most
	 */
	record MonitorSettings(Duration refreshInterval, Duration fallbackGrace, Duration timeout,
			int maxListedPartitions, Policy defaultPolicy, AssignmentRealigner.Settings realign, int maxListedTopics) {

		/**
		 * The default of {@code follower-fetch.observation.max-listed-topics}.
		 */
		static final int MAX_LISTED_TOPICS = 20;

		/**
		 * Check the settings.
		 * @throws InvalidSettingException for a setting out of range, naming its property
		 */
		MonitorSettings {
			InvalidSettingException.requirePositive("follower-fetch.observation.refresh-interval", refreshInterval,
					"Must be a positive duration, for example 30s.");
			InvalidSettingException.requirePositive("follower-fetch.observation.timeout", timeout,
					"Must be a positive duration, for example 5s.");
			InvalidSettingException.requireNotNegative("follower-fetch.observation.fallback-grace", fallbackGrace,
					"Must be zero or a positive duration, for example 2m.");
			if (maxListedPartitions < 0) {
				throw new InvalidSettingException("follower-fetch.observation.max-listed-partitions",
						maxListedPartitions, "Must be zero or more.");
			}
			if (maxListedTopics < 0) {
				throw new InvalidSettingException("follower-fetch.observation.max-listed-topics", maxListedTopics,
						"Must be zero or more.");
			}
		}

		/**
		 * Settings by name, the one place that names each of the monitor's settings and
		 * gives its default: {@code observation.*}, with {@code policy.default} and the
		 * realigner's.
		 * @param given the settings by name
		 * @return the settings
		 * @throws InvalidSettingException for a setting out of range, naming its property
		 */
		static MonitorSettings of(NamedSettings given) {
			return new MonitorSettings(given.duration("observation.refresh-interval", Duration.ofSeconds(30)),
					given.duration("observation.fallback-grace", Duration.ofMinutes(2)),
					given.duration("observation.timeout", Duration.ofSeconds(5)),
					given.number("observation.max-listed-partitions", 20), PolicySettings.defaultPolicy(given),
					AssignmentRealigner.Settings.of(given),
					given.number("observation.max-listed-topics", MAX_LISTED_TOPICS));
		}

		MonitorSettings(Duration refreshInterval, Duration fallbackGrace, Duration timeout, int maxListedPartitions,
				Policy defaultPolicy, AssignmentRealigner.Settings realign) {
			this(refreshInterval, fallbackGrace, timeout, maxListedPartitions, defaultPolicy, realign,
					MAX_LISTED_TOPICS);
		}

		MonitorSettings(Duration refreshInterval, Duration fallbackGrace, Duration timeout, int maxListedPartitions,
				Policy defaultPolicy) {
			this(refreshInterval, fallbackGrace, timeout, maxListedPartitions, defaultPolicy,
					new AssignmentRealigner.Settings(false, Duration.ZERO, Duration.ZERO));
		}

		/**
		 * How long a snapshot may go unreplaced before it reads
		 * {@link FollowerFetchState#STALE}: two refresh intervals and the timeout. A working
		 * monitor replaces a snapshot within an interval (and its jitter) and the time the
		 * next refresh takes, a few calls to the brokers each bounded by the timeout: by
		 * then, a refresh that should have replaced it failed or hangs.
		 * @return the age
		 */
		Duration staleAfter() {
			return this.refreshInterval.multipliedBy(2).plus(this.timeout);
		}

	}

	/**
	 * The stale reading of one snapshot, kept so that the meters' many reads of a stale
	 * snapshot share one copy.
	 *
	 * @param of the snapshot a refresh took
	 * @param stale why it is stale
	 * @param snapshot how it reads
	 */
	private record StaleView(FollowerFetchSnapshot of, FollowerFetchSnapshot.Stale stale,
			FollowerFetchSnapshot snapshot) {

	}

}
