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
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;

/**
 * The assignment as the rule builds it, group by group: each member's partitions, and
 * whether a member got a partition the reference did not give it; then each member's list
 * in the order the reference lists it.
 *
 * @author follower-fetch authors
 */
final class Placement {

	/**
	 * The order of the partitions a member gets that the reference did not list.
	 */
	static final Comparator<TopicPartition> PARTITION_ORDER = Comparator.comparing(TopicPartition::topic)
		.thenComparingInt(TopicPartition::partition);

	private final MemberClasses members;

	private final PartitionTable<Integer> owners;

	private final Map<String, ? extends Collection<TopicPartition>> reference;

	private final List<List<TopicPartition>> given = new ArrayList<>();

	private final PartitionTable<Integer> givenTo = new PartitionTable<>();

	/**
	 * Whether a member got a unit the reference did not give it; one that did not has
	 * exactly the reference's partitions.
	 */
	private final boolean[] changed;

	/**
	 * An empty assignment.
	 * @param members the members
	 * @param owners the member the reference gives each partition to, by place
	 * @param reference what the reference gives each member, by member id
	 */
	Placement(MemberClasses members, PartitionTable<Integer> owners,
			Map<String, ? extends Collection<TopicPartition>> reference) {
		this.members = members;
		this.owners = owners;
		this.reference = reference;
		for (int m = 0; m < members.size(); m++) {
			this.given.add(new ArrayList<>());
		}
		this.changed = new boolean[members.size()];
	}

	/**
	 * Give a partition to the member that owns it.
	 * @param partition the partition
	 * @param owner the member's place
	 */
	void keep(TopicPartition partition, int owner) {
		this.given.get(owner).add(partition);
		this.givenTo.put(partition, owner);
	}

	/**
	 * Give one unit of a group, each of its partitions, to a member.
	 * @param group the group
	 * @param unit the unit
	 * @param member the member's place
	 */
	void give(Group group, int unit, int member) {
		List<TopicPartition> partitions = this.given.get(member);
		for (Partition[] ofTopic : group.topics()) {
			TopicPartition tp = ofTopic[unit].partition();
			partitions.add(tp);
			this.givenTo.put(tp, member);
			Integer owner = this.owners.get(tp);
			if (owner == null || owner != member) {
				this.changed[member] = true;
				if (owner != null) {
					this.changed[owner] = true;
				}
			}
		}
	}

	/**
	 * The assignment.
	 * @return the partitions of each member, by member id
	 */
	Map<String, List<TopicPartition>> assignment() {
		Map<String, List<TopicPartition>> assignment = new TreeMap<>();
		for (int m = 0; m < this.members.size(); m++) {
			assignment.put(this.members.get(m).id(), inReferenceOrder(m));
		}
		return assignment;
	}

	/**
	 * A member's partitions in the order the reference lists them, then those it did not
	 * have there, sorted: where the rule changes nothing, the wrapped strategy's lists
	 * come back as they were.
	 */
	private List<TopicPartition> inReferenceOrder(int member) {
		List<TopicPartition> given = this.given.get(member);
		Collection<TopicPartition> theirs = this.reference.get(this.members.get(member).id());
		if (theirs != null && !this.changed[member] && given.size() == theirs.size()) {
			return new ArrayList<>(theirs);
		}
		if (theirs == null || theirs.isEmpty()) {
			given.sort(PARTITION_ORDER);
			return given;
		}
		List<TopicPartition> ordered = new ArrayList<>(given.size());
		for (TopicPartition tp : theirs) {
			Integer to = this.givenTo.get(tp);
			if (to != null && to == member) {
				ordered.add(tp);
			}
		}
		List<TopicPartition> added = new ArrayList<>();
		for (TopicPartition tp : given) {
			Integer owner = this.owners.get(tp);
			if (owner == null || owner != member) {
				added.add(tp);
			}
		}
		added.sort(PARTITION_ORDER);
		ordered.addAll(added);
		return ordered;
	}

}
