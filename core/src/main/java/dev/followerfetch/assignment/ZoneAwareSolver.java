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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;

/**
 * One rebalance's solve of the zone-aware rule: the members in their classes, each topic's
 * partitions in order, the reference read once, then each {@link Group} of partitions
 * assigned together given to the {@link GroupFlow}: under {@link Balance#TOTAL} each
 * topic's partitions the reference assigns, under {@link Balance#PER_TOPIC} each set of
 * {@link CoPartitioned} topics.
 *
 * @author follower-fetch authors
 */
final class ZoneAwareSolver {

	private final MemberClasses members;

	private final Map<String, Partition[]> byTopic = new TreeMap<>();

	private final PartitionTable<Integer> owners = new PartitionTable<>();

	private final Map<String, ? extends Collection<TopicPartition>> reference;

	private final Budget budget;

	/**
	 * A rebalance to solve.
	 * @param members the group's members
	 * @param partitions the partitions of the topics they subscribe to
	 * @param reference what the wrapped strategy assigned, by member id
	 * @param budget the work allowed
	 */
	ZoneAwareSolver(Collection<Member> members, Collection<Partition> partitions,
			Map<String, ? extends Collection<TopicPartition>> reference, Budget budget) {
		this.reference = reference;
		this.budget = budget;
		this.members = new MemberClasses(members);
		Map<String, List<Partition>> grouped = new HashMap<>();
		List<Partition> ofLast = new ArrayList<>();
		String last = null;
		for (Partition partition : partitions) {
			String topic = partition.partition().topic();
			if (!topic.equals(last)) {
				// the metadata lists a topic's partitions together: one look-up per topic
				ofLast = grouped.computeIfAbsent(topic, (key) -> new ArrayList<>());
				last = topic;
			}
			ofLast.add(partition);
		}
		grouped.forEach((topic, ofTopic) -> {
			Partition[] sorted = ofTopic.toArray(Partition[]::new);
			boolean inOrder = true;
			for (int i = 1; i < sorted.length && inOrder; i++) {
				inOrder = sorted[i - 1].partition().partition() < sorted[i].partition().partition();
			}
			if (!inOrder) {
				Arrays.sort(sorted, Comparator.comparingInt((Partition partition) -> partition.partition().partition()));
			}
			this.byTopic.put(topic, sorted);
		});
		for (int place = 0; place < this.members.size(); place++) {
			Member member = this.members.get(place);
			Collection<TopicPartition> given = reference.get(member.id());
			if (given == null) {
				continue;
			}
			int m = this.members.indexOf(member.id());
			for (TopicPartition tp : given) {
				if (member.topics().contains(tp.topic())) {
					this.owners.putIfAbsent(tp, m);
				}
			}
		}
	}

	/**
	 * Solve the rebalance.
	 * @param balance how the wrapped strategy keeps partitions per member even
	 * @param keepOwned under {@link Balance#TOTAL}, whether owned partitions stay with
	 * their owners
	 * @return the partitions of each member (every member present, lists sorted)
	 * @throws OverBudgetException when the rule would exceed the budget
	 */
	Map<String, List<TopicPartition>> solve(Balance balance, boolean keepOwned) {
		if (balance == Balance.TOTAL) {
			CloserToOwners closer = this.members.zoned()
					? CloserToOwners.of(this.members, this.byTopic, this.owners, this.reference)
					: CloserToOwners.unchanged(this.owners, this.reference);
			Placement placement = new Placement(this.members, closer.owners(), closer.reference());
			GroupFlow flow = new GroupFlow(this.members, closer.owners(), placement, this.budget);
			PartitionTable<Integer> pinned = keepOwned ? closer.pinned() : new PartitionTable<>();
			for (Partition[] partitions : this.byTopic.values()) {
				flow.solve(owned(partitions, closer.owners(), pinned, placement));
			}
			return placement.assignment();
		}
		Placement placement = new Placement(this.members, this.owners, this.reference);
		GroupFlow flow = new GroupFlow(this.members, this.owners, placement, this.budget);
		for (CoPartitioned set : CoPartitioned.of(this.members, this.byTopic, this.owners)) {
			flow.solve(balanced(set));
		}
		return placement.assignment();
	}

	/**
	 * {@link Balance#TOTAL}: the reference's partitions of one topic, each member keeping
	 * its count; those pinned to their owners are given at once.
	 */
	private Group owned(Partition[] partitions, PartitionTable<Integer> owners, PartitionTable<Integer> pinned,
			Placement placement) {
		List<Partition> units = new ArrayList<>();
		for (Partition partition : partitions) {
			TopicPartition tp = partition.partition();
			Integer owner = pinned.get(tp);
			if (owner != null) {
				placement.keep(tp, owner);
			}
			else if (owners.containsKey(tp)) {
				units.add(partition);
			}
		}
		List<Partition[]> topics = new ArrayList<>();
		topics.add(units.toArray(Partition[]::new));
		return Group.of(topics, this.members, null, 0, 0);
	}

	/**
	 * {@link Balance#PER_TOPIC}: every partition of a set of co-partitioned topics, within
	 * one per subscriber.
	 */
	private Group balanced(CoPartitioned set) {
		List<Partition[]> ofTopics = set.topics()
			.stream()
			.map((topic) -> Objects.requireNonNull(this.byTopic.get(topic), () -> "no entry for " + topic))
			.toList();
		int units = ofTopics.get(0).length;
		int subscribers = set.subscribers().length;
		return Group.of(ofTopics, this.members, set.subscribers(), units / subscribers, units % subscribers);
	}

}
