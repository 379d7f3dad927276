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

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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

	private static final Comparator<TopicPartition> PARTITION_ORDER = Comparator.comparing(TopicPartition::topic)
		.thenComparingInt(TopicPartition::partition);

	/**
	 * Kafka's order of members (AbstractPartitionAssignor.MemberInfo): static members by
	 * instance id first, then the others by member id.
	 */
	private static final Comparator<Member> MEMBER_ORDER = Comparator
		.comparing((Member member) -> member.instance() == null)
		.thenComparing((Member member) -> Objects.toString(member.instance(), ""))
		.thenComparing(Member::id);

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
		return new Solver(members, partitions, reference, budget).solve(balance, keepOwned);
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
	 * One rebalance's solve: members ordered, their zones and classes indexed, the
	 * reference read once, then each group of partitions that are assigned together.
	 */
	private static final class Solver {

		private final Member[] members;

		private final int[] memberClass;

		/**
		 * The zone of each member class, as an index of {@link #zoneIndex}; -1 for none.
		 */
		private int[] classZone = new int[0];

		private final List<MemberClass> classes = new ArrayList<>();

		private final Map<String, Integer> zoneIndex = new HashMap<>();

		private final Map<String, Partition[]> byTopic = new TreeMap<>();

		private PartitionTable<Integer> owners = new PartitionTable<>();

		private final PartitionTable<Integer> givenTo = new PartitionTable<>();

		private final List<List<TopicPartition>> result = new ArrayList<>();

		/**
		 * Whether a member got a unit the reference did not give it; one that did not has
		 * exactly the reference's partitions.
		 */
		private boolean[] changed = new boolean[0];

		private Map<String, ? extends Collection<TopicPartition>> reference;

		private final Budget budget;

		private final LexicographicFlow flow = new LexicographicFlow();

		Solver(Collection<Member> members, Collection<Partition> partitions,
				Map<String, ? extends Collection<TopicPartition>> reference, Budget budget) {
			this.reference = reference;
			this.budget = budget;
			this.members = members.stream().sorted(MEMBER_ORDER).toArray(Member[]::new);
			this.memberClass = new int[this.members.length];
			Map<MemberClass, Integer> classIndex = new HashMap<>();
			Map<String, Integer> memberIndex = new HashMap<>();
			for (int m = 0; m < this.members.length; m++) {
				Member member = this.members[m];
				memberIndex.put(member.id(), m);
				if (member.zone() != null) {
					this.zoneIndex.putIfAbsent(member.zone(), this.zoneIndex.size());
				}
				MemberClass key = new MemberClass(member.zone(), member.policy());
				this.memberClass[m] = classIndex.computeIfAbsent(key, (k) -> {
					this.classes.add(k);
					return this.classes.size() - 1;
				});
				this.result.add(new ArrayList<>());
			}
			this.changed = new boolean[this.members.length];
			this.classZone = this.classes.stream()
				.mapToInt((c) -> (c.zone() != null) ? known(this.zoneIndex, c.zone()) : -1)
				.toArray();
			Map<String, List<Partition>> grouped = new HashMap<>();
			for (Partition partition : partitions) {
				grouped.computeIfAbsent(partition.partition().topic(), (topic) -> new ArrayList<>()).add(partition);
			}
			grouped.forEach((topic, ofTopic) -> {
				Partition[] sorted = ofTopic.toArray(Partition[]::new);
				boolean inOrder = true;
				for (int i = 1; i < sorted.length && inOrder; i++) {
					inOrder = sorted[i - 1].partition().partition() < sorted[i].partition().partition();
				}
				if (!inOrder) {
					Arrays.sort(sorted,
							Comparator.comparingInt((Partition partition) -> partition.partition().partition()));
				}
				this.byTopic.put(topic, sorted);
			});
			for (Member member : this.members) {
				Collection<TopicPartition> given = reference.get(member.id());
				if (given == null) {
					continue;
				}
				int m = known(memberIndex, member.id());
				for (TopicPartition tp : given) {
					if (member.topics().contains(tp.topic())) {
						this.owners.putIfAbsent(tp, m);
					}
				}
			}
		}

		Map<String, List<TopicPartition>> solve(Balance balance, boolean keepOwned) {
			boolean zoned = !this.zoneIndex.isEmpty() && this.classes.size() > 1;
			if (balance == Balance.TOTAL) {
				PartitionTable<Integer> pinned = zoned ? closerToOwners() : new PartitionTable<>();
				this.byTopic.values()
					.forEach((partitions) -> solveOwned(partitions, zoned, keepOwned ? pinned : new PartitionTable<>()));
			}
			else {
				coPartitionedSets().forEach((set) -> solveBalanced(set, zoned));
			}
			Map<String, List<TopicPartition>> assignment = new TreeMap<>();
			for (int m = 0; m < this.members.length; m++) {
				assignment.put(this.members[m].id(), inReferenceOrder(m));
			}
			return assignment;
		}

		/**
		 * {@link Balance#TOTAL}: the reference's partitions of each topic handed, count for
		 * count, to the members that own them where it can, those in the member's leader
		 * zone first. How many partitions of a topic a member gets is the wrapped strategy's
		 * choice, which ones the rule's, whose last preference is then what the member
		 * owns.
		 * @return the partitions kept by the member that owns them
		 */
		private PartitionTable<Integer> closerToOwners() {
			List<List<TopicPartition>> theirs = new ArrayList<>();
			List<Map<String, Integer>> room = new ArrayList<>();
			List<List<TopicPartition>> taken = new ArrayList<>();
			for (int m = 0; m < this.members.length; m++) {
				Collection<TopicPartition> given = this.reference.get(this.members[m].id());
				List<TopicPartition> mine = new ArrayList<>();
				Map<String, Integer> counts = new HashMap<>();
				for (TopicPartition tp : (given != null) ? given : List.<TopicPartition>of()) {
					if (Objects.equals(this.owners.get(tp), m)) {
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
			for (int m = 0; m < this.members.length; m++) {
				Map<String, List<TopicPartition>> candidates = new HashMap<>();
				for (TopicPartition tp : this.members[m].owned()) {
					if (this.owners.containsKey(tp) && !kept.containsKey(tp)) {
						candidates.computeIfAbsent(tp.topic(), (topic) -> new ArrayList<>()).add(tp);
					}
				}
				for (List<TopicPartition> ofTopic : candidates.values()) {
					int fits = room.get(m).getOrDefault(ofTopic.get(0).topic(), 0);
					if (ofTopic.size() > fits) {
						String zone = this.members[m].zone();
						int member = m;
						ofTopic.sort(Comparator
							.comparing((TopicPartition tp) -> zone == null || !zone.equals(leaderZoneOf(tp)))
							.thenComparing((TopicPartition tp) -> !Objects.equals(this.owners.get(tp), member))
							.thenComparing(PARTITION_ORDER));
					}
					for (int i = 0; i < ofTopic.size(); i++) {
						TopicPartition tp = ofTopic.get(i);
						boolean theirChoice = Objects.equals(this.owners.get(tp), m);
						if (i < fits) {
							take(kept, room, taken, tp, m);
						}
						closer |= (i < fits) != theirChoice;
					}
				}
			}
			if (!closer) {
				return kept;
			}
			for (int m = 0; m < this.members.length; m++) {
				for (TopicPartition tp : theirs.get(m)) {
					if (!kept.containsKey(tp) && room.get(m).getOrDefault(tp.topic(), 0) > 0) {
						take(kept, room, taken, tp, m);
					}
				}
			}
			Map<String, Deque<Integer>> slots = new HashMap<>();
			for (int m = 0; m < this.members.length; m++) {
				for (Map.Entry<String, Integer> left : room.get(m).entrySet()) {
					for (int slot = 0; slot < left.getValue(); slot++) {
						slots.computeIfAbsent(left.getKey(), (topic) -> new ArrayDeque<>()).add(m);
					}
				}
			}
			slots.forEach((topic, open) -> {
				for (Partition partition : this.byTopic.getOrDefault(topic, new Partition[0])) {
					TopicPartition tp = partition.partition();
					if (!open.isEmpty() && this.owners.containsKey(tp) && !kept.containsKey(tp)) {
						take(kept, room, taken, tp, next(open));
					}
				}
			});
			Map<String, List<TopicPartition>> lists = new HashMap<>();
			for (int m = 0; m < this.members.length; m++) {
				List<TopicPartition> list = new ArrayList<>();
				for (TopicPartition tp : theirs.get(m)) {
					if (Objects.equals(kept.get(tp), m)) {
						list.add(tp);
					}
				}
				List<TopicPartition> added = new ArrayList<>();
				for (TopicPartition tp : taken.get(m)) {
					if (!Objects.equals(this.owners.get(tp), m)) {
						added.add(tp);
					}
				}
				added.sort(PARTITION_ORDER);
				list.addAll(added);
				lists.put(this.members[m].id(), list);
			}
			PartitionTable<Integer> pinned = new PartitionTable<>();
			for (int m = 0; m < this.members.length; m++) {
				for (TopicPartition tp : this.members[m].owned()) {
					Integer keeper = kept.get(tp);
					if (keeper != null && keeper == m) {
						pinned.put(tp, m);
					}
				}
			}
			this.owners = kept;
			this.reference = lists;
			return pinned;
		}

		private @Nullable String leaderZoneOf(TopicPartition tp) {
			Partition[] ofTopic = this.byTopic.get(tp.topic());
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

		/**
		 * A member's partitions in the order the reference lists them, then those it did
		 * not have there, sorted: where the rule changes nothing, the wrapped strategy's
		 * lists come back as they were.
		 */
		private List<TopicPartition> inReferenceOrder(int member) {
			List<TopicPartition> given = this.result.get(member);
			Collection<TopicPartition> theirs = this.reference.get(this.members[member].id());
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

		/**
		 * {@link Balance#TOTAL}: the reference's partitions of one topic, each member
		 * keeping its count.
		 */
		private void solveOwned(Partition[] partitions, boolean zoned, PartitionTable<Integer> pinned) {
			List<Partition> units = new ArrayList<>();
			for (Partition partition : partitions) {
				TopicPartition tp = partition.partition();
				Integer owner = pinned.get(tp);
				if (owner != null) {
					this.result.get(owner).add(tp);
					this.givenTo.put(tp, owner);
				}
				else if (this.owners.containsKey(tp)) {
					units.add(partition);
				}
			}
			List<Partition[]> topics = new ArrayList<>();
			topics.add(units.toArray(Partition[]::new));
			solveGroup(group(topics, null, 0, 0), zoned);
		}

		/**
		 * {@link Balance#PER_TOPIC}: every partition of a set of co-partitioned topics,
		 * within one per subscriber.
		 */
		private void solveBalanced(CoPartitioned set, boolean zoned) {
			List<Partition[]> ofTopics = set.topics().stream().map((topic) -> known(this.byTopic, topic)).toList();
			int units = ofTopics.get(0).length;
			int subscribers = set.subscribers().length;
			solveGroup(group(ofTopics, set.subscribers(), units / subscribers, units % subscribers), zoned);
		}

		/**
		 * A group of units, partition {@code u} of each topic's array the same unit, with
		 * each partition's leader zone and in-sync zones as indexes of the members' zones.
		 */
		private Group group(List<Partition[]> topics, int @Nullable [] subscribers, int floor, int extras) {
			int unitCount = topics.get(0).length;
			int[][] leader = new int[topics.size()][unitCount];
			long[][] inSync = new long[topics.size()][unitCount];
			for (int t = 0; t < topics.size(); t++) {
				Partition[] ofTopic = topics.get(t);
				for (int u = 0; u < unitCount; u++) {
					Partition partition = ofTopic[u];
					leader[t][u] = (partition.leaderZone() != null)
							? this.zoneIndex.getOrDefault(partition.leaderZone(), -1) : -1;
					long mask = 0;
					for (String zone : partition.inSyncZones()) {
						Integer index = this.zoneIndex.get(zone);
						if (index != null && index < Long.SIZE) {
							mask |= 1L << index;
						}
					}
					inSync[t][u] = mask;
				}
			}
			return new Group(topics, leader, inSync, subscribers, floor, extras);
		}

		private void solveGroup(Group group, boolean zoned) {
			int unitCount = group.units();
			if (unitCount == 0) {
				return;
			}
			int[] owner = new int[unitCount];
			for (int u = 0; u < unitCount; u++) {
				Integer known = this.owners.get(group.topics().get(0)[u].partition());
				owner[u] = (known != null) ? known : -1;
			}
			if (!zoned || keepsReference(group, owner)) {
				boolean complete = true;
				for (int u = 0; u < unitCount; u++) {
					complete &= owner[u] >= 0;
				}
				if (complete && (group.subscribers() == null || balanced(group, owner))) {
					for (int u = 0; u < unitCount; u++) {
						give(group, u, owner[u]);
					}
					return;
				}
			}
			if (group.subscribers() == null) {
				solveByClass(group, owner);
			}
			else {
				new GroupFlow(group, owner).solve();
			}
		}

		/**
		 * {@link Balance#TOTAL}: every owner keeps its count, so which member of a class
		 * keeps a unit does not matter to the objectives, and the flow runs over classes
		 * alone: units alike for every class with owners of one class, member classes, the
		 * sink. Each unit kept stays with its owner; a class's other owners fill their
		 * counts with the units moved to it.
		 */
		private void solveByClass(Group group, int[] owner) {
			int unitCount = group.units();
			int[] quota = new int[this.members.length];
			Set<Integer> present = new TreeSet<>();
			for (int m : owner) {
				quota[m]++;
				present.add(this.memberClass[m]);
			}
			List<Integer> classList = new ArrayList<>(present);
			int[] position = new int[this.classes.size()];
			for (int i = 0; i < classList.size(); i++) {
				position[classList.get(i)] = i;
			}
			Map<UnitKey, Integer> keyIndex = new HashMap<>();
			List<UnitKey> keys = new ArrayList<>();
			int[] keyOf = new int[unitCount];
			for (int u = 0; u < unitCount; u++) {
				int[] gains = new int[classList.size() * 2];
				for (int i = 0; i < classList.size(); i++) {
					gains[2 * i] = gain(group, u, classList.get(i), true);
					gains[2 * i + 1] = gain(group, u, classList.get(i), false);
				}
				UnitKey key = new UnitKey(gains, this.memberClass[owner[u]]);
				keyOf[u] = keyIndex.computeIfAbsent(key, (k) -> {
					keys.add(k);
					return keys.size() - 1;
				});
			}
			this.budget.checkEdges((long) keys.size() * (classList.size() + 2) + 2L * classList.size());
			LexicographicFlow flow = this.flow;
			flow.reset();
			int source = flow.node();
			int sink = flow.node();
			int[] classNode = new int[classList.size()];
			for (int i = 0; i < classList.size(); i++) {
				classNode[i] = flow.node();
				int room = 0;
				for (int m = 0; m < this.members.length; m++) {
					room += (this.memberClass[m] == classList.get(i)) ? quota[m] : 0;
				}
				flow.edge(classNode[i], sink, room);
			}
			int[] size = new int[keys.size()];
			for (int u = 0; u < unitCount; u++) {
				size[keyOf[u]]++;
			}
			int[] keepEdge = new int[keys.size()];
			int[][] moveEdge = new int[keys.size()][classList.size()];
			for (int k = 0; k < keys.size(); k++) {
				UnitKey key = keys.get(k);
				int node = flow.node();
				flow.edge(source, node, size[k]);
				int own = position[key.owner()];
				keepEdge[k] = flow.edge(node, classNode[own], size[k], 0, -key.gains()[2 * own],
						-key.gains()[2 * own + 1], -1);
				for (int i = 0; i < classList.size(); i++) {
					moveEdge[k][i] = (i == own) ? -1 : flow.edge(node, classNode[i], size[k], 0,
							-key.gains()[2 * i], -key.gains()[2 * i + 1], 0);
				}
			}
			flow.solve(source, sink, this.budget.deadline());
			this.budget.checkVisits(flow.visits());

			int[] kept = new int[keys.size()];
			int[][] moved = new int[keys.size()][classList.size()];
			for (int k = 0; k < keys.size(); k++) {
				kept[k] = flow.flow(keepEdge[k]);
				for (int i = 0; i < classList.size(); i++) {
					moved[k][i] = (moveEdge[k][i] >= 0) ? flow.flow(moveEdge[k][i]) : 0;
				}
			}
			List<List<Integer>> pools = new ArrayList<>();
			classList.forEach((c) -> pools.add(new ArrayList<>()));
			int[] room = quota.clone();
			for (int u = 0; u < unitCount; u++) {
				int k = keyOf[u];
				if (kept[k] > 0) {
					kept[k]--;
					give(group, u, owner[u]);
					room[owner[u]]--;
					continue;
				}
				for (int i = 0; i < classList.size(); i++) {
					if (moved[k][i] > 0) {
						moved[k][i]--;
						pools.get(i).add(u);
						break;
					}
				}
			}
			for (int i = 0; i < classList.size(); i++) {
				List<Integer> pool = pools.get(i);
				int next = 0;
				for (int m = 0; m < this.members.length && next < pool.size(); m++) {
					if (this.memberClass[m] != classList.get(i)) {
						continue;
					}
					for (; room[m] > 0 && next < pool.size(); room[m]--) {
						give(group, pool.get(next++), m);
					}
				}
			}
		}

		/**
		 * Whether nothing can gain from moving: every unit and member class scores alike.
		 */
		private boolean keepsReference(Group group, int[] owner) {
			Set<Integer> present = new TreeSet<>();
			if (group.subscribers() != null) {
				for (int m : group.subscribers()) {
					present.add(this.memberClass[m]);
				}
			}
			else {
				for (int m : owner) {
					present.add(this.memberClass[m]);
				}
			}
			if (present.size() <= 1) {
				return true;
			}
			for (int u = 0; u < group.units(); u++) {
				for (int c : present) {
					if (gain(group, u, c, true) > 0 || gain(group, u, c, false) > 0) {
						return false;
					}
				}
			}
			return true;
		}

		private boolean balanced(Group group, int[] owner) {
			Map<Integer, Integer> counts = new HashMap<>();
			for (int m : owner) {
				counts.merge(m, 1, Integer::sum);
			}
			int extras = 0;
			for (int m : Objects.requireNonNull(group.subscribers())) {
				int count = counts.getOrDefault(m, 0);
				if (count == group.floor() + 1) {
					extras++;
				}
				else if (count != group.floor()) {
					return false;
				}
				counts.remove(m);
			}
			return counts.isEmpty() && extras == group.extras();
		}

		/**
		 * What a unit gains in one member class: partitions of it whose leader is in the
		 * class's zone, or (not {@code leader}) that the class reads in its zone.
		 */
		private int gain(Group group, int unit, int memberClass, boolean leader) {
			int zone = this.classZone[memberClass];
			if (zone < 0) {
				return 0;
			}
			boolean locality = this.classes.get(memberClass).policy() == Policy.LOCALITY;
			int gain = 0;
			for (int t = 0; t < group.leader().length; t++) {
				boolean fromLeader = group.leader()[t][unit] == zone;
				boolean local = fromLeader || (locality && zone < Long.SIZE && (group.inSync()[t][unit] & (1L << zone)) != 0);
				gain += (leader ? fromLeader : local) ? 1 : 0;
			}
			return gain;
		}

		private void give(Group group, int unit, int member) {
			List<TopicPartition> partitions = this.result.get(member);
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
		 * Topics grouped as Kafka's range assignor co-partitions them: the same
		 * subscribers and the same partitions {@code 0..n-1}, and, in the reference, the
		 * same member for partition {@code p} of each (else each topic on its own).
		 */
		private List<CoPartitioned> coPartitionedSets() {
			Map<String, List<Integer>> subscribersOf = new HashMap<>();
			for (int m = 0; m < this.members.length; m++) {
				for (String topic : this.members[m].topics()) {
					subscribersOf.computeIfAbsent(topic, (key) -> new ArrayList<>()).add(m);
				}
			}
			Map<SetKey, List<String>> sets = new LinkedHashMap<>();
			List<CoPartitioned> result = new ArrayList<>();
			this.byTopic.forEach((topic, partitions) -> {
				List<Integer> subscribers = subscribersOf.get(topic);
				if (subscribers == null) {
					return;
				}
				int[] readers = subscribers.stream().mapToInt(Integer::intValue).toArray();
				boolean numbered = true;
				for (int p = 0; p < partitions.length; p++) {
					numbered &= partitions[p].partition().partition() == p;
				}
				if (numbered) {
					sets.computeIfAbsent(new SetKey(readers, partitions.length), (key) -> new ArrayList<>()).add(topic);
				}
				else {
					result.add(new CoPartitioned(List.of(topic), readers));
				}
			});
			sets.forEach((key, topics) -> {
				if (topics.size() == 1 || sameOwners(topics, key.partitions())) {
					result.add(new CoPartitioned(topics, key.subscribers()));
				}
				else {
					topics.forEach((topic) -> result.add(new CoPartitioned(List.of(topic), key.subscribers())));
				}
			});
			return result;
		}

		private boolean sameOwners(List<String> topics, int partitions) {
			for (int p = 0; p < partitions; p++) {
				Integer first = this.owners.get(new TopicPartition(topics.get(0), p));
				for (int t = 1; t < topics.size(); t++) {
					if (!Objects.equals(first, this.owners.get(new TopicPartition(topics.get(t), p)))) {
						return false;
					}
				}
			}
			return true;
		}

		/**
		 * The flow of one group: units of alike partitions with the same owner
		 * ({@code (profile, owner)}), member classes, the members that own units, and,
		 * per class, the subscribers that own none (one node for all of them).
		 */
		private final class GroupFlow {

			private final Group group;

			private final int[] owner;

			GroupFlow(Group group, int[] owner) {
				this.group = group;
				this.owner = owner;
			}

			void solve() {
				Group group = this.group;
				int unitCount = group.units();
				// the members that may get units: owners, and under PER_TOPIC every subscriber
				Map<Integer, Integer> quota = new TreeMap<>();
				for (int u = 0; u < unitCount; u++) {
					if (this.owner[u] >= 0) {
						quota.merge(this.owner[u], 1, Integer::sum);
					}
				}
				boolean fixed = group.subscribers() == null;
				Map<Integer, List<Integer>> othersByClass = new TreeMap<>();
				Set<Integer> classesPresent = new TreeSet<>();
				quota.keySet().forEach((m) -> classesPresent.add(ZoneAwareAssignment.Solver.this.memberClass[m]));
				if (!fixed) {
					for (int m : Objects.requireNonNull(group.subscribers())) {
						int c = ZoneAwareAssignment.Solver.this.memberClass[m];
						classesPresent.add(c);
						if (!quota.containsKey(m)) {
							othersByClass.computeIfAbsent(c, (key) -> new ArrayList<>()).add(m);
						}
					}
				}
				List<Integer> classList = new ArrayList<>(classesPresent);
				// unit groups: alike units with the same owner, in the order of their first unit
				Map<UnitKey, Integer> unitGroupIndex = new LinkedHashMap<>();
				List<UnitKey> unitGroups = new ArrayList<>();
				int[] unitGroupOf = new int[unitCount];
				for (int u = 0; u < unitCount; u++) {
					int[] gains = new int[classList.size() * 2];
					for (int i = 0; i < classList.size(); i++) {
						gains[2 * i] = gain(group, u, classList.get(i), true);
						gains[2 * i + 1] = gain(group, u, classList.get(i), false);
					}
					UnitKey key = new UnitKey(gains, this.owner[u]);
					unitGroupOf[u] = unitGroupIndex.computeIfAbsent(key, (k) -> {
						unitGroups.add(k);
						return unitGroups.size() - 1;
					});
				}
				long edges = (long) unitGroups.size() * (classList.size() + 2) + 3L * quota.size()
						+ 3L * othersByClass.size() + classList.size();
				ZoneAwareAssignment.Solver.this.budget.checkEdges(edges);

				LexicographicFlow flow = ZoneAwareAssignment.Solver.this.flow;
				flow.reset();
				int source = flow.node();
				int sink = flow.node();
				Map<Integer, Integer> classNode = new TreeMap<>();
				classList.forEach((c) -> classNode.put(c, flow.node()));
				Map<Integer, Integer> memberNode = new LinkedHashMap<>();
				Map<Integer, Integer> toMember = new LinkedHashMap<>();
				quota.forEach((m, count) -> {
					int node = flow.node();
					memberNode.put(m, node);
					toMember.put(m, flow.edge(known(classNode, ZoneAwareAssignment.Solver.this.memberClass[m]), node,
							LexicographicFlow.UNBOUNDED));
					limit(flow, node, sink, fixed ? count : group.floor(), fixed ? 0 : group.extras(), 1);
				});
				Map<Integer, Integer> toOthers = new TreeMap<>();
				othersByClass.forEach((c, others) -> {
					int node = flow.node();
					toOthers.put(c, flow.edge(known(classNode, c), node, LexicographicFlow.UNBOUNDED));
					limit(flow, node, sink, group.floor(), group.extras(), others.size());
				});
				int[] keepEdge = new int[unitGroups.size()];
				int[][] moveEdge = new int[unitGroups.size()][];
				int[] size = new int[unitGroups.size()];
				for (int u = 0; u < unitCount; u++) {
					size[unitGroupOf[u]]++;
				}
				for (int g = 0; g < unitGroups.size(); g++) {
					UnitKey key = unitGroups.get(g);
					int node = flow.node();
					flow.edge(source, node, size[g]);
					keepEdge[g] = -1;
					if (key.owner() >= 0) {
						int i = classList.indexOf(ZoneAwareAssignment.Solver.this.memberClass[key.owner()]);
						keepEdge[g] = flow.edge(node, known(memberNode, key.owner()), size[g], 0, -key.gains()[2 * i],
								-key.gains()[2 * i + 1], -1);
					}
					moveEdge[g] = new int[classList.size()];
					for (int i = 0; i < classList.size(); i++) {
						moveEdge[g][i] = flow.edge(node, known(classNode, classList.get(i)), size[g], 0,
								-key.gains()[2 * i], -key.gains()[2 * i + 1], 0);
					}
				}
				flow.solve(source, sink, ZoneAwareAssignment.Solver.this.budget.deadline());
				ZoneAwareAssignment.Solver.this.budget.checkVisits(flow.visits());

				// realize: kept units stay, moved ones pool per class, in unit order
				int[] kept = new int[unitGroups.size()];
				int[][] moved = new int[unitGroups.size()][classList.size()];
				for (int g = 0; g < unitGroups.size(); g++) {
					kept[g] = (keepEdge[g] >= 0) ? flow.flow(keepEdge[g]) : 0;
					for (int i = 0; i < classList.size(); i++) {
						moved[g][i] = flow.flow(moveEdge[g][i]);
					}
				}
				List<List<Integer>> pools = new ArrayList<>();
				classList.forEach((c) -> pools.add(new ArrayList<>()));
				for (int u = 0; u < unitCount; u++) {
					int g = unitGroupOf[u];
					if (kept[g] > 0) {
						kept[g]--;
						give(group, u, this.owner[u]);
						continue;
					}
					for (int i = 0; i < classList.size(); i++) {
						if (moved[g][i] > 0) {
							moved[g][i]--;
							pools.get(i).add(u);
							break;
						}
					}
				}
				for (int i = 0; i < classList.size(); i++) {
					int c = classList.get(i);
					List<Integer> pool = pools.get(i);
					int next = 0;
					for (Map.Entry<Integer, Integer> member : toMember.entrySet()) {
						if (ZoneAwareAssignment.Solver.this.memberClass[member.getKey()] != c) {
							continue;
						}
						for (int n = flow.flow(member.getValue()); n > 0; n--) {
							give(group, pool.get(next++), member.getKey());
						}
					}
					Integer others = toOthers.get(c);
					if (others != null) {
						List<Integer> readers = known(othersByClass, c);
						int total = flow.flow(others);
						int extras = total - group.floor() * readers.size();
						for (int r = 0; r < readers.size(); r++) {
							for (int n = group.floor() + ((r < extras) ? 1 : 0); n > 0; n--) {
								give(group, pool.get(next++), readers.get(r));
							}
						}
					}
				}
			}

			/**
			 * A member's (or several alike members') room: the share they must get, which
			 * balance rewards, and at most one more each where there are extras.
			 */
			private void limit(LexicographicFlow flow, int node, int sink, int share, int extras, int readers) {
				if (share > 0) {
					flow.edge(node, sink, share * readers, -1);
				}
				if (extras > 0) {
					flow.edge(node, sink, readers);
				}
			}

		}

	}

	/**
	 * A value the rule put in the map itself, for a key it knows is there.
	 */
	private static <K, V> V known(Map<K, V> map, K key) {
		return Objects.requireNonNull(map.get(key), () -> "no entry for " + key);
	}

	/**
	 * Partitions assigned together: one topic, or co-partitioned topics whose partition
	 * {@code u} goes to one member. Under {@link Balance#TOTAL} every owner keeps its count
	 * ({@code subscribers} {@code null}); under {@link Balance#PER_TOPIC} each subscriber
	 * gets {@code floor}, and {@code extras} of them one more.
	 *
	 * @param topics each topic's partitions, unit {@code u} at index {@code u}
	 * @param leader the zone index of each partition's leader, -1 for none
	 * @param inSync the zone indexes of each partition's in-sync replicas, as bits
	 * @param subscribers the members that may get units, or {@code null} for the owners
	 * @param floor the units each subscriber gets at least
	 * @param extras how many subscribers get one more
	 */
	private record Group(List<Partition[]> topics, int[][] leader, long[][] inSync, int @Nullable [] subscribers,
			int floor, int extras) {

		int units() {
			return this.topics.get(0).length;
		}

	}

	private record CoPartitioned(List<String> topics, int[] subscribers) {

	}

	private record SetKey(int[] subscribers, int partitions) {

		@Override
		public boolean equals(Object other) {
			return other instanceof SetKey key && key.partitions == this.partitions
					&& Arrays.equals(key.subscribers, this.subscribers);
		}

		@Override
		public int hashCode() {
			return 31 * Arrays.hashCode(this.subscribers) + this.partitions;
		}

	}

	/**
	 * Units that are alike for the rule: the same gains in every member class of the
	 * group, and the same owner in the reference (under {@link Balance#TOTAL}, the same
	 * owner's class).
	 */
	private record UnitKey(int[] gains, int owner) {

		@Override
		public boolean equals(Object other) {
			return other instanceof UnitKey key && key.owner == this.owner && Arrays.equals(key.gains, this.gains);
		}

		@Override
		public int hashCode() {
			return 31 * Arrays.hashCode(this.gains) + this.owner;
		}

	}

	/**
	 * Members that are alike for the rule: same zone and policy.
	 */
	private record MemberClass(@Nullable String zone, Policy policy) {

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
	 * The work the rule may do in one rebalance, so that it never costs more than a
	 * bounded amount of memory and time: past it, the wrapped strategy's assignment stands.
	 *
	 * @param maxGroupEdges the most edges the flow of one group of partitions may have
	 * (about 72 bytes each)
	 * @param maxVisits the most edge visits the flows may make in all
	 * @param time the most time the rule may take
	 * @param start the {@link System#nanoTime()} it started at
	 */
	record Budget(long maxGroupEdges, long maxVisits, Duration time, long start) {

		/**
		 * 2,000,000 edges (about 144 MB), 2,000,000,000 visits, 10 s.
		 */
		static final Budget DEFAULT = new Budget(2_000_000, 2_000_000_000L, Duration.ofSeconds(10), 0);

		/**
		 * This budget, from now on.
		 * @return a budget whose time starts now
		 */
		Budget startingNow() {
			return new Budget(this.maxGroupEdges, this.maxVisits, this.time, System.nanoTime());
		}

		long deadline() {
			return ((this.start != 0) ? this.start : System.nanoTime()) + this.time.toNanos();
		}

		void checkEdges(long edges) {
			if (edges > this.maxGroupEdges) {
				throw new OverBudgetException(
						"a group of its partitions needs " + edges + " flow edges, more than " + this.maxGroupEdges);
			}
		}

		void checkVisits(long visits) {
			if (visits > this.maxVisits) {
				throw new OverBudgetException("its flows took " + visits + " edge visits, more than " + this.maxVisits);
			}
		}

	}

	/**
	 * The rule would exceed its {@link Budget}.
	 */
	static final class OverBudgetException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		OverBudgetException(String message) {
			super(message);
		}

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
			owned = Set.copyOf(owned);
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
