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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.assignment.ZoneAwareAssignment.Locality;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import dev.followerfetch.assignment.ZoneAwareAssignment;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignor.Leadership;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
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
 *
 * @author follower-fetch authors
 */
final class AssignmentRealigner {

	static final String GROUP_ASSIGNMENT = "groupAssignment";

	private static final Logger logger = LoggerFactory.getLogger(AssignmentRealigner.class);

	private final Supplier<Map<String, Leadership>> leaderships;

	private final Settings settings;

	private final Clock clock;

	private final Map<String, Long> belowSince = new HashMap<>();

	private final Map<String, Long> lastRebalance = new HashMap<>();

	private final Map<String, Integer> rebalances = new HashMap<>();

	/**
	 * The generation of each group's last realignment, while that realignment may still
	 * be followed by one more within the interval.
	 */
	private final Map<String, Integer> followUps = new HashMap<>();

	AssignmentRealigner(Supplier<Map<String, Leadership>> leaderships, Settings settings, Clock clock) {
		this.leaderships = leaderships;
		this.settings = settings;
		this.clock = clock;
	}

	/**
	 * The topics of the groups these consumers lead, whose leaders the refresh must read.
	 * @param subjects the consumers of one cluster
	 * @return the topics
	 */
	Set<String> topics(Collection<Subject> subjects) {
		Set<String> topics = new TreeSet<>();
		led(subjects).forEach((led) -> led.leadership()
			.members()
			.forEach((member) -> topics.addAll(member.topics())));
		return topics;
	}

	/**
	 * Compare every group these consumers lead with what the current leaders allow, and
	 * rebalance the ones that stayed below for the grace period.
	 * @param subjects the application's consumers
	 * @param viewOf the cluster view of a consumer
	 * @return the group facts to show in the health of each leading consumer, by
	 * consumer name
	 */
	Map<String, Map<String, Object>> check(Collection<Subject> subjects, Function<Subject, ClusterView> viewOf) {
		Map<String, Map<String, Object>> details = new HashMap<>();
		Set<String> seen = new TreeSet<>();
		long now = this.clock.millis();
		for (Led led : led(subjects)) {
			Leadership leadership = led.leadership();
			List<Partition> partitions = partitions(leadership, viewOf.apply(led.subject()));
			if (partitions == null) {
				continue;
			}
			String group = leadership.groupId();
			seen.add(group);
			List<Member> members = leadership.members();
			Locality current = ZoneAwareAssignment.locality(leadership.assignment(), members, partitions);
			Locality allowed;
			try {
				allowed = allowed(leadership, partitions);
			}
			catch (IllegalStateException ex) {
				// the rule's budget: the group is too large to compare at every refresh
				continue;
			}
			details.put(led.subject().consumer().name(), facts(leadership, current, allowed));
			if (!below(current, allowed) || !this.settings.enabled()) {
				this.belowSince.remove(group);
				this.followUps.remove(group);
				continue;
			}
			long since = this.belowSince.computeIfAbsent(group, (key) -> now);
			Long last = this.lastRebalance.get(group);
			boolean withinInterval = last != null && now - last < this.settings.interval().toMillis();
			Integer realignedIn = this.followUps.get(group);
			boolean followUp = withinInterval && realignedIn != null && leadership.generation() > realignedIn;
			Duration wait = wait(leadership);
			if (now - since < wait.toMillis() || (withinInterval && !followUp)) {
				continue;
			}
			Runnable rebalance = Objects.requireNonNull(led.subject().consumer().rebalance());
			try {
				ZoneAwareAssignor.realignNext(leadership.clientId());
				rebalance.run();
			}
			catch (RuntimeException ex) {
				logger.warn("Could not rebalance consumer group '" + group + "' to realign its assignment: " + ex);
				continue;
			}
			this.lastRebalance.put(group, now);
			this.belowSince.remove(group);
			this.rebalances.merge(group, 1, Integer::sum);
			if (followUp) {
				this.followUps.remove(group);
			}
			else {
				this.followUps.put(group, leadership.generation());
			}
			logger.info("Rebalancing consumer group '" + group + "' (listener '" + led.subject().consumer().name()
					+ "'): " + current.leaderZone() + " of " + partitions.size()
					+ " partitions are read from a leader in their reader's zone, the current leaders allow "
					+ allowed.leaderZone() + " (for " + Duration.ofMillis(now - since).toSeconds() + "s"
					+ (followUp ? "; again: the last rebalance still assigned below them" : "")
					+ "); the next realignment of this group comes " + this.settings.interval() + " later at the earliest"
					+ (followUp ? "" : ", or once after " + wait.toSeconds() + "s if this one leaves it below"));
		}
		this.belowSince.keySet().retainAll(seen);
		return details;
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
	 * How long a group stays below before it is rebalanced: the grace, and at least as
	 * long as its leader's metadata may lag a move, or it would assign by the old leaders.
	 */
	private Duration wait(Leadership leadership) {
		return (leadership.metadataMaxAge().compareTo(this.settings.grace()) > 0) ? leadership.metadataMaxAge()
				: this.settings.grace();
	}

	private static Locality allowed(Leadership leadership, List<Partition> partitions) {
		return ZoneAwareAssignment.locality(ZoneAwareAssignment.assign(leadership.members(), partitions,
				leadership.balance(), leadership.assignment()), leadership.members(), partitions);
	}

	private static boolean below(Locality current, Locality allowed) {
		return current.leaderZone() < allowed.leaderZone()
				|| (current.leaderZone() == allowed.leaderZone() && current.zoneLocal() < allowed.zoneLocal());
	}

	private Map<String, Object> facts(Leadership leadership, Locality current, Locality allowed) {
		Map<String, Object> facts = new LinkedHashMap<>();
		facts.put("group", leadership.groupId());
		facts.put("generation", leadership.generation());
		Map<String, Integer> zones = new TreeMap<>();
		leadership.members().forEach((member) -> zones.merge(Objects.toString(member.zone(), "none"), 1, Integer::sum));
		facts.put("membersByZone", zones);
		facts.put("leaderZonePartitions", current.leaderZone());
		facts.put("leaderZonePartitionsAllowed", allowed.leaderZone());
		facts.put("realignments", rebalances(leadership.groupId()));
		if (leadership.fallback() != null) {
			facts.put("zoneAwareFallback", leadership.fallback());
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
	private List<Led> led(Collection<Subject> subjects) {
		List<Led> led = new ArrayList<>();
		Map<String, Leadership> leaderships = this.leaderships.get();
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

	}

	private record Led(Subject subject, Leadership leadership) {

	}

}
