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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * {@link Balance#TOTAL}: the reference's partitions of each topic handed, count for count,
 * to the members that own them where it can, those in the member's leader zone first. How
 * many partitions of a topic a member gets is the wrapped strategy's choice, which ones the
 * rule's, whose last preference is then what the member owns.
 *
 * @param owners the member each partition goes to, by place: the rule's reference from now
 * on
 * @param reference each member's partitions, by member id
 * @param pinned the partitions kept by the member that owns them
 * @author follower-fetch authors
 */
record CloserToOwners(PartitionTable<Integer> owners, Map<String, ? extends Collection<TopicPartition>> reference,
		PartitionTable<Integer> pinned) {

	/**
	 * The reference as it is, nothing pinned.
	 * @param owners the member the reference gives each partition to, by place
	 * @param reference what the reference gives each member, by member id
	 * @return the reference unchanged
	 */
	static CloserToOwners unchanged(PartitionTable<Integer> owners,
			Map<String, ? extends Collection<TopicPartition>> reference) {
		return new CloserToOwners(owners, reference, new PartitionTable<>());
	}

	/**
	 * The reference's partitions handed to their owners where it can.
	 * @param members the members
	 * @param byTopic each topic's partitions, sorted, by topic in order
	 * @param owners the member the reference gives each partition to, by place
	 * @param reference what the reference gives each member, by member id
	 * @return the new reference and what its owners keep
	 */
	static CloserToOwners of(MemberClasses members, Map<String, Partition[]> byTopic, PartitionTable<Integer> owners,
			Map<String, ? extends Collection<TopicPartition>> reference) {
		boolean owning = false;
		for (int m = 0; m < members.size() && !owning; m++) {
			owning = !members.get(m).owned().isEmpty();
		}
		if (!owning) {
			return unchanged(owners, reference);
		}
		List<List<TopicPartition>> theirs = new ArrayList<>();
		List<Map<String, Integer>> room = new ArrayList<>();
		List<List<TopicPartition>> taken = new ArrayList<>();
		for (int m = 0; m < members.size(); m++) {
			Collection<TopicPartition> given = reference.get(members.get(m).id());
			List<TopicPartition> mine = new ArrayList<>();
			Map<String, Integer> counts = new HashMap<>();
			for (TopicPartition tp : (given != null) ? given : List.<TopicPartition>of()) {
				if (owns(owners, tp, m)) {
					mine.add(tp);
					counts.merge(tp.topic(), 1, Integer::sum);
				}
			}
			theirs.add(mine);
			room.add(counts);
			taken.add(new ArrayList<>());
		}
		PartitionTable<Integer> kept = new PartitionTable<>();
		boolean closer = false;
		for (int m = 0; m < members.size(); m++) {
			Map<String, List<TopicPartition>> candidates = new HashMap<>();
			for (TopicPartition tp : members.get(m).owned()) {
				if (owners.containsKey(tp) && !kept.containsKey(tp)) {
					candidates.computeIfAbsent(tp.topic(), (topic) -> new ArrayList<>()).add(tp);
				}
			}
			for (List<TopicPartition> ofTopic : candidates.values()) {
				int fits = room.get(m).getOrDefault(ofTopic.get(0).topic(), 0);
				if (ofTopic.size() > fits) {
					String zone = members.get(m).zone();
					int member = m;
					ofTopic.sort(Comparator
						.comparing((TopicPartition tp) -> zone == null || !zone.equals(leaderZone(byTopic, tp)))
						.thenComparing((TopicPartition tp) -> !owns(owners, tp, member))
						.thenComparing(Placement.PARTITION_ORDER));
				}
				for (int i = 0; i < ofTopic.size(); i++) {
					TopicPartition tp = ofTopic.get(i);
					boolean theirChoice = owns(owners, tp, m);
					if (i < fits) {
						take(kept, room, taken, tp, m);
					}
					closer |= (i < fits) != theirChoice;
				}
			}
		}
		if (!closer) {
			return new CloserToOwners(owners, reference, kept);
		}
		for (int m = 0; m < members.size(); m++) {
			for (TopicPartition tp : theirs.get(m)) {
				if (!kept.containsKey(tp) && room.get(m).getOrDefault(tp.topic(), 0) > 0) {
					take(kept, room, taken, tp, m);
				}
			}
		}
		Map<String, Deque<Integer>> slots = new HashMap<>();
		for (int m = 0; m < members.size(); m++) {
			for (Map.Entry<String, Integer> left : room.get(m).entrySet()) {
				for (int slot = 0; slot < left.getValue(); slot++) {
					slots.computeIfAbsent(left.getKey(), (topic) -> new ArrayDeque<>()).add(m);
				}
			}
		}
		slots.forEach((topic, open) -> {
			for (Partition partition : byTopic.getOrDefault(topic, new Partition[0])) {
				TopicPartition tp = partition.partition();
				if (!open.isEmpty() && owners.containsKey(tp) && !kept.containsKey(tp)) {
					take(kept, room, taken, tp, next(open));
				}
			}
		});
		Map<String, List<TopicPartition>> lists = new HashMap<>();
		for (int m = 0; m < members.size(); m++) {
			List<TopicPartition> list = new ArrayList<>();
			for (TopicPartition tp : theirs.get(m)) {
				if (owns(kept, tp, m)) {
					list.add(tp);
				}
			}
			List<TopicPartition> added = new ArrayList<>();
			for (TopicPartition tp : taken.get(m)) {
				if (!owns(owners, tp, m)) {
					added.add(tp);
				}
			}
			added.sort(Placement.PARTITION_ORDER);
			list.addAll(added);
			lists.put(members.get(m).id(), list);
		}
		PartitionTable<Integer> pinned = new PartitionTable<>();
		for (int m = 0; m < members.size(); m++) {
			for (TopicPartition tp : members.get(m).owned()) {
				Integer keeper = kept.get(tp);
				if (keeper != null && keeper == m) {
					pinned.put(tp, m);
				}
			}
		}
		return new CloserToOwners(kept, lists, pinned);
	}

	/**
	 * Whether a table gives a partition to a member, without boxing the member's place.
	 */
	private static boolean owns(PartitionTable<Integer> table, TopicPartition tp, int member) {
		Integer owner = table.get(tp);
		return owner != null && owner == member;
	}

	private static @Nullable String leaderZone(Map<String, Partition[]> byTopic, TopicPartition tp) {
		Partition[] ofTopic = byTopic.get(tp.topic());
		if (ofTopic == null) {
			return null;
		}
		int index = tp.partition();
		if (index >= 0 && index < ofTopic.length && ofTopic[index].partition().partition() == index) {
			return ofTopic[index].leaderZone();
		}
		for (Partition partition : ofTopic) {
			if (partition.partition().partition() == index) {
				return partition.leaderZone();
			}
		}
		return null;
	}

	private static void take(PartitionTable<Integer> kept, List<Map<String, Integer>> room,
			List<List<TopicPartition>> taken, TopicPartition tp, int member) {
		kept.put(tp, member);
		room.get(member).merge(tp.topic(), -1, Integer::sum);
		taken.get(member).add(tp);
	}

	private static int next(Deque<Integer> open) {
		Integer member = open.poll();
		if (member == null) {
			throw new IllegalStateException("No member left for a partition");
		}
		return member;
	}

}
