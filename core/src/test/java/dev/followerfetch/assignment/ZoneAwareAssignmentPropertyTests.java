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
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignor;
import org.apache.kafka.common.TopicPartition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invariants of the zone-aware rule over generated groups whose reference is what
 * Kafka's own assignor (range, round-robin or cooperative-sticky) assigns them, and, for
 * groups small enough to enumerate, its result against the best of every assignment that
 * keeps the wrapped assignor's guarantees.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignmentPropertyTests {

	private static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	@Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
	void everyPartitionTheWrappedAssignorPlacesGoesToExactlyOneMemberSubscribedToItsTopic(
			@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> assignment = group.assign();
		List<TopicPartition> assigned = assignment.values().stream().flatMap(List::stream).toList();
		assertThat(assigned).doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(group.reference().values().stream().flatMap(List::stream).toList());
		assertThat(assignment.keySet()).containsExactlyInAnyOrderElementsOf(group.members().stream().map(Member::id).toList());
		assignment.forEach((member, partitions) -> assertThat(partitions)
			.allSatisfy((tp) -> assertThat(group.member(member).topics()).contains(tp.topic())));
	}

	@Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
	void theWrappedAssignorsBalanceAndCoPartitioningHold(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> assignment = group.assign();
		assertThat(group.keepsGuarantees(assignment)).as("%s gives %s", group, assignment).isTrue();
	}

	@Property(tries = 400, edgeCases = EdgeCasesMode.NONE)
	void theGateLetsEveryAssignmentOfTheRuleThrough(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> assignment = group.assign();
		assertThat(AssignmentGate.check(group.members(), group.partitions(), group.balance(), group.reference(),
				assignment, ZoneAwareAssignment.handOver(assignment, Map.of())))
			.as("%s gives %s", group, assignment)
			.isNull();
	}

	@Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
	void smallGroupsGetTheBestAssignmentThatKeepsTheGuaranteesInLeaderZoneThenZoneThenTheReference(
			@ForAll("smallGroups") Group group) {
		long[] best = null;
		for (Map<String, List<TopicPartition>> candidate : group.everyAssignment()) {
			if (group.keepsGuarantees(candidate)) {
				long[] score = group.score(candidate);
				if (best == null || compare(score, best) > 0) {
					best = score;
				}
			}
		}
		assertThat(group.score(group.assign())).as("(leader zone, zone, kept) of %s", group).containsExactly(best);
	}

	@Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
	void theLocalityTheRealignerComparesIsCountedAsReadersSeeIt(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> assignment = group.assign();
		ZoneAwareAssignment.Locality locality = ZoneAwareAssignment.locality(assignment, group.members(),
				group.partitions());
		assertThat(new long[] { locality.leaderZone(), locality.zoneLocal() }).containsExactly(group.locality(assignment));
	}

	@Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
	void theSameGroupInAnotherOrderGetsTheSameAssignment(@ForAll("groups") Group group) {
		List<Member> members = new ArrayList<>(group.members());
		List<Partition> partitions = new ArrayList<>(group.partitions());
		Collections.reverse(members);
		Collections.reverse(partitions);
		assertThat(ZoneAwareAssignment.assign(members, partitions, group.balance(), group.reference()))
			.isEqualTo(group.assign());
	}

	@Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
	void staticMembersKeepTheirPartitionsWhenOnlyTheirMemberIdsChange(@ForAll("staticGroups") Group group) {
		Group renamed = group.renamed();
		Map<String, Set<TopicPartition>> before = group.byInstance(group.assign());
		Map<String, Set<TopicPartition>> after = renamed.byInstance(renamed.assign());
		assertThat(after).isEqualTo(before);
	}

	@Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
	void anAssignmentIsKeptWhenTheWrappedStrategyKeepsIt(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> first = group.assign();
		Map<String, List<TopicPartition>> again = (group.balance() == Balance.TOTAL)
				? ZoneAwareAssignment.assign(group.members(), group.partitions(), Balance.TOTAL, first) : group.assign();
		assertThat(sets(again)).isEqualTo(sets(first));
	}

	@Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
	void theCooperativeHandOverNeverGivesAPartitionAnotherMemberOwnsAndEndsInTheTargetInTwoRounds(
			@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> owned = group.owned();
		Map<String, List<TopicPartition>> target = group.assign();
		Map<String, List<TopicPartition>> first = ZoneAwareAssignment.handOver(target, owned);
		first.forEach((member, partitions) -> partitions.forEach((tp) -> owned.forEach((other, its) -> {
			if (!other.equals(member)) {
				assertThat(its).as("%s given to %s", tp, member).doesNotContain(tp);
			}
		})));
		assertThat(ZoneAwareAssignment.handOver(target, first)).as("once the owners revoked what they lost")
			.isEqualTo(target);
	}

	@Property(tries = 300, edgeCases = EdgeCasesMode.NONE)
	void keepingOwnedPartitionsEachMemberKeepsAsManyOfThemAsItsCountsAllowAndTheCountsStayTheWrappedStrategys(
			@ForAll("groups") Group group) {
		// a group of one class of members in no zone keeps the wrapped strategy's assignment as it is
		Assume.that(group.balance() == Balance.TOTAL && group.members().stream().anyMatch((m) -> m.zone() != null)
				&& group.members().stream().map((m) -> Objects.toString(m.zone()) + m.policy()).distinct().count() > 1);
		Map<String, List<TopicPartition>> owned = group.owned();
		List<Member> owning = group.members()
			.stream()
			.map((member) -> new Member(member.id(), member.instance(), member.zone(), member.policy(),
					member.topics(), Set.copyOf(owned.get(member.id()))))
			.toList();
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(owning, group.partitions(),
				Balance.TOTAL, group.reference(), Budget.DEFAULT, true);
		Set<TopicPartition> pool = new HashSet<>();
		group.reference().values().forEach(pool::addAll);
		for (Member member : owning) {
			Map<String, Long> counts = perTopic(group.reference().getOrDefault(member.id(), List.of()));
			Map<String, Long> given = perTopic(assignment.get(member.id()));
			assertThat(given).as("counts of %s", member.id()).isEqualTo(counts);
			Map<String, Long> ownable = perTopic(member.owned().stream().filter(pool::contains).toList());
			Map<String, Long> kept = perTopic(
					assignment.get(member.id()).stream().filter(member.owned()::contains).toList());
			ownable.forEach((topic, count) -> assertThat(kept.getOrDefault(topic, 0L))
				.as("owned partitions of %s kept by %s", topic, member.id())
				.isEqualTo(Math.min(count, counts.getOrDefault(topic, 0L))));
		}
	}

	private static Map<String, Long> perTopic(Collection<TopicPartition> partitions) {
		return partitions.stream().collect(Collectors.groupingBy(TopicPartition::topic, Collectors.counting()));
	}

	@Property(tries = 6, generation = GenerationMode.EXHAUSTIVE, edgeCases = EdgeCasesMode.NONE)
	void theRuleStaysWithinMemoryLinearInPartitionsAndMembersUpToKafkasLargestGroups(
			@ForAll("largeGroups") Group group) {
		long partitions = group.partitions().size();
		long members = group.members().size();
		// every flow has fewer edges than 8 per partition and member, about 72 bytes each
		Budget linear = new Budget(8 * (partitions + members) + 64, Long.MAX_VALUE, Duration.ofSeconds(60), 0);
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(group.members(), group.partitions(),
				group.balance(), group.reference(), linear.startingNow());
		assertThat(group.keepsGuarantees(assignment)).isTrue();
	}

	@Provide
	Arbitrary<Group> groups() {
		return groups(6, 8, 3, false);
	}

	@Provide
	Arbitrary<Group> smallGroups() {
		return groups(3, 3, 2, false);
	}

	@Provide
	Arbitrary<Group> staticGroups() {
		return groups(6, 8, 3, true);
	}

	@Provide
	Arbitrary<Group> largeGroups() {
		// The corners of Kafka's ClientSideAssignorBenchmark, each once: 10,000 members, 1,000 topics, 50
		// partitions a member, both balances. Drawn at random, its 36 combinations made this test take from
		// 5 s to 18 minutes; a million partitions are Kafka's own large tests (the kafka-assignor-large leg)
		return Arbitraries
			.of(new LargeGroup(10_000, 5, 1_000, Balance.TOTAL), new LargeGroup(10_000, 5, 10, Balance.PER_TOPIC),
					new LargeGroup(1_000, 50, 1_000, Balance.PER_TOPIC), new LargeGroup(1_000, 50, 10, Balance.TOTAL),
					new LargeGroup(100, 50, 100, Balance.TOTAL), new LargeGroup(100, 5, 1_000, Balance.PER_TOPIC))
			.map((large) -> Group.large(large.members(), large.partitionsPerMember(), large.topics(),
					large.balance()));
	}

	private record LargeGroup(int members, int partitionsPerMember, int topics, Balance balance) {

	}

	private static Arbitrary<Group> groups(int maxMembers, int maxPartitionsOfFirst, int maxPartitionsOfSecond,
			boolean allStatic) {
		Arbitrary<String> zone = Arbitraries.of("az-a", "az-b", "az-c", "none").map((z) -> z.equals("none") ? null : z);
		Arbitrary<List<MemberSeed>> memberSeeds = Combinators
			.combine(zone, Arbitraries.of(Policy.class), Arbitraries.integers().between(0, 2),
					Arbitraries.of(true, false).map((instance) -> instance || allStatic))
			.as(MemberSeed::new)
			.list()
			.ofMinSize(1)
			.ofMaxSize(maxMembers);
		Arbitrary<List<PartitionSeed>> partitionSeeds = Combinators
			.combine(zone, Arbitraries.subsetOf(ZONES), Arbitraries.of("t1", "t2"))
			.as(PartitionSeed::new)
			.list()
			.ofMinSize(1)
			.ofMaxSize(maxPartitionsOfFirst + maxPartitionsOfSecond);
		return Combinators.combine(memberSeeds, partitionSeeds, Arbitraries.of(Inner.class)).as(Group::of);
	}

	private static int compare(long[] left, long[] right) {
		for (int i = 0; i < left.length; i++) {
			if (left[i] != right[i]) {
				return Long.compare(left[i], right[i]);
			}
		}
		return 0;
	}

	private static Map<String, Set<TopicPartition>> sets(Map<String, List<TopicPartition>> assignment) {
		Map<String, Set<TopicPartition>> sets = new TreeMap<>();
		assignment.forEach((member, partitions) -> sets.put(member, new HashSet<>(partitions)));
		return sets;
	}

	/**
	 * Kafka's assignor that makes the reference.
	 */
	enum Inner {

		RANGE(Balance.PER_TOPIC), ROUND_ROBIN(Balance.TOTAL), COOPERATIVE_STICKY(Balance.TOTAL);

		private final Balance balance;

		Inner(Balance balance) {
			this.balance = balance;
		}

		AbstractPartitionAssignor assignor() {
			return switch (this) {
				case RANGE -> new RangeAssignor();
				case ROUND_ROBIN -> new RoundRobinAssignor();
				case COOPERATIVE_STICKY -> new CooperativeStickyAssignor();
			};
		}

	}

	record MemberSeed(String zone, Policy policy, int topics, boolean instance) {

	}

	record PartitionSeed(String leaderZone, Set<String> followerZones, String topic) {

	}

	record Group(List<Member> members, List<Partition> partitions, Balance balance,
			Map<String, List<TopicPartition>> reference) {

		static Group of(List<MemberSeed> memberSeeds, List<PartitionSeed> partitionSeeds, Inner inner) {
			Map<String, Integer> counts = new TreeMap<>();
			List<Partition> partitions = new ArrayList<>();
			for (PartitionSeed seed : partitionSeeds) {
				TopicPartition tp = new TopicPartition(seed.topic(), counts.merge(seed.topic(), 1, Integer::sum) - 1);
				Set<String> inSync = new TreeSet<>(seed.followerZones());
				if (seed.leaderZone() != null) {
					inSync.add(seed.leaderZone());
				}
				partitions.add(new Partition(tp, seed.leaderZone(), inSync));
			}
			List<Member> members = new ArrayList<>();
			for (int i = 0; i < memberSeeds.size(); i++) {
				MemberSeed seed = memberSeeds.get(i);
				TreeSet<String> topics = new TreeSet<>(counts.keySet());
				// 0: every topic; 1: the first; 2: the last
				Set<String> subscribed = switch (seed.topics()) {
					case 1 -> Set.of(topics.first());
					case 2 -> Set.of(topics.last());
					default -> topics;
				};
				members.add(new Member("member-" + i, seed.instance() ? "instance-" + (memberSeeds.size() - i) : null,
						seed.zone(), seed.policy(), subscribed, Set.of()));
			}
			return assigned(members, partitions, inner);
		}

		static Group assigned(List<Member> members, List<Partition> partitions, Inner inner) {
			Set<String> read = new HashSet<>();
			members.forEach((member) -> read.addAll(member.topics()));
			List<Partition> readPartitions = partitions.stream()
				.filter((partition) -> read.contains(partition.partition().topic()))
				.toList();
			Map<String, Integer> partitionsPerTopic = new TreeMap<>();
			readPartitions.forEach((partition) -> partitionsPerTopic.merge(partition.partition().topic(), 1, Integer::sum));
			Map<String, Subscription> subscriptions = new HashMap<>();
			for (Member member : members) {
				Subscription subscription = new Subscription(new ArrayList<>(member.topics()));
				subscription.setGroupInstanceId(Optional.ofNullable(member.instance()));
				subscriptions.put(member.id(), subscription);
			}
			Map<String, List<TopicPartition>> reference = new HashMap<>(
					inner.assignor().assign(partitionsPerTopic, subscriptions));
			return new Group(members, readPartitions, inner.balance, reference);
		}

		/**
		 * Kafka's benchmark sizes: members spread over the zones, half of them LOCALITY,
		 * every member on every topic, leaders rotating over the zones (RF=3).
		 */
		static Group large(int members, int partitionsPerMember, int topics, Balance balance) {
			int total = members * partitionsPerMember;
			int perTopic = Math.max(1, total / topics);
			List<Partition> partitions = new ArrayList<>();
			Set<String> all = new TreeSet<>();
			for (int t = 0; t < topics; t++) {
				String topic = "t" + t;
				all.add(topic);
				for (int p = 0; p < perTopic; p++) {
					partitions.add(new Partition(new TopicPartition(topic, p), ZONES.get((t + p) % 3), Set.copyOf(ZONES)));
				}
			}
			List<Member> group = new ArrayList<>();
			for (int m = 0; m < members; m++) {
				group.add(new Member("member-" + m, null, ZONES.get((m * 7) % 3),
						(m % 2 == 0) ? Policy.LOCALITY : Policy.FRESHNESS, all, Set.of()));
			}
			return assigned(group, partitions, (balance == Balance.PER_TOPIC) ? Inner.RANGE : Inner.ROUND_ROBIN);
		}

		Map<String, List<TopicPartition>> assign() {
			return ZoneAwareAssignment.assign(this.members, this.partitions, this.balance, this.reference);
		}

		Member member(String id) {
			return this.members.stream().filter((member) -> member.id().equals(id)).findFirst().orElseThrow();
		}

		/**
		 * The same group, every member with another member id.
		 */
		Group renamed() {
			Map<String, String> names = new HashMap<>();
			List<Member> renamed = this.members.stream().map((member) -> {
				String name = "renamed-" + (this.members.size() - this.members.indexOf(member));
				names.put(member.id(), name);
				return new Member(name, member.instance(), member.zone(), member.policy(), member.topics(),
						member.owned());
			}).toList();
			Map<String, List<TopicPartition>> reference = new HashMap<>();
			this.reference.forEach((member, partitions) -> reference.put(names.get(member), partitions));
			return new Group(renamed, this.partitions, this.balance, reference);
		}

		Map<String, Set<TopicPartition>> byInstance(Map<String, List<TopicPartition>> assignment) {
			Map<String, Set<TopicPartition>> byInstance = new TreeMap<>();
			assignment.forEach((member, partitions) -> byInstance
				.put(Objects.requireNonNull(member(member).instance()), new HashSet<>(partitions)));
			return byInstance;
		}

		/**
		 * What each member would own had the reference been the last assignment, but
		 * for a third of the partitions moved to the next member: partitions for the
		 * hand-over to withhold.
		 */
		Map<String, List<TopicPartition>> owned() {
			Map<String, List<TopicPartition>> owned = new TreeMap<>();
			this.members.forEach((member) -> owned.put(member.id(), new ArrayList<>()));
			List<String> ids = new ArrayList<>(owned.keySet());
			this.reference.forEach((member, partitions) -> {
				for (int i = 0; i < partitions.size(); i++) {
					String owner = (i % 3 == 0) ? ids.get((ids.indexOf(member) + 1) % ids.size()) : member;
					owned.get(owner).add(partitions.get(i));
				}
			});
			return owned;
		}

		/**
		 * The wrapped assignor's guarantees: each partition of the reference once (range:
		 * every partition), to a subscriber; range: within one per topic among its
		 * subscribers and co-partitioned topics together; the others: each member's count
		 * of each topic as in the reference.
		 */
		boolean keepsGuarantees(Map<String, List<TopicPartition>> assignment) {
			Map<String, Map<String, Integer>> counts = counts(assignment);
			if (this.balance == Balance.TOTAL) {
				Map<String, Map<String, Integer>> theirs = counts(this.reference);
				return this.members.stream()
					.allMatch((member) -> counts.getOrDefault(member.id(), Map.of())
						.equals(theirs.getOrDefault(member.id(), Map.of())));
			}
			Map<String, List<String>> subscribers = new TreeMap<>();
			this.members.forEach((member) -> member.topics()
				.forEach((topic) -> subscribers.computeIfAbsent(topic, (key) -> new ArrayList<>()).add(member.id())));
			for (Map.Entry<String, List<String>> topic : subscribers.entrySet()) {
				List<Integer> loads = topic.getValue()
					.stream()
					.map((member) -> counts.getOrDefault(member, Map.of()).getOrDefault(topic.getKey(), 0))
					.toList();
				if (Collections.max(loads) - Collections.min(loads) > 1) {
					return false;
				}
			}
			Map<TopicPartition, String> owner = new HashMap<>();
			assignment.forEach((member, partitions) -> partitions.forEach((tp) -> owner.put(tp, member)));
			Map<String, Long> sizes = new TreeMap<>();
			this.partitions.forEach((partition) -> sizes.merge(partition.partition().topic(), 1L, Long::sum));
			for (String topic : subscribers.keySet()) {
				for (String other : subscribers.keySet()) {
					if (topic.compareTo(other) < 0 && new HashSet<>(subscribers.get(topic)).equals(new HashSet<>(subscribers.get(other)))
							&& sizes.get(topic).equals(sizes.get(other))) {
						for (int p = 0; p < sizes.get(topic); p++) {
							if (!Objects.equals(owner.get(new TopicPartition(topic, p)), owner.get(new TopicPartition(other, p)))) {
								return false;
							}
						}
					}
				}
			}
			return true;
		}

		private static Map<String, Map<String, Integer>> counts(Map<String, ? extends Collection<TopicPartition>> assignment) {
			Map<String, Map<String, Integer>> counts = new TreeMap<>();
			assignment.forEach((member, partitions) -> {
				Map<String, Integer> of = new TreeMap<>();
				partitions.forEach((tp) -> of.merge(tp.topic(), 1, Integer::sum));
				counts.put(member, of);
			});
			return counts;
		}

		/**
		 * (partitions in their leader's zone, partitions read in-zone, partitions where the
		 * reference put them): higher is better, compared in that order.
		 */
		long[] score(Map<String, List<TopicPartition>> assignment) {
			long[] locality = locality(assignment);
			long kept = 0;
			for (Map.Entry<String, List<TopicPartition>> member : assignment.entrySet()) {
				List<TopicPartition> theirs = this.reference.getOrDefault(member.getKey(), List.of());
				kept += member.getValue().stream().filter(theirs::contains).count();
			}
			return new long[] { locality[0], locality[1], kept };
		}

		/**
		 * (partitions whose owner is in their leader's zone, partitions their owner reads
		 * in its zone: from the leader there, or, for a LOCALITY owner, from an in-sync
		 * replica there), counted here rather than by the rule's own code.
		 */
		long[] locality(Map<String, List<TopicPartition>> assignment) {
			long leaderZone = 0;
			long zoneLocal = 0;
			for (Member member : this.members) {
				for (TopicPartition tp : assignment.getOrDefault(member.id(), List.of())) {
					Partition partition = this.partitions.stream()
						.filter((candidate) -> candidate.partition().equals(tp))
						.findFirst()
						.orElseThrow();
					boolean leader = member.zone() != null && member.zone().equals(partition.leaderZone());
					boolean follower = member.zone() != null && member.policy() == Policy.LOCALITY
							&& partition.inSyncZones().contains(member.zone());
					leaderZone += leader ? 1 : 0;
					zoneLocal += (leader || follower) ? 1 : 0;
				}
			}
			return new long[] { leaderZone, zoneLocal };
		}

		/**
		 * Every assignment of each partition the reference places to a member subscribed
		 * to its topic.
		 */
		Collection<Map<String, List<TopicPartition>>> everyAssignment() {
			List<TopicPartition> placed = this.reference.values().stream().flatMap(List::stream).toList();
			List<Map<String, List<TopicPartition>>> all = new ArrayList<>();
			int[] choice = new int[placed.size()];
			List<List<Member>> eligible = placed.stream()
				.map((tp) -> this.members.stream().filter((member) -> member.topics().contains(tp.topic())).toList())
				.toList();
			while (true) {
				Map<String, List<TopicPartition>> assignment = new TreeMap<>();
				this.members.forEach((member) -> assignment.put(member.id(), new ArrayList<>()));
				for (int i = 0; i < choice.length; i++) {
					assignment.get(eligible.get(i).get(choice[i]).id()).add(placed.get(i));
				}
				all.add(assignment);
				int i = 0;
				while (i < choice.length && ++choice[i] == eligible.get(i).size()) {
					choice[i] = 0;
					i++;
				}
				if (i == choice.length) {
					return all;
				}
			}
		}

	}

}
