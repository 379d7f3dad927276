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

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Judges read locality from facts alone, without Kafka: where one consumer reads each of
 * its partitions from, given what its clients report and the cluster's placement, and
 * which state the whole application is in.
 *
 * @author follower-fetch authors
 */
final class ReadLocalityJudge {

	static final String CLIENT_RACK = "clientRack";

	static final String ORIGIN = "origin";

	static final String ZONE_AWARE_ASSIGNMENT = "zone-aware";

	static final String BROKER_ASSIGNMENT = "broker";

	private final int maxListedPartitions;

	ReadLocalityJudge(int maxListedPartitions) {
		this.maxListedPartitions = maxListedPartitions;
	}

	/**
	 * Where one consumer reads from.
	 * @param subject the consumer and what its clients report
	 * @param view the cluster's racks and placement
	 * @param rack this application's rack, or {@code null}
	 * @param grace whether a partition has been in a condition for longer than the grace
	 * period
	 * @param bytes the consumer's byte totals
	 * @return the judgement
	 */
	Judged judge(Subject subject, ClusterView view, @Nullable String rack, Grace grace, ZoneBytes.Totals bytes) {
		ObservedConsumer consumer = subject.consumer();
		Policy policy = consumer.policy();
		Map<TopicPartition, Integer> readReplicas = new HashMap<>();
		Set<TopicPartition> answered = new HashSet<>();
		subject.clients().forEach((client) -> {
			readReplicas.putAll(client.readReplicas());
			answered.addAll(client.answered());
		});
		int local = 0;
		int localLeader = 0;
		int cross = 0;
		boolean fetched = false;
		List<String> gaps = new ArrayList<>();
		List<String> fallback = new ArrayList<>();
		List<String> lagging = new ArrayList<>();
		List<String> uncovered = new ArrayList<>();
		List<String> unreachable = new ArrayList<>();
		for (TopicPartition tp : subject.assigned()) {
			ClusterView.Placement placement = view.partitions().get(tp);
			Integer replica = readReplicas.get(tp);
			List<Integer> inZoneIsr = (placement != null && rack != null) ? placement.isr()
				.stream()
				.filter((broker) -> rack.equals(view.rackOf(broker)))
				.toList() : List.of();
			if (policy == Policy.LOCALITY && placement != null && inZoneIsr.isEmpty()) {
				gaps.add(tp.toString());
			}
			if (policy == Policy.LOCALITY && subject.declared()
					&& sentToUnreachable(placement, inZoneIsr, replica, view)
					&& grace.exceeded(Condition.UNREACHABLE, tp)) {
				unreachable.add(tp.toString());
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
				if (replica < 0) {
					localLeader++;
				}
			}
			else {
				cross++;
			}
			if (policy == Policy.LOCALITY && !inZoneIsr.isEmpty() && !inZone
					&& grace.exceeded(Condition.CROSS_ZONE, tp)) {
				(subject.declared() ? fallback : uncovered).add(tp.toString());
			}
		}
		Map<String, Object> details = new LinkedHashMap<>(consumer.details());
		if (!subject.declared() && !details.containsKey(CLIENT_RACK)) {
			details.put(CLIENT_RACK, inferClientRack(readReplicas, answered, view));
		}
		ConsumerReads summary = new ConsumerReads(consumer.kind(), consumer.name(), policy,
				subject.assigned().size(), local, cross, localLeader, listed(gaps), gaps.size(), listed(fallback),
				listed(lagging), listed(uncovered), listed(unreachable), bytes.local(), bytes.remote(),
				assignment(consumer, view), details);
		return new Judged(summary, fetched);
	}

	/**
	 * Which assignment is in effect for a consumer's group: the brokers' description of
	 * the group, else what its configuration says of the group protocol.
	 */
	static @Nullable String assignment(ObservedConsumer consumer, ClusterView view) {
		String group = consumer.group();
		ClusterView.GroupAssignor described = (group != null) ? view.groups().get(group) : null;
		if ((described != null && described.consumerProtocol())
				|| AssignmentStrategy.usesConsumerProtocol(consumer.config())) {
			return BROKER_ASSIGNMENT;
		}
		if (described == null || described.assignor().isEmpty()) {
			return null;
		}
		return ZoneAwareAssignor.NAME.equals(described.assignor()) ? ZONE_AWARE_ASSIGNMENT : described.assignor();
	}

