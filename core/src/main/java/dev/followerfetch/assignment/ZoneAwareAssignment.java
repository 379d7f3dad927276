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

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.followerfetch.Policy;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * The zone-aware assignment rule, without Kafka's client: which member of a consumer
 * group reads which partition, starting from what the strategy it wraps assigned (the
 * reference). It moves partitions between members only in ways that keep that strategy's
 * guarantees:
 * <ul>
 * <li>{@link Balance#TOTAL} (sticky, cooperative-sticky, round-robin): every member keeps
 * as many partitions of each topic as the reference gave it, so the balance across the
 * subscription, the spread of each topic over the members and the static members' share
 * stay the strategy's own;</li>
 * <li>{@link Balance#PER_TOPIC} (range): within one per topic among its subscribers, and
 * co-partitioning: topics with the same subscribers and partition count are assigned as
 * one, partition {@code p} of each to the same member.</li>
 * </ul>
 * Within that, in this order: each partition to a member in its leader's zone (the
 * rack-aware selector serves a member from the leader when they share a zone, whatever its
 * policy), then, for LOCALITY members, to a member in a zone with an in-sync replica, then
 * what the member owns, then the reference's own choice. Every objective is exact: each group of partitions assigned
 * together is a minimum-cost flow whose costs are compared in that order, over classes of
 * alike partitions and members, so its size grows with the partitions and members, not
 * their product. Deterministic for the same input; members are ordered as Kafka's range
 * assignor orders them (static members by {@code group.instance.id}), so a restarted
 * static member gets its partitions back.
 *
 * @author follower-fetch authors
 */
public final class ZoneAwareAssignment {

	private ZoneAwareAssignment() {
	}

	/**
	 * Assign the partitions, starting from the wrapped strategy's assignment.
	 * @param members the group's members
	 * @param partitions the partitions of the topics they subscribe to
	 * @param balance how the wrapped strategy keeps partitions per member even
	 * @param reference what the wrapped strategy assigned, by member id; under
	 * {@link Balance#TOTAL} only its partitions are assigned
	 * @return the partitions of each member (every member present, lists sorted)
	 */
	public static Map<String, List<TopicPartition>> assign(Collection<Member> members,
			Collection<Partition> partitions, Balance balance,
			Map<String, ? extends Collection<TopicPartition>> reference) {
		return assign(members, partitions, balance, reference, Budget.DEFAULT);
	}

	/**
	 * Assign the partitions within a budget.
	 * @param members the group's members
	 * @param partitions the partitions of the topics they subscribe to
	 * @param balance how the wrapped strategy keeps partitions per member even
	 * @param reference what the wrapped strategy assigned, by member id
	 * @param budget the work allowed
	 * @return the partitions of each member (every member present, lists sorted)
	 * @throws OverBudgetException when the rule would exceed the budget
	 */
	static Map<String, List<TopicPartition>> assign(Collection<Member> members, Collection<Partition> partitions,
			Balance balance, Map<String, ? extends Collection<TopicPartition>> reference, Budget budget) {
		return assign(members, partitions, balance, reference, budget, false);
	}

	/**
	 * Assign the partitions within a budget, under {@link Balance#TOTAL} with
	 * {@code keepOwned} leaving each member the partitions it owns as far as its counts
	 * allow: only the others are placed by zone. The cooperative protocol follows every
	 * move of an owned partition with another rebalance, in which a sticky strategy,
	 * shown owners it did not choose, may move others: kept, they converge as the
	 * strategy does alone.
	 * @param members the group's members
	 * @param partitions the partitions of the topics they subscribe to
	 * @param balance how the wrapped strategy keeps partitions per member even
	 * @param reference what the wrapped strategy assigned, by member id
	 * @param budget the work allowed
	 * @param keepOwned whether owned partitions stay with their owners
	 * @return the partitions of each member (every member present, lists sorted)
	 * @throws OverBudgetException when the rule would exceed the budget
	 */
	static Map<String, List<TopicPartition>> assign(Collection<Member> members, Collection<Partition> partitions,
			Balance balance, Map<String, ? extends Collection<TopicPartition>> reference, Budget budget,
			boolean keepOwned) {
		return new ZoneAwareSolver(members, partitions, reference, budget).solve(balance, keepOwned);
	}

	/**
	 * What the cooperative protocol may hand out now: a partition that another member
	 * still owns is withheld, so that its owner revokes it and the next rebalance assigns
	 * it. A partition is never owned by two members at once. Owned partitions the target
	 * does not place (of other topics, or numbered past their topic's partitions) change
	 * nothing, whatever a member claims.
	 * @param target the assignment to reach
	 * @param owned the partitions each member owns now
	 * @return the target without the partitions that change owner
	 */
	public static Map<String, List<TopicPartition>> handOver(Map<String, List<TopicPartition>> target,
			Map<String, ? extends Collection<TopicPartition>> owned) {
		PartitionTable<String> assignee = new PartitionTable<>();
		target.forEach((member, partitions) -> partitions.forEach((tp) -> assignee.put(tp, member)));
		PartitionTable<Boolean> ownedByAnother = new PartitionTable<>();
		PartitionTable<Boolean> ownedByAssignee = new PartitionTable<>();
		owned.forEach((member, partitions) -> partitions.forEach((tp) -> {
			String to = assignee.get(tp);
			if (to != null) {
				(to.equals(member) ? ownedByAssignee : ownedByAnother).put(tp, Boolean.TRUE);
			}
		}));
		Map<String, List<TopicPartition>> now = new TreeMap<>();
		target.forEach((member, partitions) -> now.put(member, partitions.stream()
			.filter((tp) -> ownedByAnother.get(tp) == null || ownedByAssignee.get(tp) != null)
			.toList()));
		return now;
	}

	/**
	 * How local an assignment's reads are.
	 * @param assignment the partitions of each member
	 * @param members the members
	 * @param partitions the partitions
	 * @return the counts
	 */
	public static Locality locality(Map<String, ? extends Collection<TopicPartition>> assignment,
			Collection<Member> members, Collection<Partition> partitions) {
		Map<String, Member> byId = new HashMap<>();
		members.forEach((member) -> byId.put(member.id(), member));
		PartitionTable<Partition> byPartition = new PartitionTable<>();
		partitions.forEach((partition) -> byPartition.put(partition.partition(), partition));
		int assigned = 0;
		int leaderZone = 0;
		int zoneLocal = 0;
		for (Map.Entry<String, ? extends Collection<TopicPartition>> entry : assignment.entrySet()) {
			Member member = byId.get(entry.getKey());
			for (TopicPartition tp : entry.getValue()) {
				Partition partition = byPartition.get(tp);
				if (member == null || partition == null) {
					continue;
				}
				assigned++;
				boolean leader = member.zone() != null && member.zone().equals(partition.leaderZone());
				boolean follower = member.zone() != null && member.policy() == Policy.LOCALITY
						&& partition.inSyncZones().contains(member.zone());
				leaderZone += leader ? 1 : 0;
				zoneLocal += (leader || follower) ? 1 : 0;
			}
		}
		return new Locality(assigned, leaderZone, zoneLocal);
	}

	/**
	 * How partitions per member are kept even: the wrapped strategy's way.
	 */
	public enum Balance {

		/**
		 * Within each topic, among the members subscribed to it, with co-partitioning, as
		 * Kafka's range assignor does.
		 */
		PER_TOPIC,

		/**
		 * Across all the partitions of the subscription, as Kafka's sticky,
		 * cooperative-sticky and round-robin assignors do: each member keeps as many
		 * partitions of each topic as the strategy gave it.
		 */
		TOTAL

	}

	/**
	 * One member of the group.
	 *
	 * @param id the member id
	 * @param instance its {@code group.instance.id} (static membership), or {@code null}
	 * @param zone the zone it runs in, or {@code null} when it has none
	 * @param policy where it reads from: LOCALITY members read an in-sync replica in
	 * their zone, FRESHNESS members the leader
	 * @param topics the topics it subscribes to
	 * @param owned the partitions it owns now, or owned last
	 */
	public record Member(String id, @Nullable String instance, @Nullable String zone, Policy policy,
			Set<String> topics, Set<TopicPartition> owned) {

		public Member {
			topics = Set.copyOf(topics);
			owned = PartitionSet.copyOf(owned);
		}

		/**
		 * A member without a {@code group.instance.id}.
		 * @param id the member id
		 * @param zone the zone it runs in, or {@code null} when it has none
		 * @param policy where it reads from
		 * @param topics the topics it subscribes to
		 * @param owned the partitions it owns now, or owned last
		 */
		public Member(String id, @Nullable String zone, Policy policy, Set<String> topics, Set<TopicPartition> owned) {
			this(id, null, zone, policy, topics, owned);
		}

	}

	/**
	 * One partition to assign.
	 *
	 * @param partition the partition
	 * @param leaderZone the zone of its leader, or {@code null} when it has no leader or
	 * the leader no rack
	 * @param inSyncZones the zones of its in-sync replicas
	 */
	public record Partition(TopicPartition partition, @Nullable String leaderZone, Set<String> inSyncZones) {

		public Partition {
			inSyncZones = Set.copyOf(inSyncZones);
		}

		/**
		 * A partition counted as led by its preferred replica, where Kafka's leader
		 * rebalance keeps leadership (a broker restart moves it away and back, and an
		 * assignment that followed it would move the partition twice), else, when the
		 * preferred replica's rack is unknown, by its current leader.
		 * @param partition the partition
		 * @param preferredZone the zone of its preferred replica (its first), or {@code null}
		 * @param leaderZone the zone of its current leader, or {@code null}
		 * @param inSyncZones the zones of its in-sync replicas
		 * @return the partition
		 */
		public static Partition ledByPreferred(TopicPartition partition, @Nullable String preferredZone,
				@Nullable String leaderZone, Set<String> inSyncZones) {
			return new Partition(partition, (preferredZone != null) ? preferredZone : leaderZone, inSyncZones);
		}

	}

	/**
	 * How local an assignment's reads are.
	 *
	 * @param partitions the partitions assigned to a known member
	 * @param leaderZone those assigned to a member in their leader's zone
	 * @param zoneLocal those read in the member's zone: from the leader, or, for a
	 * LOCALITY member, from an in-sync follower
	 */
	public record Locality(int partitions, int leaderZone, int zoneLocal) {

	}

}
