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
package dev.followerfetch.assignment.kafka;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.kafka.StarterGroup.Claim;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignorTest;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Kafka's assignors' own documented objectives, checked on every rebalance a
 * {@link StarterGroup} led in one of Kafka's tests, against what Kafka's assignor does with
 * the same input: valid (each partition once, to a subscriber, never while another member
 * owns it), complete once the cooperative hand-over is over, balanced as the wrapped
 * assignor balances (range: within one per topic, co-partitioned topics together; the
 * others: every member as many partitions of each topic as Kafka's assignor gives it),
 * static members keeping their partitions when only member ids change, and at least as
 * local: partitions in their leader's zone, then with a replica in their reader's rack
 * (Kafka's rack-aware objective), compared in that order. Where Kafka's test asserts its
 * assignor's exact layout and the zone-aware assignor rightly places partitions by their
 * leaders' zones instead, these are what the test is held to ({@link KafkaSuite}).
 *
 * @author follower-fetch authors
 */
final class KafkaObjectives {

	private KafkaObjectives() {
	}

	/**
	 * Check every rebalance of a test.
	 * @param group the group that led them
	 * @return the leader-zone and rack-local counts, the zone-aware assignor's and Kafka's
	 * @throws AssertionError when an objective is missed
	 */
	static Totals verify(StarterGroup group) {
		long[] ours = new long[2];
		long[] kafkas = new long[2];
		List<Rebalance> led = group.led();
		for (int i = 0; i < led.size(); i++) {
			Rebalance rebalance = led.get(i);
			String where = "rebalance " + (i + 1) + " of " + led.size();
			valid(rebalance, !group.eager(), where);
			complete(rebalance, where);
			// Kafka's assignor on the input the zone-aware assignor gave the one it wraps
			Map<String, List<TopicPartition>> wrapped = kafka(group, rebalance, unwrapped(rebalance.sent()));
			boolean whole = count(rebalance.handed()) == count(wrapped);
			if (group.kafka() instanceof RangeAssignor) {
				balancedPerTopic(rebalance, where);
			}
			else {
				withinCounts(rebalance.handed(), wrapped, whole, where);
			}
			if (!whole) {
				continue;
			}
			long[] local = locality(rebalance, rebalance.handed());
			long[] theirLocal = locality(rebalance, wrapped);
			if (local[0] < theirLocal[0] || (local[0] == theirLocal[0] && local[1] < theirLocal[1])) {
				throw new AssertionError(where + ": (leader zone, rack) " + List.of(local[0], local[1])
						+ " below Kafka's " + List.of(theirLocal[0], theirLocal[1]) + ": " + rebalance.handed()
						+ " against " + wrapped);
			}
			ours[0] += local[0];
			ours[1] += local[1];
			kafkas[0] += theirLocal[0];
			kafkas[1] += theirLocal[1];
			for (int j = 0; j < i; j++) {
				staticMembersKeepTheirs(led.get(j), rebalance, where);
			}
		}
		return new Totals(led.size(), ours[0], ours[1], kafkas[0], kafkas[1]);
	}

	/**
	 * A new instance of Kafka's assignor, switched as the test switched the one it holds,
	 * on the given subscriptions.
	 */
	private static Map<String, List<TopicPartition>> kafka(StarterGroup group, Rebalance rebalance,
			Map<String, Subscription> subscriptions) {
		AbstractPartitionAssignor assignor = (AbstractPartitionAssignor) group.kafka();
		AbstractPartitionAssignorTest.preferRackAwareLogic(assignor, rebalance.rackAwareLogic());
		Map<String, List<TopicPartition>> assignment = new HashMap<>();
		assignor.assignPartitions(rebalance.partitionsPerTopic(), subscriptions)
			.forEach((memberId, partitions) -> assignment.put(memberId, new ArrayList<>(partitions)));
		return assignment;
	}

	/**
	 * The subscriptions as the zone-aware assignor hands them to the strategy it wraps,
	 * each with a buffer of its own, for Kafka's decoders read it to the end.
	 */
	static Map<String, Subscription> unwrapped(Map<String, Subscription> sent) {
		Map<String, Subscription> unwrapped = new HashMap<>();
		sent.forEach((memberId, subscription) -> {
			Subscription copy = new Subscription(subscription.topics(),
					ZoneAwareAssignor.wrappedUserData(subscription.userData()), subscription.ownedPartitions(),
					subscription.generationId().orElse(StarterGroup.DEFAULT_GENERATION), subscription.rackId());
			copy.setGroupInstanceId(subscription.groupInstanceId());
			unwrapped.put(memberId, copy);
		});
		return unwrapped;
	}

	private static int count(Map<String, List<TopicPartition>> assignment) {
		return assignment.values().stream().mapToInt(List::size).sum();
	}

	/**
	 * The balance of the wrapped sticky, cooperative-sticky or round-robin assignor: every
	 * member as many partitions of each topic as it gives, less those withheld until their
	 * owner revokes them.
	 */
	private static void withinCounts(Map<String, List<TopicPartition>> ours, Map<String, List<TopicPartition>> theirs,
			boolean whole, String where) {
		Map<String, Map<String, Integer>> ourCounts = counts(ours);
		Map<String, Map<String, Integer>> theirCounts = counts(theirs);
		ourCounts.forEach((memberId, topics) -> topics.forEach((topic, count) -> {
			int allowed = theirCounts.getOrDefault(memberId, Map.of()).getOrDefault(topic, 0);
			if (whole ? count != allowed : count > allowed) {
				throw new AssertionError(where + ": " + memberId + " has " + count + " partitions of " + topic
						+ ", the wrapped assignor gives it " + allowed + ": " + ourCounts + " against " + theirCounts);
			}
		}));
	}

	private static void valid(Rebalance rebalance, boolean cooperative, String where) {
		Map<TopicPartition, Set<String>> claimants = new HashMap<>();
		rebalance.claimed()
			.forEach((memberId, claim) -> claim.partitions()
				.forEach((tp) -> claimants.computeIfAbsent(tp, (key) -> new TreeSet<>()).add(memberId)));
		Map<TopicPartition, String> given = new HashMap<>();
		rebalance.handed().forEach((memberId, partitions) -> {
			Set<String> topics = Set.copyOf(rebalance.subscriptions().get(memberId).topics());
			partitions.forEach((tp) -> {
				String before = given.put(tp, memberId);
				if (before != null) {
					throw new AssertionError(where + ": " + tp + " given to " + before + " and " + memberId);
				}
				if (!topics.contains(tp.topic())) {
					throw new AssertionError(where + ": " + tp + " given to " + memberId + ", which does not subscribe");
				}
				Set<String> owners = claimants.getOrDefault(tp, Set.of());
				if (cooperative && !owners.isEmpty() && !owners.contains(memberId)) {
					throw new AssertionError(where + ": " + tp + " given to " + memberId + " while " + owners
							+ " still own it");
				}
			});
		});
	}

	private static void complete(Rebalance rebalance, String where) {
		Set<TopicPartition> expected = new TreeSet<>(
				Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
		Set<String> subscribed = new HashSet<>();
		rebalance.subscriptions().values().forEach((subscription) -> subscribed.addAll(subscription.topics()));
		rebalance.partitionsPerTopic().forEach((topic, infos) -> {
			if (subscribed.contains(topic)) {
				infos.forEach((info) -> expected.add(new TopicPartition(topic, info.partition())));
			}
		});
		List<TopicPartition> intended = new ArrayList<>();
		rebalance.intended().values().forEach(intended::addAll);
		if (intended.size() != expected.size() || !expected.containsAll(intended)) {
			throw new AssertionError(where + ": " + intended.size() + " partitions placed, expected each of "
					+ expected.size() + " once: " + rebalance.intended());
		}
	}

	/**
	 * Range's balance: within one per topic among its subscribers, and co-partitioning:
	 * topics with the same subscribers and partition count give partition {@code p} to
	 * one member.
	 */
	private static void balancedPerTopic(Rebalance rebalance, String where) {
		Map<String, Map<String, Integer>> counts = counts(rebalance.intended());
		Map<String, Set<String>> subscribers = new TreeMap<>();
		rebalance.subscriptions().forEach((memberId, subscription) -> subscription.topics()
			.forEach((topic) -> subscribers.computeIfAbsent(topic, (key) -> new TreeSet<>()).add(memberId)));
		subscribers.forEach((topic, readers) -> {
			List<Integer> loads = readers.stream()
				.map((reader) -> counts.getOrDefault(reader, Map.of()).getOrDefault(topic, 0))
				.toList();
			if (!loads.isEmpty() && loads.stream().mapToInt(Integer::intValue).max().orElse(0)
					- loads.stream().mapToInt(Integer::intValue).min().orElse(0) > 1) {
				throw new AssertionError(where + ": loads of " + topic + " over " + readers + " are " + loads);
			}
		});
		Map<TopicPartition, String> owner = new HashMap<>();
		rebalance.intended().forEach((memberId, partitions) -> partitions.forEach((tp) -> owner.put(tp, memberId)));
		subscribers.forEach((topic, readers) -> subscribers.forEach((other, otherReaders) -> {
			List<PartitionInfo> ofTopic = rebalance.partitionsPerTopic().get(topic);
			List<PartitionInfo> ofOther = rebalance.partitionsPerTopic().get(other);
			int size = (ofTopic != null) ? ofTopic.size() : 0;
			if (topic.compareTo(other) < 0 && readers.equals(otherReaders) && ofOther != null
					&& size == ofOther.size()) {
				for (int p = 0; p < size; p++) {
					if (!Objects.equals(owner.get(new TopicPartition(topic, p)), owner.get(new TopicPartition(other, p)))) {
						throw new AssertionError(where + ": " + topic + " and " + other + " are co-partitioned, but "
								+ "partition " + p + " goes to " + owner.get(new TopicPartition(topic, p)) + " and "
								+ owner.get(new TopicPartition(other, p)));
					}
				}
			}
		}));
	}

	private static Map<String, Map<String, Integer>> counts(Map<String, List<TopicPartition>> assignment) {
		Map<String, Map<String, Integer>> counts = new TreeMap<>();
		assignment.forEach((memberId, partitions) -> {
			Map<String, Integer> of = counts.computeIfAbsent(memberId, (key) -> new TreeMap<>());
			partitions.forEach((tp) -> of.merge(tp.topic(), 1, Integer::sum));
		});
		return counts;
	}

	/**
	 * (partitions whose reader's rack is their leader's, partitions with a replica in
	 * their reader's rack).
	 */
	private static long[] locality(Rebalance rebalance, Map<String, List<TopicPartition>> assignment) {
		Map<TopicPartition, PartitionInfo> infos = new HashMap<>();
		rebalance.partitionsPerTopic()
			.forEach((topic, ofTopic) -> ofTopic.forEach((info) -> infos.put(new TopicPartition(topic, info.partition()),
					info)));
		long[] locality = new long[2];
		assignment.forEach((memberId, partitions) -> {
			Subscription subscription = rebalance.subscriptions().get(memberId);
			Optional<String> rack = (subscription != null) ? subscription.rackId() : Optional.empty();
			if (rack.isEmpty()) {
				return;
			}
			for (TopicPartition tp : partitions) {
				PartitionInfo info = infos.get(tp);
				if (info == null) {
					continue;
				}
				Node leader = info.leader();
				if (leader != null && rack.get().equals(leader.rack())) {
					locality[0]++;
				}
				if (info.replicas() != null && Arrays.stream(info.replicas())
					.anyMatch((replica) -> replica != null && rack.get().equals(replica.rack()))) {
					locality[1]++;
				}
			}
		});
		return locality;
	}

	/**
	 * Range's and round-robin's promise to static members: with the same instances (same
	 * topics, same racks) and the same partitions, an instance keeps its partitions
	 * whatever its member id.
	 */
	private static void staticMembersKeepTheirs(Rebalance earlier, Rebalance later, String where) {
		Map<String, String> earlierKeys = instances(earlier);
		Map<String, String> laterKeys = instances(later);
		if (earlierKeys == null || laterKeys == null || !earlierKeys.equals(laterKeys)
				|| !earlier.partitionsPerTopic().equals(later.partitionsPerTopic())) {
			return;
		}
		Map<String, Set<TopicPartition>> before = byInstance(earlier);
		Map<String, Set<TopicPartition>> after = byInstance(later);
		if (!before.equals(after)) {
			throw new AssertionError(where + ": static members lost their partitions when only member ids changed: "
					+ before + " then " + after);
		}
	}

	/**
	 * Each instance's topics and rack, or {@code null} when a member is not static or
	 * owns partitions (a sticky assignor may rightly keep those).
	 */
	private static @Nullable Map<String, String> instances(Rebalance rebalance) {
		Map<String, String> instances = new TreeMap<>();
		for (Map.Entry<String, Subscription> member : rebalance.subscriptions().entrySet()) {
			Subscription subscription = member.getValue();
			Claim claim = rebalance.claimed().get(member.getKey());
			if (subscription.groupInstanceId().isEmpty() || (claim != null && !claim.partitions().isEmpty())) {
				return null;
			}
			instances.put(subscription.groupInstanceId().get(),
					new TreeSet<>(subscription.topics()) + "@" + subscription.rackId().orElse(""));
		}
		return instances;
	}

	private static Map<String, Set<TopicPartition>> byInstance(Rebalance rebalance) {
		Map<String, Set<TopicPartition>> byInstance = new TreeMap<>();
		rebalance.intended()
			.forEach((memberId, partitions) -> byInstance.put(
					rebalance.subscriptions().get(memberId).groupInstanceId().orElse(memberId),
					new HashSet<>(partitions)));
		return byInstance;
	}

	/**
	 * One rebalance a group led.
	 *
	 * @param partitionsPerTopic the partitions as the test described them
	 * @param subscriptions the subscriptions as Kafka's assignor would get them
	 * @param sent the subscriptions as the members sent them to the zone-aware leader
	 * @param claimed what each member claimed to own, read as Kafka's assignor reads it
	 * @param handed what the zone-aware assignor handed out
	 * @param intended where every partition ends once the cooperative hand-over is over
	 * @param rackAwareLogic whether the test switched Kafka's rack-aware logic on
	 */
	record Rebalance(Map<String, List<PartitionInfo>> partitionsPerTopic, Map<String, Subscription> subscriptions,
			Map<String, Subscription> sent, Map<String, Claim> claimed, Map<String, List<TopicPartition>> handed,
			Map<String, List<TopicPartition>> intended, boolean rackAwareLogic) {

		Rebalance {
			partitionsPerTopic = Map.copyOf(partitionsPerTopic);
			subscriptions = copyOf(subscriptions);
			sent = copyOf(sent);
			claimed = Map.copyOf(claimed);
			// copies: Kafka's tests add to the lists they are given
			handed = copy(handed);
			intended = copy(intended);
		}

		/**
		 * Copies down to the topic lists: Kafka's tests change those between rebalances.
		 */
		private static Map<String, Subscription> copyOf(Map<String, Subscription> subscriptions) {
			Map<String, Subscription> copy = new HashMap<>();
			subscriptions.forEach((memberId, subscription) -> {
				Subscription same = new Subscription(new ArrayList<>(subscription.topics()), subscription.userData(),
						new ArrayList<>(subscription.ownedPartitions()),
						subscription.generationId().orElse(StarterGroup.DEFAULT_GENERATION), subscription.rackId());
				same.setGroupInstanceId(subscription.groupInstanceId());
				copy.put(memberId, same);
			});
			return copy;
		}

		private static Map<String, List<TopicPartition>> copy(Map<String, List<TopicPartition>> assignment) {
			Map<String, List<TopicPartition>> copy = new HashMap<>();
			assignment.forEach((memberId, partitions) -> copy.put(memberId, List.copyOf(partitions)));
			return copy;
		}

	}

	/**
	 * What a test's rebalances achieved, and what Kafka's assignor achieved with the same
	 * input.
	 *
	 * @param rebalances the rebalances checked
	 * @param leaderZone partitions in their leader's zone
	 * @param rack partitions with a replica in their reader's rack
	 * @param kafkaLeaderZone the same for Kafka's assignor
	 * @param kafkaRack the same for Kafka's assignor
	 */
	record Totals(int rebalances, long leaderZone, long rack, long kafkaLeaderZone, long kafkaRack) {

	}

}