	/**
	 * Whether a consumer with this zone's rack is sent to a broker this application
	 * cannot reach: the leader when it is in this zone, else the in-zone in-sync replica
	 * the leader's rack-aware selector names (the most caught-up one, so any of them: all
	 * unreachable, or the one the consumer was last sent to).
	 */
	private static boolean sentToUnreachable(ClusterView.@Nullable Placement placement, List<Integer> inZoneIsr,
			@Nullable Integer replica, ClusterView view) {
		Set<Integer> unreachable = view.unreachable().keySet();
		if (placement == null || inZoneIsr.isEmpty() || unreachable.isEmpty()) {
			return false;
		}
		if (inZoneIsr.contains(placement.leader())) {
			return unreachable.contains(placement.leader());
		}
		return unreachable.containsAll(inZoneIsr)
				|| (replica != null && inZoneIsr.contains(replica) && unreachable.contains(replica));
	}

	private List<String> listed(List<String> partitions) {
		return partitions.stream().sorted().limit(this.maxListedPartitions).toList();
	}

	/**
	 * What can be known of a client's {@code client.rack} from where it reads, with
	 * rack-aware selectors on every broker: a follower it reads from has exactly its rack;
	 * leaders it reads from although a replica in the rack was in sync rule that rack
	 * out, and when no broker rack is left it has none (empty, or a rack no broker has).
	 */
	static String inferClientRack(Map<TopicPartition, Integer> readReplicas, Set<TopicPartition> answered,
			ClusterView view) {
		if (view.selectors().isEmpty() || view.selectorProblem() != null || !view.unreachable().isEmpty()
				|| view.selectors().values().stream().anyMatch((selector) -> !selector.rackAware())) {
			return "unknown";
		}
		Set<String> followerRacks = new HashSet<>();
		List<ClusterView.Placement> leaderReads = new ArrayList<>();
		readReplicas.forEach((tp, replica) -> {
			ClusterView.Placement placement = view.partitions().get(tp);
			if (placement == null || !answered.contains(tp)) {
				return;
			}
			if (replica >= 0) {
				followerRacks.add(String.valueOf(view.rackOf(replica)));
			}
			else if (placement.leader() >= 0) {
				leaderReads.add(placement);
			}
		});
		if (followerRacks.size() == 1) {
			return followerRacks.iterator().next();
		}
		if (!followerRacks.isEmpty() || leaderReads.isEmpty()) {
			return "unknown";
		}
		boolean someRackFits = view.racks()
			.stream()
			.anyMatch((rack) -> leaderReads.stream()
				.allMatch((placement) -> rack.equals(view.rackOf(placement.leader()))
						|| placement.isr().stream().noneMatch((broker) -> rack.equals(view.rackOf(broker)))));
		return someRackFits ? "unknown" : "none";
	}

	/**
	 * The application's state: the worst, in the order {@link FollowerFetchState}
	 * declares them, of the states that hold. No rack, a broker without a rack-aware
	 * selector and a rack no broker has concern only the clusters that LOCALITY consumers
	 * read (all of them while there is no consumer and the default policy is LOCALITY):
	 * FRESHNESS consumers read from the leaders whatever the rack and the selectors. The
	 * rack is a mismatch when none of those clusters has it; one that lacks it while
	 * another has it gives placement gaps instead. {@code STARTING} holds while LOCALITY
	 * consumers have partitions and nothing has been fetched yet.
	 * @param rack this application's rack, or {@code null}
	 * @param clusters what each cluster said, with the judgements of its consumers
	 * @param defaultPolicy the policy of consumers that say nothing
	 * @return the state
	 */
	static FollowerFetchState state(@Nullable String rack, Collection<Cluster> clusters, Policy defaultPolicy) {
		Set<FollowerFetchState> holding = EnumSet.of(FollowerFetchState.ACTIVE);
		List<ClusterView> locality = clusters.stream()
			.filter((cluster) -> readsWithLocality(
					cluster.reads().stream().map((judged) -> judged.summary().policy()).toList(), defaultPolicy))
			.map(Cluster::view)
			.toList();
		if (!locality.isEmpty()) {
			addIf(holding, rack == null, FollowerFetchState.NO_RACK);
			addIf(holding, locality.stream()
				.flatMap((view) -> view.selectors().values().stream())
				.anyMatch((selector) -> !selector.rackAware()), FollowerFetchState.SELECTOR_DISABLED);
			List<ClusterView> known = locality.stream().filter((view) -> !view.brokerRacks().isEmpty()).toList();
			addIf(holding, rack != null && !known.isEmpty() && known.stream().noneMatch((view) -> view.racks().contains(rack)),
					FollowerFetchState.RACK_MISMATCH);
		}
		List<Judged> reads = clusters.stream().flatMap((cluster) -> cluster.reads().stream()).toList();
		// a share consumer is judged from its group's assignment, not from fetch answers
		addIf(holding, reads.stream()
			.filter((judged) -> judged.summary().kind() != ConsumerKind.SHARE)
			.noneMatch(Judged::fetched) && reads.stream()
			.map(Judged::summary)
			.anyMatch((summary) -> summary.policy() == Policy.LOCALITY && summary.partitions() > 0),
				FollowerFetchState.STARTING);
		for (Judged judged : reads) {
			ConsumerReads summary = judged.summary();
			addIf(holding, !summary.unreachablePartitions().isEmpty(), FollowerFetchState.UNREACHABLE);
			addIf(holding, !summary.laggingPartitions().isEmpty(), FollowerFetchState.LAGGING);
			addIf(holding, !summary.fallbackPartitions().isEmpty(), FollowerFetchState.FALLBACK);
			addIf(holding, !summary.uncoveredPartitions().isEmpty(), FollowerFetchState.UNCOVERED);
			addIf(holding, summary.placementGapCount() > 0, FollowerFetchState.PARTIAL);
		}
		return holding.iterator().next();
	}

