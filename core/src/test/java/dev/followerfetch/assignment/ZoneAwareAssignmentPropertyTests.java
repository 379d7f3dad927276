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
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.TopicPartition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The invariants of the zone-aware rule over generated groups, and, for groups small
 * enough to enumerate, its result against the best of every possible assignment.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignmentPropertyTests {

	private static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	@Property(tries = 400)
	void everyPartitionGoesToExactlyOneMemberSubscribedToItsTopic(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> assignment = group.assign();
		List<TopicPartition> assigned = assignment.values().stream().flatMap(List::stream).toList();
		assertThat(assigned).doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(group.partitions().stream().map(Partition::partition).toList());
		assertThat(assignment.keySet()).containsExactlyInAnyOrderElementsOf(group.members().stream().map(Member::id).toList());
		assignment.forEach((member, partitions) -> assertThat(partitions)
			.allSatisfy((tp) -> assertThat(group.member(member).topics()).contains(tp.topic())));
	}

	@Property(tries = 400)
	void loadsDifferByAtMostOneWithinATopicOrAcrossTheSubscriptionAsTheBalanceSays(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> assignment = group.assign();
		if (group.balance() == Balance.PER_TOPIC) {
			for (String topic : group.topics()) {
				List<Integer> loads = group.members()
					.stream()
					.filter((member) -> member.topics().contains(topic))
					.map((member) -> (int) assignment.get(member.id()).stream().filter((tp) -> tp.topic().equals(topic)).count())
					.toList();
				assertThat(Collections.max(loads) - Collections.min(loads)).as("loads of %s: %s", topic, loads)
					.isLessThanOrEqualTo(1);
			}
		}
		else if (group.sameTopics()) {
			List<Integer> loads = assignment.values().stream().map(List::size).toList();
			assertThat(Collections.max(loads) - Collections.min(loads)).as("loads %s", loads).isLessThanOrEqualTo(1);
		}
	}

	@Property(tries = 300)
	void smallGroupsGetTheBestAssignmentThereIsInBalanceThenLeaderZoneThenZoneThenStickiness(
			@ForAll("smallGroups") Group group) {
		long[] best = null;
		for (Map<String, List<TopicPartition>> candidate : group.everyAssignment()) {
			long[] score = group.score(candidate);
			if (best == null || compare(score, best) > 0) {
				best = score;
			}
		}
		assertThat(group.score(group.assign())).as("(-imbalance, leader zone, zone, kept) of %s", group)
			.containsExactly(best);
	}

	@Property(tries = 300)
	void theLocalityTheRealignerComparesIsCountedAsReadersSeeIt(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> assignment = group.assign();
		ZoneAwareAssignment.Locality locality = ZoneAwareAssignment.locality(assignment, group.members(),
				group.partitions());
		assertThat(new long[] { locality.leaderZone(), locality.zoneLocal() }).containsExactly(group.locality(assignment));
		assertThat(locality.partitions()).isEqualTo(group.partitions().size());
	}

	@Property(tries = 300)
	void theSameGroupInAnotherOrderGetsTheSameAssignment(@ForAll("groups") Group group) {
		List<Member> members = new ArrayList<>(group.members());
		List<Partition> partitions = new ArrayList<>(group.partitions());
		Collections.reverse(members);
		Collections.reverse(partitions);
		assertThat(ZoneAwareAssignment.assign(members, partitions, group.balance())).isEqualTo(group.assign());
	}

	@Property(tries = 300)
	void anAssignmentIsKeptWhenNothingChanges(@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> first = group.assign();
		assertThat(group.owning(first).assign()).isEqualTo(first);
	}

	@Property(tries = 300)
	void theCooperativeHandOverNeverGivesAPartitionAnotherMemberOwnsAndEndsInTheTargetInTwoRounds(
			@ForAll("groups") Group group) {
		Map<String, List<TopicPartition>> owned = group.ownedByMember();
		Map<String, List<TopicPartition>> target = group.assign();
		Map<String, List<TopicPartition>> first = ZoneAwareAssignment.handOver(target, owned);
		first.forEach((member, partitions) -> partitions.forEach((tp) -> owned.forEach((other, its) -> {
			if (!other.equals(member)) {
				assertThat(its).as("%s given to %s", tp, member).doesNotContain(tp);
			}
		})));
		Group second = group.owning(first);
		Map<String, List<TopicPartition>> secondTarget = second.assign();
		assertThat(ZoneAwareAssignment.handOver(secondTarget, first)).isEqualTo(secondTarget);
		assertThat(second.score(secondTarget)).startsWith(group.score(target)[0], group.score(target)[1],
				group.score(target)[2]);
	}

	@Provide
	Arbitrary<Group> groups() {
		return groups(6, 3, 8);
	}

	@Provide
	Arbitrary<Group> smallGroups() {
		return groups(3, 2, 3);
	}

	private static Arbitrary<Group> groups(int maxMembers, int maxPartitionsOfSecondTopic, int maxPartitionsOfFirst) {
		Arbitrary<String> zone = Arbitraries.of("az-a", "az-b", "az-c", "none").map((z) -> z.equals("none") ? null : z);
		Arbitrary<List<MemberSeed>> memberSeeds = Combinators
			.combine(zone, Arbitraries.of(Policy.class), Arbitraries.integers().between(0, 2))
			.as(MemberSeed::new)
			.list()
			.ofMinSize(1)
			.ofMaxSize(maxMembers);
		Arbitrary<List<PartitionSeed>> partitionSeeds = Combinators
			.combine(zone, Arbitraries.subsetOf(ZONES), Arbitraries.integers().between(-1, maxMembers - 1),
					Arbitraries.of("t1", "t2"))
			.as(PartitionSeed::new)
			.list()
			.ofMinSize(1)
			.ofMaxSize(maxPartitionsOfFirst + maxPartitionsOfSecondTopic);
		return Combinators.combine(memberSeeds, partitionSeeds, Arbitraries.of(Balance.class)).as(Group::of);
	}

	private static int compare(long[] left, long[] right) {
		for (int i = 0; i < left.length; i++) {
			if (left[i] != right[i]) {
				return Long.compare(left[i], right[i]);
			}
		}
		return 0;
	}

	record MemberSeed(String zone, Policy policy, int topics) {

	}

	record PartitionSeed(String leaderZone, Set<String> followerZones, int owner, String topic) {

	}

	record Group(List<Member> members, List<Partition> partitions, Balance balance) {

		static Group of(List<MemberSeed> memberSeeds, List<PartitionSeed> partitionSeeds, Balance balance) {
			Map<String, Integer> counts = new HashMap<>();
			List<Partition> partitions = new ArrayList<>();
			Map<Integer, Set<TopicPartition>> owned = new HashMap<>();
			for (PartitionSeed seed : partitionSeeds) {
				TopicPartition tp = new TopicPartition(seed.topic(), counts.merge(seed.topic(), 1, Integer::sum) - 1);
				Set<String> inSync = new TreeSet<>(seed.followerZones());
				if (seed.leaderZone() != null) {
					inSync.add(seed.leaderZone());
				}
				partitions.add(new Partition(tp, seed.leaderZone(), inSync));
				if (seed.owner() >= 0) {
					owned.computeIfAbsent(seed.owner(), (k) -> new HashSet<>()).add(tp);
				}
			}
			Set<String> topics = new TreeSet<>(counts.keySet());
			List<Member> members = new ArrayList<>();
			for (int i = 0; i < memberSeeds.size(); i++) {
				MemberSeed seed = memberSeeds.get(i);
				// 0: every topic; 1: the first; 2: the last (a topic nobody reads is dropped below)
				Set<String> subscribed = switch (seed.topics()) {
					case 1 -> Set.of(((TreeSet<String>) topics).first());
					case 2 -> Set.of(((TreeSet<String>) topics).last());
					default -> topics;
				};
				members.add(new Member("member-" + i, seed.zone(), seed.policy(), subscribed,
						owned.getOrDefault(i, Set.of())));
			}
			Set<String> read = new HashSet<>();
			members.forEach((member) -> read.addAll(member.topics()));
			return new Group(members,
					partitions.stream().filter((partition) -> read.contains(partition.partition().topic())).toList(),
					balance);
		}

		Map<String, List<TopicPartition>> assign() {
			return ZoneAwareAssignment.assign(this.members, this.partitions, this.balance);
		}

		Member member(String id) {
			return this.members.stream().filter((member) -> member.id().equals(id)).findFirst().orElseThrow();
		}

		Set<String> topics() {
			Set<String> topics = new TreeSet<>();
			this.partitions.forEach((partition) -> topics.add(partition.partition().topic()));
			return topics;
		}

		boolean sameTopics() {
			return this.members.stream().allMatch((member) -> member.topics().containsAll(topics()));
		}

		Map<String, List<TopicPartition>> ownedByMember() {
			Map<String, List<TopicPartition>> owned = new TreeMap<>();
			this.members.forEach((member) -> owned.put(member.id(), new ArrayList<>(member.owned())));
			return owned;
		}

		Group owning(Map<String, List<TopicPartition>> assignment) {
			return new Group(this.members.stream()
				.map((member) -> new Member(member.id(), member.zone(), member.policy(), member.topics(),
						new HashSet<>(assignment.getOrDefault(member.id(), List.of()))))
				.toList(), this.partitions, this.balance);
		}

		/**
		 * (-imbalance, partitions in their leader's zone, partitions read in-zone,
		 * partitions kept by their owner): higher is better, compared in that order.
		 */
		long[] score(Map<String, List<TopicPartition>> assignment) {
			long squares = 0;
			for (Member member : this.members) {
				List<TopicPartition> of = assignment.get(member.id());
				if (this.balance == Balance.PER_TOPIC) {
					for (String topic : topics()) {
						long load = of.stream().filter((tp) -> tp.topic().equals(topic)).count();
						squares += load * load;
					}
				}
				else {
					squares += (long) of.size() * of.size();
				}
			}
			long[] locality = locality(assignment);
			long kept = 0;
			for (Member member : this.members) {
				kept += assignment.get(member.id())
					.stream()
					.filter((tp) -> member.owned().contains(tp) && firstClaimant(tp).equals(member.id()))
					.count();
			}
			return new long[] { -squares, locality[0], locality[1], kept };
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
				for (TopicPartition tp : assignment.get(member.id())) {
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

		private String firstClaimant(TopicPartition tp) {
			return this.members.stream()
				.filter((member) -> member.owned().contains(tp) && member.topics().contains(tp.topic()))
				.map(Member::id)
				.sorted()
				.findFirst()
				.orElse("");
		}

		/**
		 * Every assignment of each partition to a member subscribed to its topic.
		 */
		Collection<Map<String, List<TopicPartition>>> everyAssignment() {
			List<Map<String, List<TopicPartition>>> all = new ArrayList<>();
			int[] choice = new int[this.partitions.size()];
			List<List<Member>> eligible = this.partitions.stream()
				.map((partition) -> this.members.stream()
					.filter((member) -> member.topics().contains(partition.partition().topic()))
					.toList())
				.toList();
			while (true) {
				Map<String, List<TopicPartition>> assignment = new TreeMap<>();
				this.members.forEach((member) -> assignment.put(member.id(), new ArrayList<>()));
				for (int i = 0; i < choice.length; i++) {
					assignment.get(eligible.get(i).get(choice[i]).id()).add(this.partitions.get(i).partition());
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
