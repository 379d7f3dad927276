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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.NamedSettings;
import dev.followerfetch.assignment.ZoneAwareAssignment.Locality;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import dev.followerfetch.assignment.ZoneAwareAssignment;
import dev.followerfetch.assignment.ZoneAwareAssignor.Leadership;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ClientSettings;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps zone-aware assignments in step with the leaders. The classic protocol rebalances
 * when members, subscriptions or partition counts change, not when leaders move (a broker
 * restart, a preferred leader election, a reassignment). At each refresh, for every
 * group that one of this application's listener containers led in its last rebalance,
 * this compares how many partitions its assignment reads from an in-zone leader now with
 * how many the rule would give with the current leaders; when the assignment stays below
 * for the grace period, and for as long as the leading consumer's metadata may be older
 * than the move ({@code metadata.max.age.ms}: the group leader assigns by the leaders its
 * own metadata has), that container rebalances the group, at most once per interval, but
 * for one follow-up after the same wait when the rebalance it asked for (a newer
 * generation) still assigned below what the leaders allow. Leaders count as their
 * partitions' preferred replicas, as the assignor counts them: a broker restart, a rolling
 * one too, moves leadership away and Kafka's leader rebalance brings it back, which costs
 * no realignment. Only the leading member acts, so a group is never asked by several
 * instances at once.
 * <p>
 * It cannot loop: a group whose last rebalance kept the wrapped strategy's own assignment
 * (its rule over budget, failed, or stopped by its checks) is not rebalanced until a
 * rebalance assigns by the rule again; a realignment (with its follow-up) whose next
 * generation reads no more partitions from an in-zone leader than before backs the group
 * off (the interval, then twice, four times, up to {@value #MAX_BACKOFF} times it, until
 * the count rises or the group is no longer below); each wait is lengthened by a jitter of up to a quarter of itself (the grace, the interval), and at
 * most one group is rebalanced per refresh, so the groups an instance leads are not all
 * rebalanced at once; and a rule that fails for a group skips that group, with one line
 * per group. It also counts, per group, the rebalances this application's consumers led
 * that kept the wrapped strategy's own assignment, for a meter.
 *
 * @author follower-fetch authors
 */
final class AssignmentRealigner {

	static final String GROUP_ASSIGNMENT = "groupAssignment";

	/**
	 * The most times the interval that realignments which do not raise a group's count
	 * make it wait.
	 */
	static final int MAX_BACKOFF = 16;

	/**
	 * How many client ids' fallbacks are kept apart; past them, the least recently seen
	 * one's count joins its group's.
	 */
	static final int MAX_COUNTED_CLIENTS = 1_000;

	private static final Logger logger = LoggerFactory.getLogger(AssignmentRealigner.class);

	/**
	 * No jitter: its {@code nextDouble()} is always 0.
	 */
	private static final RandomGenerator NO_JITTER = () -> 0L;

	private final Supplier<Map<String, Leadership>> leaderships;

	private final Consumer<String> realignNext;

	private final Settings settings;

	private final Clock clock;

	private final RandomGenerator random;

	private final Rule rule;

	private final Map<String, Long> belowSince = new HashMap<>();

	private final Map<String, Long> lastRebalance = new HashMap<>();

	private final Map<String, Integer> rebalances = new HashMap<>();

	/**
	 * The generation of each group's last realignment, while that realignment may still
	 * be followed by one more within the interval.
	 */
	private final Map<String, Integer> followUps = new HashMap<>();

	/**
	 * Each group's last realignment, until a newer generation shows whether it raised the
	 * count.
	 */
	private final Map<String, Realigned> unjudged = new HashMap<>();

	/**
	 * How many realignments of each group in a row did not raise its count (a follow-up
	 * counting with the realignment it follows).
	 */
	private final Map<String, Integer> unraised = new HashMap<>();

	/**
	 * The jitter of each group's next realignment, as a share (0 to 1) of a quarter of the
	 * wait it lengthens.
	 */
	private final Map<String, Double> jitters = new HashMap<>();

	/**
	 * The groups whose rule failed at the last refresh, logged once.
	 */
	private final Set<String> ruleFailures = new HashSet<>();

	private final FallbackCounts fallbacks = new FallbackCounts();

	/**
	 * What the rule allowed each group at the last refresh, or how it failed: rerun only
	 * when a rebalance or a leader's move changed its input (a refresh of 50 groups of 1,200 partitions would
	 * otherwise rerun 50 rules, each with its own budget).
	 */
	private final Map<String, Allowed> lastAllowed = new HashMap<>();

	/**
	 * A realigner of the zone-aware assignors of one application that lengthens each wait
	 * by up to a quarter of itself.
	 * @param assignors the zone-aware assignors of the application's consumers
	 * @param settings how to realign
	 * @param clock the clock
	 * @param random draws the jitters
	 */
	AssignmentRealigner(ZoneAwareAssignors assignors, Settings settings, Clock clock, RandomGenerator random) {
		this(assignors::leaderships, assignors::realignNext, settings, clock, random, AssignmentRealigner::allowed);
	}

	/**
	 * A realigner of these leaderships without jitter (every wait exact), whose
	 * rebalances ask no assignor to move owned partitions.
	 * @param leaderships the groups this application's consumers led, by client id
	 * @param settings how to realign
	 * @param clock the clock
	 */
	AssignmentRealigner(Supplier<Map<String, Leadership>> leaderships, Settings settings, Clock clock) {
		this(leaderships, settings, clock, NO_JITTER);
	}

	/**
	 * A realigner of these leaderships that lengthens each wait by up to a quarter of
	 * itself, whose rebalances ask no assignor to move owned partitions.
	 * @param leaderships the groups this application's consumers led, by client id
	 * @param settings how to realign
	 * @param clock the clock
	 * @param random draws the jitters
	 */
	AssignmentRealigner(Supplier<Map<String, Leadership>> leaderships, Settings settings, Clock clock,
			RandomGenerator random) {
		this(leaderships, settings, clock, random, AssignmentRealigner::allowed);
	}

	AssignmentRealigner(Supplier<Map<String, Leadership>> leaderships, Settings settings, Clock clock,
			RandomGenerator random, Rule rule) {
		this(leaderships, (clientId) -> {
		}, settings, clock, random, rule);
	}

	private AssignmentRealigner(Supplier<Map<String, Leadership>> leaderships, Consumer<String> realignNext,
			Settings settings, Clock clock, RandomGenerator random, Rule rule) {
		this.leaderships = leaderships;
		this.realignNext = realignNext;
		this.settings = settings;
		this.clock = clock;
		this.random = random;
		this.rule = rule;
	}

	/**
	 * The topics of the groups these consumers lead, whose leaders the refresh must read.
	 * @param subjects the consumers of one cluster
	 * @return the topics
	 */
	Set<String> topics(Collection<Subject> subjects) {
		Set<String> topics = new TreeSet<>();
		led(subjects, this.leaderships.get()).forEach((led) -> led.leadership()
			.members()
			.forEach((member) -> topics.addAll(member.topics())));
		return topics;
	}

	/**
	 * Compare every group these consumers lead with what the current leaders allow, and
	 * rebalance one that stayed below for the grace period and is not backing off.
	 * @param subjects the application's consumers
	 * @param viewOf the cluster view of a consumer
	 * @return the group facts to show in the health of each leading consumer, by
	 * consumer name
	 */
	Map<String, Map<String, Object>> check(Collection<Subject> subjects, Function<Subject, ClusterView> viewOf) {
		Map<String, Leadership> all = this.leaderships.get();
		this.fallbacks.count(all.values());
		Map<String, Map<String, Object>> details = new HashMap<>();
		Set<String> seen = new TreeSet<>();
		Set<String> ledGroups = new TreeSet<>();
		List<Due> due = new ArrayList<>();
		long now = this.clock.millis();
		for (Led led : led(subjects, all)) {
			Leadership leadership = led.leadership();
			String group = leadership.groupId();
			ledGroups.add(group);
			List<Partition> partitions = partitions(leadership, viewOf.apply(led.subject()));
			if (partitions == null) {
				continue;
			}
			seen.add(group);
			Locality current;
			Locality allowed;
			try {
				current = ZoneAwareAssignment.locality(leadership.assignment(), leadership.members(), partitions);
				// a group whose last rebalance fell back would fall back again, and a sticky strategy still
				// settling would undo a realignment: nothing to compare
				allowed = (leadership.fallback() == null && !leadership.settling())
						? allowed(group, leadership, partitions) : null;
			}
			catch (RuntimeException | StackOverflowError | OutOfMemoryError ex) {
				if (this.ruleFailures.add(group)) {
					logger.warn("Not realigning consumer group '" + group
							+ "': comparing its assignment with what the current leaders allow failed (" + ex
							+ "); skipped while it fails. Logged once per group.");
				}
				continue;
			}
			this.ruleFailures.remove(group);
			Map<String, Object> facts = facts(leadership, current, allowed);
			details.put(led.subject().consumer().name(), facts);
			if (allowed == null) {
				// the grace starts again once a rebalance assigns by the rule
				this.belowSince.remove(group);
				this.followUps.remove(group);
				continue;
			}
			if (!below(current, allowed) || !this.settings.enabled()) {
				reset(group);
				continue;
			}
			judge(group, leadership.generation(), current, partitions.size());
			long since = this.belowSince.computeIfAbsent(group, (key) -> now);
			Long last = this.lastRebalance.get(group);
			Integer realignedIn = this.followUps.get(group);
			boolean followUp = last != null && now - last < this.settings.interval().toMillis() && realignedIn != null
					&& leadership.generation() > realignedIn;
			Duration wait = wait(leadership);
			// the first realignment comes after the grace, later ones after the interval: each a little later
			long dueAt = followUp ? plus(since, wait.toMillis())
					: (last == null) ? plus(plus(since, wait.toMillis()), jitter(group, wait.toMillis()))
							: plus(Math.max(plus(since, wait.toMillis()), plus(last, backedOff(group))),
									jitter(group, this.settings.interval().toMillis()));
			facts.put("nextRealignment", Instant.ofEpochMilli(Math.max(dueAt, now)).toString());
			if (backedOff(group) > this.settings.interval().toMillis()) {
				facts.put("realignBackoff", Duration.ofMillis(backedOff(group)).toString());
			}
			if (dueAt <= now) {
				due.add(new Due(led, current, allowed, partitions.size(), since, wait, dueAt, followUp, facts));
			}
		}
		// one group per refresh, the longest due first: the others follow at the next refreshes
		due.sort(Comparator.comparingLong(Due::dueAt));
		for (Due group : due) {
			if (realign(group, now)) {
				break;
			}
		}
		this.belowSince.keySet().retainAll(seen);
		this.jitters.keySet().retainAll(seen);
		this.ruleFailures.retainAll(ledGroups);
		this.lastAllowed.keySet().retainAll(ledGroups);
		this.unjudged.keySet().retainAll(ledGroups);
		this.unraised.keySet().retainAll(ledGroups);
		return details;
	}

	private Locality allowed(String group, Leadership leadership, List<Partition> partitions) {
		Allowed last = this.lastAllowed.get(group);
		if (last != null && last.leadership() == leadership && last.partitions().equals(partitions)) {
			// a rule that failed on this input would fail again, each time after up to its whole budget
			if (last.failure() instanceof RuntimeException ex) {
				throw ex;
			}
			if (last.failure() instanceof Error error) {
				throw error;
			}
			return Objects.requireNonNull(last.allowed());
		}
		this.lastAllowed.remove(group);
		try {
			Locality allowed = this.rule.allowed(leadership, partitions);
			this.lastAllowed.put(group, new Allowed(leadership, partitions, allowed, null));
			return allowed;
		}
		catch (RuntimeException | StackOverflowError | OutOfMemoryError ex) {
			this.lastAllowed.put(group, new Allowed(leadership, partitions, null, ex));
			throw ex;
		}
	}

	/**
	 * Count the fallbacks of the groups this application's consumers lead, at a refresh
	 * that compares none of them.
	 */
	void countFallbacks() {
		this.fallbacks.count(this.leaderships.get().values());
	}

	/**
	 * How many rebalances this realigner asked of a group since start-up.
	 * @param group the group id
	 * @return the count
	 */
	int rebalances(String group) {
		return this.rebalances.getOrDefault(group, 0);
	}

	/**
	 * How many rebalances this application's consumers led in a group kept the wrapped
	 * strategy's own assignment since start-up, as the leaderships seen at the refreshes
	 * count them: per client id the largest count seen, kept after that consumer no longer
	 * leads. Never decreases.
	 * @param group the group id
	 * @return the count
	 */
	long fallbacks(String group) {
		return this.fallbacks.of(group);
	}

	/**
	 * The groups whose fallbacks are counted: every group a leadership was seen of,
	 * whether any of its rebalances fell back or not.
	 * @return the group ids
	 */
	Set<String> fallbackGroups() {
		return this.fallbacks.groups();
	}

	/**
	 * Rebalance a group that is due.
	 * @return whether its container was asked
	 */
	private boolean realign(Due due, long now) {
		Leadership leadership = due.led().leadership();
		String group = leadership.groupId();
		Runnable rebalance = Objects.requireNonNull(due.led().subject().consumer().rebalance());
		try {
			this.realignNext.accept(leadership.clientId());
			rebalance.run();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not rebalance consumer group '" + group + "' to realign its assignment: " + ex);
			return false;
		}
		this.lastRebalance.put(group, now);
		this.belowSince.remove(group);
		this.rebalances.merge(group, 1, Integer::sum);
		this.unjudged.put(group, new Realigned(leadership.generation(), due.current().leaderZone(), due.followUp()));
		// the first realignment of a group below may be followed once, for a leader whose metadata lagged
		boolean mayFollow = !due.followUp() && !this.unraised.containsKey(group);
		if (mayFollow) {
			this.followUps.put(group, leadership.generation());
		}
		else {
			this.followUps.remove(group);
		}
		this.jitters.put(group, this.random.nextDouble());
		Duration next = Duration.ofMillis(plus(backedOff(group), jitter(group, this.settings.interval().toMillis())))
			.truncatedTo(ChronoUnit.SECONDS);
		due.facts().put("realignments", rebalances(group));
		if (mayFollow) {
			// a follow-up may come sooner: the next refresh knows
			due.facts().remove("nextRealignment");
		}
		else {
			due.facts().put("nextRealignment", Instant.ofEpochMilli(plus(now, next.toMillis())).toString());
		}
		logger.info("Rebalancing consumer group '" + group + "' (listener '" + due.led().subject().consumer().name()
				+ "'): " + due.current().leaderZone() + " of " + due.partitions()
				+ " partitions are read from a leader in their reader's zone, the current leaders allow "
				+ due.allowed().leaderZone() + " (for " + Duration.ofMillis(now - due.since()).toSeconds() + "s"
				+ (due.followUp() ? "; again: the last rebalance still assigned below them" : "")
				+ "); the next realignment of this group comes " + next + " later at the earliest"
				+ (mayFollow ? ", or once after " + due.grace().toSeconds() + "s if this one leaves it below" : ""));
		return true;
	}

	/**
	 * Judge a group's last realignment by the first newer generation: one that reads no
	 * more partitions from an in-zone leader backs the group off.
	 */
	private void judge(String group, int generation, Locality current, int partitions) {
		Realigned realigned = this.unjudged.get(group);
		if (realigned == null || generation <= realigned.generation()) {
			return;
		}
		this.unjudged.remove(group);
		if (current.leaderZone() > realigned.leaderZone()) {
			this.unraised.remove(group);
			return;
		}
		int before = this.unraised.getOrDefault(group, 0);
		// a follow-up and the realignment it follows count once
		int after = realigned.followUp() ? Math.max(before, 1) : before + 1;
		this.unraised.put(group, after);
		if (multiplier(after) > multiplier(before)) {
			logger.info("Consumer group '" + group + "' still reads " + current.leaderZone() + " of " + partitions
					+ " partitions from a leader in their reader's zone in generation " + generation
					+ ": the rebalances asked to realign it raised none; backing off, its next realignment comes "
					+ Duration.ofMillis(backedOff(group))
					+ " after the last at the earliest, until that count rises or the group is no longer below");
		}
	}

	/**
	 * Forget a group's realignment state: it is no longer below, or realignment is off.
	 */
	private void reset(String group) {
		this.belowSince.remove(group);
		this.followUps.remove(group);
		this.unjudged.remove(group);
		this.unraised.remove(group);
		this.jitters.remove(group);
	}

	/**
	 * The least time between a group's last realignment and its next: the interval, times
	 * the back-off.
	 */
	private long backedOff(String group) {
		long interval = this.settings.interval().toMillis();
		long multiplier = multiplier(this.unraised.getOrDefault(group, 0));
		return (interval > Long.MAX_VALUE / multiplier) ? Long.MAX_VALUE : interval * multiplier;
	}

	/**
	 * The interval's multiplier after so many realignments in a row that did not raise the
	 * count: 1 after none or one, then 2, 4, ... up to {@value #MAX_BACKOFF}.
	 */
	private static long multiplier(int unraised) {
		return (unraised <= 1) ? 1 : Math.min(MAX_BACKOFF, 1L << Math.min(unraised - 1, 30));
	}

	/**
	 * Up to a quarter of the wait it lengthens: the grace before a group's first
	 * realignment, the interval before a later one.
	 */
	private long jitter(String group, long waitMillis) {
		double share = this.jitters.computeIfAbsent(group, (key) -> this.random.nextDouble());
		return (long) (share * (waitMillis / 4));
	}

	/**
	 * How long a group stays below before it is rebalanced: the grace, and at least as
	 * long as its leader's metadata may lag a move, or it would assign by the old leaders.
	 */
	private Duration wait(Leadership leadership) {
		return (leadership.metadataMaxAge().compareTo(this.settings.grace()) > 0) ? leadership.metadataMaxAge()
				: this.settings.grace();
	}

	private static long plus(long millis, long more) {
		long sum = millis + more;
		return (((millis ^ sum) & (more ^ sum)) < 0) ? Long.MAX_VALUE : sum;
	}

	private static Locality allowed(Leadership leadership, List<Partition> partitions) {
		return ZoneAwareAssignment.locality(ZoneAwareAssignment.assign(leadership.members(), partitions,
				leadership.balance(), leadership.assignment()), leadership.members(), partitions);
	}

	private static boolean below(Locality current, Locality allowed) {
		return current.leaderZone() < allowed.leaderZone()
				|| (current.leaderZone() == allowed.leaderZone() && current.zoneLocal() < allowed.zoneLocal());
	}

	private Map<String, Object> facts(Leadership leadership, Locality current, @Nullable Locality allowed) {
		Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("group", leadership.groupId());
		facts.put("generation", leadership.generation());
		Map<String, Integer> zones = new TreeMap<>();
		leadership.members().forEach((member) -> zones.merge(Objects.toString(member.zone(), "none"), 1, Integer::sum));
		facts.put("membersByZone", zones);
		facts.put("leaderZonePartitions", current.leaderZone());
		if (allowed != null) {
			facts.put("leaderZonePartitionsAllowed", allowed.leaderZone());
		}
		facts.put("realignments", rebalances(leadership.groupId()));
		if (leadership.fallback() != null) {
			facts.put("zoneAwareFallback", leadership.fallback());
		}
		if (leadership.settling()) {
			facts.put("stickySettling", true);
		}
		return facts;
	}

	/**
	 * The partitions of a group's topics as the view has them, or {@code null} when the
	 * view misses one of its topics; each led by its preferred replica (its first), as the
	 * assignor judges them.
	 */
	private static @Nullable List<Partition> partitions(Leadership leadership, ClusterView view) {
		Set<String> topics = new TreeSet<>();
		leadership.members().forEach((member) -> topics.addAll(member.topics()));
		Map<String, List<Partition>> byTopic = new HashMap<>();
		view.partitions().forEach((tp, placement) -> {
			if (topics.contains(tp.topic())) {
				Set<String> inSync = new TreeSet<>();
				placement.isr().forEach((broker) -> {
					String rack = view.rackOf(broker);
					if (rack != null) {
						inSync.add(rack);
					}
				});
				int first = placement.replicas().isEmpty() ? -1 : placement.replicas().get(0);
				byTopic.computeIfAbsent(tp.topic(), (topic) -> new ArrayList<>())
					.add(Partition.ledByPreferred(tp, (first >= 0) ? view.rackOf(first) : null,
							(placement.leader() >= 0) ? view.rackOf(placement.leader()) : null, inSync));
			}
		});
		if (!byTopic.keySet().containsAll(topics)) {
			return null;
		}
		List<Partition> partitions = new ArrayList<>();
		byTopic.values().forEach(partitions::addAll);
		return partitions;
	}

	/**
	 * The groups led by these consumers: a listener container (it can rebalance) whose
	 * client led its group's last rebalance.
	 */
	private static List<Led> led(Collection<Subject> subjects, Map<String, Leadership> leaderships) {
		List<Led> led = new ArrayList<>();
		if (leaderships.isEmpty()) {
			return led;
		}
		for (Subject subject : subjects) {
			if (subject.consumer().rebalance() == null) {
				continue;
			}
			subject.clients().forEach((client) -> {
				Leadership leadership = leaderships.get(client.clientId());
				if (leadership != null && leadership.groupId().equals(subject.consumer().group())) {
					led.add(new Led(subject, leadership));
				}
			});
		}
		return led;
	}

	/**
	 * How assignments are realigned.
	 *
	 * @param enabled {@code follower-fetch.assignment.realign}
	 * @param grace how long an assignment may stay below what the leaders allow
	 * @param interval least time between two realignments of one group
	 */
	record Settings(boolean enabled, Duration grace, Duration interval) {

		/**
		 * Check the durations.
		 * @throws dev.followerfetch.InvalidSettingException for a negative one, naming its
		 * property
		 */
		Settings {
			InvalidSettingException.requireNotNegative("follower-fetch.assignment.realign-grace", grace,
					"Must be zero or a positive duration, for example 2m.");
			InvalidSettingException.requireNotNegative("follower-fetch.assignment.realign-interval", interval,
					"Must be zero or a positive duration, for example 10m.");
		}

		/**
		 * Settings by name, the one place that names each of them and gives its default:
		 * {@code assignment.realign}, {@code .realign-grace} and {@code .realign-interval},
		 * off with {@code assignment.enabled}.
		 * @param given the settings by name
		 * @return the settings
		 */
		static Settings of(NamedSettings given) {
			boolean assignment = ClientSettings.assignmentEnabled(given);
			boolean realign = given.bool("assignment.realign", true);
			return new Settings(assignment && realign, given.duration("assignment.realign-grace", Duration.ofMinutes(2)),
					given.duration("assignment.realign-interval", Duration.ofMinutes(10)));
		}

	}

	private record Led(Subject subject, Leadership leadership) {

	}

	/**
	 * What the current leaders allow a group: its rule's assignment, judged.
	 */
	@FunctionalInterface
	interface Rule {

		/**
		 * Assign a group as its leader would with these leaders, and judge the result.
		 * @param leadership the group as its leader saw it
		 * @param partitions its partitions, with their current leaders
		 * @return how the rule's assignment reads
		 */
		Locality allowed(Leadership leadership, List<Partition> partitions);

	}

	/**
	 * A group due for a realignment at this refresh, with the wait it served ({@code grace}:
	 * the grace, or the leader's metadata age if longer).
	 */
	private record Due(Led led, Locality current, Locality allowed, int partitions, long since, Duration grace,
			long dueAt, boolean followUp, Map<String, Object> facts) {

	}

	/**
	 * A realignment: the generation it was asked in, the count it started from, and
	 * whether it followed up another.
	 */
	private record Realigned(int generation, int leaderZone, boolean followUp) {

	}

	/**
	 * The fallbacks of the rebalances this application's consumers led: per client id the
	 * largest count seen, at most {@value #MAX_COUNTED_CLIENTS} client ids, the least
	 * recently seen one's count joining its group's when more come, so a group's sum never
	 * decreases. Read by the meters' thread.
	 */
	private static final class FallbackCounts {

		private final LinkedHashMap<String, Counted> byClient = new LinkedHashMap<>();

		/**
		 * The counts of the client ids no longer kept apart, by group; at most
		 * {@value #MAX_COUNTED_CLIENTS} groups, the oldest forgotten.
		 */
		private final LinkedHashMap<String, Long> retired = new LinkedHashMap<>();

		synchronized void count(Collection<Leadership> leaderships) {
			for (Leadership leadership : leaderships) {
				Counted before = this.byClient.remove(leadership.clientId());
				long count = leadership.fallbacks();
				if (before != null && before.group().equals(leadership.groupId())) {
					count = Math.max(count, before.count());
				}
				else if (before != null) {
					retire(before);
				}
				// put last: the least recently seen come first
				this.byClient.put(leadership.clientId(), new Counted(leadership.groupId(), count));
			}
			for (Iterator<Counted> eldest = this.byClient.values().iterator(); this.byClient
				.size() > MAX_COUNTED_CLIENTS;) {
				retire(eldest.next());
				eldest.remove();
			}
		}

		private void retire(Counted counted) {
			this.retired.merge(counted.group(), counted.count(), Long::sum);
			for (Iterator<String> eldest = this.retired.keySet().iterator(); this.retired
				.size() > MAX_COUNTED_CLIENTS;) {
				eldest.next();
				eldest.remove();
			}
		}

		synchronized long of(String group) {
			long sum = this.retired.getOrDefault(group, 0L);
			for (Counted counted : this.byClient.values()) {
				if (counted.group().equals(group)) {
					sum += counted.count();
				}
			}
			return sum;
		}

		synchronized Set<String> groups() {
			Set<String> groups = new TreeSet<>(this.retired.keySet());
			this.byClient.values().forEach((counted) -> groups.add(counted.group()));
			return groups;
		}

	}

	private record Counted(String group, long count) {

	}

	/**
	 * What the rule allowed a group, or how it failed, with its input.
	 */
	private record Allowed(Leadership leadership, List<Partition> partitions, @Nullable Locality allowed,
			@Nullable Throwable failure) {

	}

}