	private static void addIf(Set<FollowerFetchState> holding, boolean holds, FollowerFetchState state) {
		if (holds) {
			holding.add(state);
		}
	}

	/**
	 * Whether consumers with these policies need a rack, rack-aware selectors and a
	 * matching broker rack: when one of them reads with LOCALITY, or when there is none
	 * yet and the default policy is LOCALITY.
	 * @param policies the consumers' policies
	 * @param defaultPolicy the policy of consumers that say nothing
	 * @return whether the rack matters
	 */
	static boolean readsWithLocality(Collection<Policy> policies, Policy defaultPolicy) {
		return policies.isEmpty() ? defaultPolicy == Policy.LOCALITY : policies.contains(Policy.LOCALITY);
	}

	/**
	 * What a partition can be in for a while before it counts.
	 */
	enum Condition {

		/**
		 * Read across zones although it has an in-zone in-sync replica.
		 */
		CROSS_ZONE,

		/**
		 * The in-zone replica a consumer is sent to unreachable from this application.
		 */
		UNREACHABLE

	}

	/**
	 * Tells whether a partition has been in a condition for longer than the grace period.
	 */
	@FunctionalInterface
	interface Grace {

		/**
		 * Whether a partition has been in the given condition, at every refresh, for
		 * longer than the grace period. Asked at each refresh for every partition in it.
		 * @param condition the condition
		 * @param tp the partition
		 * @return whether the grace period is over
		 */
		boolean exceeded(Condition condition, TopicPartition tp);

	}

	/**
	 * What one cluster said, and the judgements of the consumers that read it.
	 *
	 * @param view the cluster's racks, selectors and placement
	 * @param reads the judgements of the consumers that read it
	 */
	record Cluster(ClusterView view, List<Judged> reads) {

	}

	/**
	 * One consumer to judge.
	 *
	 * @param consumer the consumer, with its policy and details
	 * @param declared whether its policy was declared to the starter (a listener, a
	 * Streams application, a binding, a consumer configured through the
	 * {@code ClientRackDecider}), rather than guessed for a consumer found in JMX only
	 * @param assigned its partitions
	 * @param clients what each of its clients reports
	 */
	record Subject(ObservedConsumer consumer, boolean declared, Collection<TopicPartition> assigned,
			Collection<ClientMetrics> clients) {

		/**
		 * This consumer with one more fact for its health details.
		 * @param key the detail's name
		 * @param value its value
		 * @return the consumer with the detail
		 */
		Subject withDetail(String key, Object value) {
			Map<String, Object> details = new LinkedHashMap<>(this.consumer.details());
			details.put(key, value);
			ObservedConsumer observed = new ObservedConsumer(this.consumer.kind(), this.consumer.name(),
					this.consumer.policy(), this.consumer.config(), this.consumer.assigned(), this.consumer.metrics(),
					details, this.consumer.rebalance());
			return new Subject(observed, this.declared, this.assigned, this.clients);
		}

	}

	/**
	 * One consumer's judgement.
	 *
	 * @param summary where it reads
	 * @param fetched whether it has processed a fetch answer for any of its partitions
	 */
	record Judged(ConsumerReads summary, boolean fetched) {

	}

}
