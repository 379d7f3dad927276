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
import java.util.Arrays;
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
		Topics topics = new Topics(partitions);
		Violation balanced = (balance == Balance.TOTAL) ? countsPerMember(members, topics, reference, target)
				: perTopic(members, topics, reference, target, assigned);
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
	 * wrapped strategy gave it (compared as each member's sorted topic indexes, a few
	 * bytes a partition).
	 */
	private static @Nullable Violation countsPerMember(Collection<Member> members, Topics topics,
			Map<String, ? extends Collection<TopicPartition>> reference,
			Map<String, ? extends Collection<TopicPartition>> target) {
		for (Member member : members) {
			Collection<TopicPartition> theirs = reference.get(member.id());
			Collection<TopicPartition> ours = target.get(member.id());
			if (theirs != null && theirs.equals(ours)) {
				// the same list: most members keep theirs, and comparing is cheaper than sorting
				continue;
			}
			int[] expected = topics.sortedIndexes(theirs);
			int[] actual = topics.sortedIndexes(ours);
			if (!Arrays.equals(expected, actual)) {
				return new Violation("balance", member.id() + " has " + actual.length + " partitions ("
						+ topics.counts(actual) + " by topic) where the wrapped strategy gave it " + expected.length
						+ " (" + topics.counts(expected) + ")");
			}
		}
		return null;
	}

	/**
	 * {@link Balance#PER_TOPIC}: each topic's partitions within one among its subscribers
	 * (or no less even than the reference), and every set of topics the reference
	 * co-partitioned (the same subscribers and partition count, partition {@code p} of each
	 * to one member) still co-partitioned.
	 */
	private static @Nullable Violation perTopic(Collection<Member> members, Topics topics,
			Map<String, ? extends Collection<TopicPartition>> reference,
			Map<String, ? extends Collection<TopicPartition>> target, PartitionTable<String> assigned) {
		int[] spreadOfReference = topics.spreads(members, reference);
		int[] spread = topics.spreads(members, target);
		for (int t = 0; t < spread.length; t++) {
			int allowed = Math.max(1, spreadOfReference[t]);
			if (spread[t] > allowed) {
				return new Violation("balance", topics.name(t) + "'s partitions differ by " + spread[t]
						+ " between its subscribers, more than " + allowed);
			}
		}
		PartitionTable<String> theirs = new PartitionTable<>();
		reference.forEach((member, given) -> given.forEach((tp) -> theirs.put(tp, member)));
		for (List<String> set : topics.alike(members)) {
			int count = topics.partitions(set.get(0));
			if (together(set, count, theirs) && !together(set, count, assigned)) {
				return new Violation("co-partitioning", "the wrapped strategy gives partition p of each of " + set
						+ " to one member, the rule does not");
			}
		}
		return null;
	}

	private static boolean together(List<String> topics, int count, PartitionTable<String> owners) {
		for (int p = 0; p < count; p++) {
			String first = owners.get(topics.get(0), p);
			for (int t = 1; t < topics.size(); t++) {
				if (!Objects.equals(first, owners.get(topics.get(t), p))) {
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
		if (members.stream().allMatch((member) -> member.owned().isEmpty()) && target.equals(handed)) {
			// nothing owned: the rule holds when exactly the target is handed out (no partition twice, checked before)
			return null;
		}
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
	 * The subscribed topics by index, with their partition counts.
	 */
	private static final class Topics {

		private final Map<String, Integer> index = new HashMap<>();

		private final List<String> names = new ArrayList<>();

		private final List<Integer> partitionCounts = new ArrayList<>();

		Topics(Collection<Partition> partitions) {
			String last = null;
			int t = -1;
			for (Partition partition : partitions) {
				String topic = partition.partition().topic();
				if (!topic.equals(last)) {
					// the metadata lists a topic's partitions together: one look-up per topic
					t = this.index.computeIfAbsent(topic, (name) -> {
						this.names.add(name);
						this.partitionCounts.add(0);
						return this.names.size() - 1;
					});
					last = topic;
				}
				this.partitionCounts.set(t, this.partitionCounts.get(t) + 1);
			}
		}

		String name(int topic) {
			return this.names.get(topic);
		}

		int partitions(String topic) {
			return this.partitionCounts.get(Objects.requireNonNull(this.index.get(topic)));
		}

		/**
		 * The topic of each partition, as indexes, sorted; -1 for a topic not subscribed.
		 */
		int[] sortedIndexes(@Nullable Collection<TopicPartition> partitions) {
			if (partitions == null || partitions.isEmpty()) {
				return new int[0];
			}
			int[] indexes = new int[partitions.size()];
			int i = 0;
			for (TopicPartition tp : partitions) {
				indexes[i++] = this.index.getOrDefault(tp.topic(), -1);
			}
			Arrays.sort(indexes);
			return indexes;
		}

		String counts(int[] sortedIndexes) {
			Map<String, Integer> counts = new TreeMap<>();
			for (int t : sortedIndexes) {
				counts.merge((t >= 0) ? this.names.get(t) : "?", 1, Integer::sum);
			}
			return counts.toString();
		}

		/**
		 * Per topic, how far apart its subscribers' counts of it are.
		 */
		int[] spreads(Collection<Member> members, Map<String, ? extends Collection<TopicPartition>> assignment) {
			int topicCount = this.names.size();
			int[] least = new int[topicCount];
			int[] most = new int[topicCount];
			Arrays.fill(least, Integer.MAX_VALUE);
			for (Member member : members) {
				int[] sorted = sortedIndexes(assignment.get(member.id()));
				for (String topic : member.topics()) {
					Integer t = this.index.get(topic);
					if (t != null) {
						int from = Arrays.binarySearch(sorted, t);
						int count = 0;
						if (from >= 0) {
							while (from > 0 && sorted[from - 1] == t) {
								from--;
							}
							while (from + count < sorted.length && sorted[from + count] == t) {
								count++;
							}
						}
						least[t] = Math.min(least[t], count);
						most[t] = Math.max(most[t], count);
					}
				}
			}
			int[] spreads = new int[topicCount];
			for (int t = 0; t < topicCount; t++) {
				spreads[t] = (least[t] == Integer.MAX_VALUE) ? 0 : most[t] - least[t];
			}
			return spreads;
		}

		/**
		 * Topics with the same subscribers and partition count, two or more, by a
		 * fingerprint of their subscribers (members in id order): at worst a set too large,
		 * which only asks the rule to keep what the reference co-partitioned.
		 */
		List<List<String>> alike(Collection<Member> members) {
			int topicCount = this.names.size();
			long[] fingerprint = new long[topicCount];
			int[] subscribers = new int[topicCount];
			List<Member> ordered = new ArrayList<>(members);
			ordered.sort((a, b) -> a.id().compareTo(b.id()));
			for (int m = 0; m < ordered.size(); m++) {
				long mix = (m + 1) * 0x9E3779B97F4A7C15L;
				for (String topic : ordered.get(m).topics()) {
					Integer t = this.index.get(topic);
					if (t != null) {
						fingerprint[t] = fingerprint[t] * 31 + (mix ^ (mix >>> 29));
						subscribers[t]++;
					}
				}
			}
			Map<List<Long>, List<String>> sets = new HashMap<>();
			for (int t = 0; t < topicCount; t++) {
				if (subscribers[t] > 0) {
					sets.computeIfAbsent(List.of(fingerprint[t], (long) subscribers[t], (long) this.partitionCounts.get(t)),
							(key) -> new ArrayList<>()).add(this.names.get(t));
				}
			}
			return sets.values().stream().filter((set) -> set.size() > 1).toList();
		}

	}

	/**
	 * A rule the assignment breaks.
	 *
	 * @param kind a short name of the rule, for logging once per group and kind
	 * @param detail what breaks it
	 */
	record Violation(String kind, String detail) {

		/**
		 * The detail as a log line may carry it: member ids come from {@code client.id},
		 * which no broker checks.
		 */
		Violation {
			StringBuilder safe = new StringBuilder(Math.min(detail.length(), 500));
			for (int i = 0; i < detail.length() && i < 500; i++) {
				char c = detail.charAt(i);
				safe.append((c >= 0x20 && c < 0x7f) ? c : '?');
			}
			detail = safe.toString();
		}

		@Override
		public String toString() {
			return this.kind + ": " + this.detail;
		}

	}

}
