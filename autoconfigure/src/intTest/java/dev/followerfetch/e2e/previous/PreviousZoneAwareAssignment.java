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
package dev.followerfetch.e2e.previous;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.followerfetch.Policy;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * The previous release's own code, kept as it was (but for its name) so that tests can run
 * groups that mix it with this release, as a rolling upgrade does.
 * <p>
 * The zone-aware assignment rule, without Kafka's client: which member of a consumer
 * group reads which partition. In this order: balance as Kafka's own assignors keep it,
 * then each partition to a member in its leader's zone (the rack-aware selector serves a
 * member from the leader when they share a zone, whatever its policy), then, for
 * LOCALITY members, to a member in a zone with an in-sync replica, then stickiness (owned
 * partitions stay). Every objective is exact: the rule is a minimum-cost flow whose costs
 * are compared in that order. Deterministic for the same input.
 *
 * @author follower-fetch authors
 */
public final class PreviousZoneAwareAssignment {

	private static final Comparator<TopicPartition> PARTITION_ORDER = Comparator.comparing(TopicPartition::topic)
		.thenComparingInt(TopicPartition::partition);

	private PreviousZoneAwareAssignment() {
	}

	/**
	 * Assign every partition to one member.
	 * @param members the group's members
	 * @param partitions the partitions of the topics they subscribe to
	 * @param balance how partitions per member are kept even
	 * @return the partitions of each member (every member present, lists sorted)
	 */
	public static Map<String, List<TopicPartition>> assign(Collection<Member> members,
			Collection<Partition> partitions, Balance balance) {
		List<Member> sortedMembers = members.stream().sorted(Comparator.comparing(Member::id)).toList();
		List<Partition> sortedPartitions = partitions.stream()
			.sorted(Comparator.comparing(Partition::partition, PARTITION_ORDER))
			.toList();
		Map<String, List<TopicPartition>> assignment = new TreeMap<>();
		sortedMembers.forEach((member) -> assignment.put(member.id(), new ArrayList<>()));
		if (balance == Balance.PER_TOPIC) {
			Map<String, List<Partition>> byTopic = new TreeMap<>();
			sortedPartitions.forEach((partition) -> byTopic
				.computeIfAbsent(partition.partition().topic(), (topic) -> new ArrayList<>())
				.add(partition));
			byTopic.forEach((topic, ofTopic) -> solve(
					sortedMembers.stream().filter((member) -> member.topics().contains(topic)).toList(), ofTopic,
					assignment));
		}
		else {
			solve(sortedMembers, sortedPartitions, assignment);
		}
		assignment.values().forEach((assigned) -> assigned.sort(PARTITION_ORDER));
		return assignment;
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
		Map<TopicPartition, Set<String>> owners = new HashMap<>();
		owned.forEach((member, partitions) -> partitions
			.forEach((tp) -> owners.computeIfAbsent(tp, (key) -> new TreeSet<>()).add(member)));
		Map<String, List<TopicPartition>> now = new TreeMap<>();
		target.forEach((member, partitions) -> now.put(member, partitions.stream().filter((tp) -> {
			Set<String> current = owners.get(tp);
			return current == null || current.contains(member);
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
				MemberClass reader = MemberClass.of(member, true);
				PartitionClass read = PartitionClass.of(partition, true);
				leaderZone += read.leaderGain(reader);
				zoneLocal += read.localGain(reader);
			}
		}
		return new Locality(assigned, leaderZone, zoneLocal);
	}

	private static void solve(List<Member> members, List<Partition> partitions,
			Map<String, List<TopicPartition>> assignment) {
		if (members.isEmpty() || partitions.isEmpty()) {
			return;
		}
		Set<String> topics = new TreeSet<>();
		partitions.forEach((partition) -> topics.add(partition.partition().topic()));
		boolean sameTopics = members.stream().allMatch((member) -> member.topics().containsAll(topics));
		PreviousLexicographicFlow flow = new PreviousLexicographicFlow();
		int source = flow.node();
		int sink = flow.node();

		Map<MemberClass, Integer> memberClasses = new LinkedHashMap<>();
		Map<MemberClass, List<Member>> membersOf = new LinkedHashMap<>();
		Map<String, Integer> memberNodes = new HashMap<>();
		Map<String, Integer> toMember = new LinkedHashMap<>();
		for (Member member : members) {
			MemberClass key = MemberClass.of(member, sameTopics);
			int classNode = memberClasses.computeIfAbsent(key, (k) -> flow.node());
			membersOf.computeIfAbsent(key, (k) -> new ArrayList<>()).add(member);
			int node = flow.node();
			memberNodes.put(member.id(), node);
			toMember.put(member.id(), flow.edge(classNode, node, PreviousLexicographicFlow.UNBOUNDED));
		}
		limitLoads(flow, members, partitions, sameTopics, memberNodes, sink);

		Map<String, Member> byId = new HashMap<>();
		members.forEach((member) -> byId.put(member.id(), member));
		Map<TopicPartition, String> owners = owners(members);
		Map<PartitionClass, Integer> partitionClasses = new LinkedHashMap<>();
		Map<Group, List<TopicPartition>> groups = new LinkedHashMap<>();
		for (Partition partition : partitions) {
			String owner = owners.get(partition.partition());
			PartitionClass key = PartitionClass.of(partition, sameTopics);
			partitionClasses.computeIfAbsent(key, (k) -> flow.node());
			groups.computeIfAbsent(new Group(key, owner), (k) -> new ArrayList<>()).add(partition.partition());
		}
		Map<Group, Integer> kept = new LinkedHashMap<>();
		groups.forEach((group, ofGroup) -> {
			int classNode = known(partitionClasses, group.key());
			String owner = group.owner();
			if (owner == null) {
				flow.edge(source, classNode, ofGroup.size());
				return;
			}
			int node = flow.node();
			flow.edge(source, node, ofGroup.size());
			flow.edge(node, classNode, ofGroup.size());
			MemberClass ownerClass = MemberClass.of(known(byId, owner), true);
			kept.put(group, flow.edge(node, known(memberNodes, owner), ofGroup.size(), 0,
					-group.key().leaderGain(ownerClass), -group.key().localGain(ownerClass), -1));
		});
		Map<PartitionClass, Map<MemberClass, Integer>> classFlows = new LinkedHashMap<>();
		partitionClasses.forEach((partitionClass, classNode) -> memberClasses.forEach((memberClass, memberNode) -> {
			if (memberClass.topics() == null || memberClass.topics().contains(partitionClass.topic())) {
				classFlows.computeIfAbsent(partitionClass, (k) -> new LinkedHashMap<>())
					.put(memberClass, flow.edge(classNode, memberNode, PreviousLexicographicFlow.UNBOUNDED, 0,
							-partitionClass.leaderGain(memberClass), -partitionClass.localGain(memberClass), 0));
			}
		}));
		flow.solve(source, sink);

		Map<PartitionClass, Deque<TopicPartition>> released = new LinkedHashMap<>();
		groups.forEach((group, ofGroup) -> {
			Integer keptEdge = kept.get(group);
			int keep = (keptEdge != null) ? (int) flow.flow(keptEdge) : 0;
			if (keep > 0) {
				known(assignment, Objects.requireNonNull(group.owner())).addAll(ofGroup.subList(0, keep));
			}
			released.computeIfAbsent(group.key(), (k) -> new ArrayDeque<>()).addAll(ofGroup.subList(keep, ofGroup.size()));
		});
		membersOf.forEach((memberClass, ofClass) -> {
			Deque<Member> readers = new ArrayDeque<>(ofClass);
			Member first = readers.peek();
			long room = (first != null) ? flow.flow(known(toMember, first.id())) : 0;
			for (Map.Entry<PartitionClass, Map<MemberClass, Integer>> classFlow : classFlows.entrySet()) {
				Integer edge = classFlow.getValue().get(memberClass);
				long units = (edge != null) ? flow.flow(edge) : 0;
				Deque<TopicPartition> pool = released.get(classFlow.getKey());
				for (long unit = 0; unit < units; unit++) {
					while (room == 0) {
						readers.poll();
						room = flow.flow(known(toMember, Objects.requireNonNull(readers.peek()).id()));
					}
					Member reader = Objects.requireNonNull(readers.peek());
					known(assignment, reader.id()).add(Objects.requireNonNull(pool).poll());
					room--;
				}
			}
		});
	}

	/**
	 * A value the rule put in the map itself, for a key it knows is there.
	 */
	private static <K, V> V known(Map<K, V> map, K key) {
		return Objects.requireNonNull(map.get(key), () -> "no entry for " + key);
	}

	/**
	 * Give every member a load limit whose cost makes the flow balanced before anything
	 * else: with the same topics, at least the even share (each unit below it earns) and
	 * at most one more; otherwise each further partition costs more than the last, which
	 * makes the loads as even as eligibility allows.
	 */
	private static void limitLoads(PreviousLexicographicFlow flow, List<Member> members, List<Partition> partitions,
			boolean sameTopics, Map<String, Integer> memberNodes, int sink) {
		if (sameTopics) {
			int share = partitions.size() / members.size();
			boolean remainder = partitions.size() % members.size() != 0;
			for (Member member : members) {
				int node = known(memberNodes, member.id());
				if (share > 0) {
					flow.edge(node, sink, share, -1);
				}
				if (remainder) {
					flow.edge(node, sink, 1);
				}
			}
			return;
		}
		for (Member member : members) {
			long eligible = partitions.stream()
				.filter((partition) -> member.topics().contains(partition.partition().topic()))
				.count();
			int node = known(memberNodes, member.id());
			for (int load = 1; load <= eligible; load++) {
				flow.edge(node, sink, 1, load);
			}
		}
	}

	/**
	 * The member that owns each partition and may keep it: the first by id that claims
	 * it and still subscribes to its topic.
	 */
	private static Map<TopicPartition, String> owners(List<Member> members) {
		Map<TopicPartition, String> owners = new HashMap<>();
		for (Member member : members) {
			member.owned()
				.stream()
				.filter((tp) -> member.topics().contains(tp.topic()))
				.forEach((tp) -> owners.putIfAbsent(tp, member.id()));
		}
		return owners;
	}

	/**
	 * How partitions per member are kept even.
	 */
	public enum Balance {

		/**
		 * Within each topic, among the members subscribed to it, as Kafka's range
		 * assignor does.
		 */
		PER_TOPIC,

		/**
		 * Across all the partitions of the subscription, as Kafka's sticky,
		 * cooperative-sticky and round-robin assignors do.
		 */
		TOTAL

	}

	/**
	 * One member of the group.
	 *
	 * @param id the member id
	 * @param zone the zone it runs in, or {@code null} when it has none
	 * @param policy where it reads from: LOCALITY members read an in-sync replica in
	 * their zone, FRESHNESS members the leader
	 * @param topics the topics it subscribes to
	 * @param owned the partitions it owns now, or owned last
	 */
	public record Member(String id, @Nullable String zone, Policy policy, Set<String> topics,
			Set<TopicPartition> owned) {

		public Member {
			topics = Set.copyOf(topics);
			owned = Set.copyOf(owned);
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

	/**
	 * Members that are alike for the rule: same zone and policy, and the same topics
	 * when the members' topics differ ({@code null} when they do not).
	 */
	private record MemberClass(@Nullable String zone, Policy policy, @Nullable SortedSet<String> topics) {

		static MemberClass of(Member member, boolean sameTopics) {
			return new MemberClass(member.zone(), member.policy(), sameTopics ? null : new TreeSet<>(member.topics()));
		}

	}

	/**
	 * Partitions that are alike for the rule: same leader zone and in-sync zones, and the
	 * same topic when the members' topics differ (empty when they do not).
	 */
	private record PartitionClass(@Nullable String leaderZone, SortedSet<String> inSyncZones, String topic) {

		static PartitionClass of(Partition partition, boolean sameTopics) {
			return new PartitionClass(partition.leaderZone(), new TreeSet<>(partition.inSyncZones()),
					sameTopics ? "" : partition.partition().topic());
		}

		int leaderGain(MemberClass reader) {
			return (reader.zone() != null && reader.zone().equals(this.leaderZone)) ? 1 : 0;
		}

		int localGain(MemberClass reader) {
			boolean follower = reader.policy() == Policy.LOCALITY && reader.zone() != null
					&& this.inSyncZones.contains(reader.zone());
			return (leaderGain(reader) == 1 || follower) ? 1 : 0;
		}

	}

	/**
	 * Partitions of one class with the same owner ({@code null} for none).
	 */
	private record Group(PartitionClass key, @Nullable String owner) {

	}

}
