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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
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
 * the reference's own choice. Every objective is exact: each group of partitions assigned
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
		return new Solver(members, partitions, reference, budget).solve(balance);
	}

	/**
	 * What the cooperative protocol may hand out now: a partition that another member
	 * still owns is withheld, so that its owner revokes it and the next rebalance assigns
	 * it. A partition is never owned by two members at once.
	 * @param target the assignment to reach
	 * @param owned the partitions each member owns now
	 * @return the target without the partitions that change owner
	 */
	public static Map<String, List<TopicPartition>> handOver(Map<String, List<TopicPartition>> target,
			Map<String, ? extends Collection<TopicPartition>> owned) {
		Map<TopicPartition, Object> owners = new HashMap<>();
		owned.forEach((member, partitions) -> partitions.forEach((tp) -> owners.merge(tp, member, (first,
				second) -> (first.equals(second)) ? first : Set.of(first, second))));
		Map<String, List<TopicPartition>> now = new TreeMap<>();
		target.forEach((member, partitions) -> now.put(member, partitions.stream().filter((tp) -> {
			Object current = owners.get(tp);
			return current == null || current.equals(member) || (current instanceof Set<?> set && set.contains(member));
		}).toList()));
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
		Map<TopicPartition, Partition> byPartition = new HashMap<>();
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

		private final List<MemberClass> classes = new ArrayList<>();

		private final Map<String, Integer> zoneIndex = new HashMap<>();

		private final Map<String, Partition[]> byTopic = new TreeMap<>();

		private final Map<TopicPartition, Integer> owners = new HashMap<>();

		private final List<List<TopicPartition>> result = new ArrayList<>();

		private final Map<String, ? extends Collection<TopicPartition>> reference;

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
			Map<String, List<Partition>> grouped = new HashMap<>();
			for (Partition partition : partitions) {
				grouped.computeIfAbsent(partition.partition().topic(), (topic) -> new ArrayList<>()).add(partition);
			}
			grouped.forEach((topic, ofTopic) -> {
				Partition[] sorted = ofTopic.toArray(Partition[]::new);
				Arrays.sort(sorted, Comparator.comparingInt((Partition partition) -> partition.partition().partition()));
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

		Map<String, List<TopicPartition>> solve(Balance balance) {
			boolean zoned = !this.zoneIndex.isEmpty() && this.classes.size() > 1;
			if (balance == Balance.TOTAL) {
				this.byTopic.forEach((topic, partitions) -> solveOwned(List.of(topic), partitions, zoned));
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
		 * A member's partitions in the order the reference lists them, then those it did
		 * not have there, sorted: where the rule changes nothing, the wrapped strategy's
		 * lists come back as they were.
		 */
		private List<TopicPartition> inReferenceOrder(int member) {
			List<TopicPartition> given = this.result.get(member);
			Collection<TopicPartition> theirs = this.reference.get(this.members[member].id());
			if (theirs == null || theirs.isEmpty()) {
				given.sort(PARTITION_ORDER);
				return given;
			}
			Set<TopicPartition> remaining = new HashSet<>(given);
			List<TopicPartition> ordered = new ArrayList<>(given.size());
			for (TopicPartition tp : theirs) {
				if (remaining.remove(tp)) {
					ordered.add(tp);
				}
			}
			if (!remaining.isEmpty()) {
				List<TopicPartition> added = new ArrayList<>(remaining);
				added.sort(PARTITION_ORDER);
				ordered.addAll(added);
			}
			return ordered;
		}

		/**
		 * {@link Balance#TOTAL}: the reference's partitions of one topic, each member
		 * keeping its count.
		 */
		private void solveOwned(List<String> topics, Partition[] partitions, boolean zoned) {
			List<Integer> units = new ArrayList<>();
			for (Partition partition : partitions) {
				if (this.owners.containsKey(partition.partition())) {
					units.add(partition.partition().partition());
				}
			}
			Map<String, Partition[]> ofTopics = Map.of(topics.get(0), partitions);
			Group group = new Group(topics, ofTopics, units.stream().mapToInt(Integer::intValue).toArray(), null, 0, 0);
			solveGroup(group, zoned);
		}

		/**
		 * {@link Balance#PER_TOPIC}: every partition of a set of co-partitioned topics,
		 * within one per subscriber.
		 */
		private void solveBalanced(CoPartitioned set, boolean zoned) {
			Map<String, Partition[]> ofTopics = new LinkedHashMap<>();
			set.topics().forEach((topic) -> ofTopics.put(topic, known(this.byTopic, topic)));
			Partition[] first = known(this.byTopic, set.topics().get(0));
			int[] units = new int[first.length];
			for (int u = 0; u < units.length; u++) {
				units[u] = first[u].partition().partition();
			}
			int subscribers = set.subscribers().length;
			Group group = new Group(set.topics(), ofTopics, units, set.subscribers(), units.length / subscribers,
					units.length % subscribers);
			solveGroup(group, zoned);
		}

		private void solveGroup(Group group, boolean zoned) {
			int unitCount = group.units().length;
			if (unitCount == 0) {
				return;
			}
			int[] owner = new int[unitCount];
			for (int u = 0; u < unitCount; u++) {
				owner[u] = this.owners.getOrDefault(group.topicPartition(0, u), -1);
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
			new GroupFlow(group, owner).solve();
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
			for (int u = 0; u < group.units().length; u++) {
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
			MemberClass reader = this.classes.get(memberClass);
			if (reader.zone() == null) {
				return 0;
			}
			int gain = 0;
			for (int t = 0; t < group.topics().size(); t++) {
				Partition partition = group.partition(t, unit);
				boolean fromLeader = reader.zone().equals(partition.leaderZone());
				boolean local = fromLeader
						|| (reader.policy() == Policy.LOCALITY && partition.inSyncZones().contains(reader.zone()));
				gain += (leader ? fromLeader : local) ? 1 : 0;
			}
			return gain;
		}

		private void give(Group group, int unit, int member) {
			List<TopicPartition> partitions = this.result.get(member);
			for (int t = 0; t < group.topics().size(); t++) {
				partitions.add(group.topicPartition(t, unit));
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
				int unitCount = group.units().length;
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
	 * {@code p} goes to one member. Under {@link Balance#TOTAL} every owner keeps its count
	 * ({@code subscribers} {@code null}); under {@link Balance#PER_TOPIC} each subscriber
	 * gets {@code floor}, and {@code extras} of them one more.
	 */
	private record Group(List<String> topics, Map<String, Partition[]> partitions, int[] units,
			int @Nullable [] subscribers, int floor, int extras) {

		/**
		 * The partition of a unit in one of the topics.
		 */
		Partition partition(int topic, int unit) {
			Partition[] ofTopic = known(this.partitions, this.topics.get(topic));
			int number = this.units[unit];
			Partition partition = (number < ofTopic.length) ? ofTopic[number] : null;
			if (partition == null || partition.partition().partition() != number) {
				partition = Arrays.stream(ofTopic)
					.filter((candidate) -> candidate.partition().partition() == number)
					.findFirst()
					.orElseThrow();
			}
			return partition;
		}

		TopicPartition topicPartition(int topic, int unit) {
			return partition(topic, unit).partition();
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
	 * group, and the same owner in the reference.
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
