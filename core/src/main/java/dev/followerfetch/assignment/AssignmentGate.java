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
package dev.followerfetch.assignment;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * What the zone-aware assignor must hand out, checked before it does, in time linear in
 * the partitions and the subscriptions: every partition the wrapped strategy placed
 * exactly once, and only to a member subscribed to its topic; that strategy's balance
 * ({@link Balance#TOTAL}: each member's count of each topic; {@link Balance#PER_TOPIC}: each
 * topic within one among its subscribers, or no less even than the strategy had it, and
 * the topics it co-partitioned still co-partitioned); and, for the cooperative protocol,
 * no partition handed to a member while another still owns it, none withheld that no
 * other member owns.
 *
 * @author follower-fetch authors
 */
final class AssignmentGate {

	private static final int NAMED = 5;

	private AssignmentGate() {
	}

	/**
	 * Check an assignment before it is handed out.
	 * @param members the group's members
	 * @param partitions the partitions of the subscribed topics, as the metadata has them
	 * @param balance how the wrapped strategy keeps partitions per member even
	 * @param reference what the wrapped strategy assigned, made one every member can take
	 * @param target what the rule assigned
	 * @param handed what is handed out now: the target without the partitions another
	 * member still owns
	 * @return the first rule the assignment breaks, or {@code null} when it keeps them all
	 */
	static @Nullable Violation check(Collection<Member> members, Collection<Partition> partitions, Balance balance,
			Map<String, ? extends Collection<TopicPartition>> reference,
			Map<String, ? extends Collection<TopicPartition>> target,
			Map<String, ? extends Collection<TopicPartition>> handed) {
		Map<String, Member> byId = new HashMap<>();
		members.forEach((member) -> byId.put(member.id(), member));
		PartitionTable<Boolean> exists = new PartitionTable<>();
		partitions.forEach((partition) -> exists.put(partition.partition(), Boolean.TRUE));
		PartitionTable<String> assigned = new PartitionTable<>();
		for (Map.Entry<String, ? extends Collection<TopicPartition>> entry : target.entrySet()) {
			Member member = byId.get(entry.getKey());
			for (TopicPartition tp : entry.getValue()) {
				if (exists.get(tp) == null) {
					return new Violation("unknown-partition", tp + " is not in the metadata");
				}
				if (member == null) {
					return new Violation("unknown-member", tp + " is given to " + entry.getKey() + ", not a member");
				}
				if (!member.topics().contains(tp.topic())) {
					return new Violation("unsubscribed", tp + " is given to " + member.id()
							+ ", which does not subscribe to " + tp.topic());
				}
				String first = assigned.put(tp, member.id());
				if (first != null) {
					return new Violation("duplicate", tp + " is given to both " + first + " and " + member.id());
				}
			}
		}
		Violation coverage = coverage(reference, assigned, target);
		if (coverage != null) {
			return coverage;
		}
		Violation balanced = (balance == Balance.TOTAL) ? countsPerMember(reference, target)
				: perTopic(members, partitions, reference, target, assigned);
		return (balanced != null) ? balanced : handOver(members, target, handed);
	}

	/**
	 * The target places exactly the partitions of the reference.
	 */
	private static @Nullable Violation coverage(Map<String, ? extends Collection<TopicPartition>> reference,
			PartitionTable<String> assigned, Map<String, ? extends Collection<TopicPartition>> target) {
		List<TopicPartition> dropped = new ArrayList<>();
		int placed = 0;
		for (Collection<TopicPartition> theirs : reference.values()) {
			for (TopicPartition tp : theirs) {
				placed++;
				if (assigned.get(tp) == null && dropped.size() < NAMED) {
					dropped.add(tp);
				}
			}
		}
		if (!dropped.isEmpty()) {
			return new Violation("unassigned", "the wrapped strategy places " + dropped + " but the rule does not");
		}
		int given = target.values().stream().mapToInt(Collection::size).sum();
		return (given != placed) ? new Violation("unassigned",
				"the rule places " + given + " partitions, the wrapped strategy " + placed) : null;
	}

	/**
	 * {@link Balance#TOTAL}: every member has as many partitions of each topic as the
	 * wrapped strategy gave it.
	 */
	private static @Nullable Violation countsPerMember(Map<String, ? extends Collection<TopicPartition>> reference,
			Map<String, ? extends Collection<TopicPartition>> target) {
		Map<String, Map<String, Integer>> expected = counts(reference);
		Map<String, Map<String, Integer>> actual = counts(target);
		for (Map.Entry<String, Map<String, Integer>> entry : actual.entrySet()) {
			if (!entry.getValue().equals(expected.getOrDefault(entry.getKey(), Map.of()))) {
				return new Violation("balance", entry.getKey() + " has " + entry.getValue()
						+ " partitions by topic where the wrapped strategy gave it "
						+ expected.getOrDefault(entry.getKey(), Map.of()));
			}
		}
		for (Map.Entry<String, Map<String, Integer>> entry : expected.entrySet()) {
			if (!actual.containsKey(entry.getKey())) {
				return new Violation("balance", entry.getKey() + " has no partitions where the wrapped strategy gave it "
						+ entry.getValue());
			}
		}
		return null;
	}

	private static Map<String, Map<String, Integer>> counts(Map<String, ? extends Collection<TopicPartition>> assignment) {
		Map<String, Map<String, Integer>> counts = new HashMap<>();
		assignment.forEach((member, partitions) -> {
			if (!partitions.isEmpty()) {
				Map<String, Integer> ofMember = counts.computeIfAbsent(member, (key) -> new HashMap<>());
				partitions.forEach((tp) -> ofMember.merge(tp.topic(), 1, Integer::sum));
			}
		});
		return counts;
	}

	/**
	 * {@link Balance#PER_TOPIC}: each topic's partitions within one among its subscribers
	 * (or no less even than the reference), and every set of topics the reference
	 * co-partitioned (the same subscribers and partition count, partition {@code p} of each
	 * to one member) still co-partitioned.
	 */
	private static @Nullable Violation perTopic(Collection<Member> members, Collection<Partition> partitions,
			Map<String, ? extends Collection<TopicPartition>> reference,
			Map<String, ? extends Collection<TopicPartition>> target, PartitionTable<String> assigned) {
		Map<String, List<String>> subscribers = new TreeMap<>();
		members.stream()
			.sorted((a, b) -> a.id().compareTo(b.id()))
			.forEach((member) -> member.topics()
				.forEach((topic) -> subscribers.computeIfAbsent(topic, (key) -> new ArrayList<>()).add(member.id())));
		Map<String, Map<String, Integer>> expected = counts(reference);
		Map<String, Map<String, Integer>> actual = counts(target);
		Map<String, Integer> partitionCounts = new HashMap<>();
		partitions.forEach((partition) -> partitionCounts.merge(partition.partition().topic(), 1, Integer::sum));
		for (Map.Entry<String, List<String>> entry : subscribers.entrySet()) {
			if (!partitionCounts.containsKey(entry.getKey())) {
				continue;
			}
			int spread = spread(entry.getKey(), entry.getValue(), actual);
			int allowed = Math.max(1, spread(entry.getKey(), entry.getValue(), expected));
			if (spread > allowed) {
				return new Violation("balance", entry.getKey() + "'s partitions differ by " + spread
						+ " between its subscribers, more than " + allowed);
			}
		}
		PartitionTable<String> theirs = new PartitionTable<>();
		reference.forEach((member, given) -> given.forEach((tp) -> theirs.put(tp, member)));
		Map<String, List<String>> sets = new HashMap<>();
		subscribers.forEach((topic, readers) -> {
			Integer count = partitionCounts.get(topic);
			if (count != null) {
				sets.computeIfAbsent(count + ":" + String.join(",", readers), (key) -> new ArrayList<>()).add(topic);
			}
		});
		for (List<String> set : sets.values()) {
			if (set.size() < 2) {
				continue;
			}
			int count = Objects.requireNonNull(partitionCounts.get(set.get(0)));
			if (together(set, count, theirs) && !together(set, count, assigned)) {
				return new Violation("co-partitioning", "the wrapped strategy gives partition p of each of " + set
						+ " to one member, the rule does not");
			}
		}
		return null;
	}

	private static int spread(String topic, List<String> subscribers, Map<String, Map<String, Integer>> counts) {
		int least = Integer.MAX_VALUE;
		int most = 0;
		for (String member : subscribers) {
			int count = counts.getOrDefault(member, Map.of()).getOrDefault(topic, 0);
			least = Math.min(least, count);
			most = Math.max(most, count);
		}
		return most - least;
	}

	private static boolean together(List<String> topics, int count, PartitionTable<String> owners) {
		for (int p = 0; p < count; p++) {
			String first = owners.get(new TopicPartition(topics.get(0), p));
			for (int t = 1; t < topics.size(); t++) {
				if (!Objects.equals(first, owners.get(new TopicPartition(topics.get(t), p)))) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * The cooperative protocol's rule: a partition goes to a new owner only once no other
	 * member owns it, and only such a partition is withheld.
	 */
	private static @Nullable Violation handOver(Collection<Member> members,
			Map<String, ? extends Collection<TopicPartition>> target,
			Map<String, ? extends Collection<TopicPartition>> handed) {
		PartitionTable<String> to = new PartitionTable<>();
		target.forEach((member, partitions) -> partitions.forEach((tp) -> to.put(tp, member)));
		PartitionTable<Boolean> ownedByAnother = new PartitionTable<>();
		PartitionTable<Boolean> ownedByAssignee = new PartitionTable<>();
		for (Member member : members) {
			for (TopicPartition tp : member.owned()) {
				String assignee = to.get(tp);
				if (assignee != null) {
					(assignee.equals(member.id()) ? ownedByAssignee : ownedByAnother).put(tp, Boolean.TRUE);
				}
			}
		}
		PartitionTable<String> out = new PartitionTable<>();
		for (Map.Entry<String, ? extends Collection<TopicPartition>> entry : handed.entrySet()) {
			for (TopicPartition tp : entry.getValue()) {
				if (!entry.getKey().equals(to.get(tp))) {
					return new Violation("hand-over", tp + " is handed to " + entry.getKey() + ", not its assignee");
				}
				if (ownedByAnother.get(tp) != null && ownedByAssignee.get(tp) == null) {
					return new Violation("hand-over", tp + " is handed to " + entry.getKey()
							+ " while another member still owns it");
				}
				out.put(tp, entry.getKey());
			}
		}
		for (Map.Entry<String, ? extends Collection<TopicPartition>> entry : target.entrySet()) {
			for (TopicPartition tp : entry.getValue()) {
				if (out.get(tp) == null && (ownedByAnother.get(tp) == null || ownedByAssignee.get(tp) != null)) {
					return new Violation("hand-over", tp + " is withheld from " + entry.getKey()
							+ " though no other member owns it");
				}
			}
		}
		return null;
	}

	/**
	 * A rule the assignment breaks.
	 *
	 * @param kind a short name of the rule, for logging once per group and kind
	 * @param detail what breaks it
	 */
	record Violation(String kind, String detail) {

		@Override
		public String toString() {
			return this.kind + ": " + this.detail;
		}

	}

}
