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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Locality;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The zone-aware rule on the deployments the starter meets, each starting from what
 * Kafka's strategy assigned, with the outcome a user should expect.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignmentTests {

	private static final Set<String> ALL_ZONES = Set.of("az-a", "az-b", "az-c");

	@Test
	void oneMemberPerZoneReadsThePartitionsLedInItsZoneWhateverItsPolicyAndTheWrappedStrategy() {
		List<Partition> partitions = ledByEveryZone(6);
		// range's layout: a 0-1, b 2-3, c 4-5
		Map<String, List<TopicPartition>> range = Map.of("a", List.of(tp(0), tp(1)), "b", List.of(tp(2), tp(3)), "c",
				List.of(tp(4), tp(5)));
		for (Policy policy : Policy.values()) {
			for (Balance balance : Balance.values()) {
				List<Member> members = List.of(member("a", "az-a", policy), member("b", "az-b", policy),
						member("c", "az-c", policy));
				Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions, balance,
						range);
				assertThat(sets(assignment)).containsEntry("a", Set.of(tp(0), tp(3)))
					.containsEntry("b", Set.of(tp(1), tp(4)))
					.containsEntry("c", Set.of(tp(2), tp(5)));
				assertThat(ZoneAwareAssignment.locality(assignment, members, partitions))
					.isEqualTo(new Locality(6, 6, 6));
			}
		}
	}

	@Test
	void unevenMembersKeepTheWrappedStrategysCountsAndReadFromLeadersWhereTheyAllow() {
		List<Member> members = List.of(member("a1", "az-a", Policy.FRESHNESS), member("a2", "az-a", Policy.FRESHNESS),
				member("b", "az-b", Policy.FRESHNESS));
		List<Partition> partitions = ledByEveryZone(6);
		Map<String, List<TopicPartition>> sticky = Map.of("a1", List.of(tp(0), tp(1)), "a2", List.of(tp(2), tp(3)),
				"b", List.of(tp(4), tp(5)));
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions, Balance.TOTAL,
				sticky);
		assertThat(assignment.values()).allSatisfy((assigned) -> assertThat(assigned).hasSize(2));
		assertThat(assignment.get("b")).containsExactlyInAnyOrder(tp(1), tp(4));
		// az-a leads two partitions for two members there; az-c's two go wherever the balance allows
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(6, 4, 4));
	}

	@Test
	void localityMembersTakeTheFollowerReadsThatLeadersCannotGiveWhenReplicasAreFewerThanZones() {
		// RF=2: partition p is led in zone p % 3 and followed in zone (p + 1) % 3
		List<Partition> partitions = IntStream.range(0, 6)
			.mapToObj((p) -> new Partition(tp(p), zone(p), Set.of(zone(p), zone(p + 1))))
			.toList();
		List<Member> members = List.of(member("a", "az-a", Policy.LOCALITY), member("b", "az-b", Policy.FRESHNESS),
				member("c", "az-c", Policy.LOCALITY));
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC, rangeOf(members, 6));
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(6, 6, 6));
	}

	@Test
	void leadersConcentratedInOneZoneAfterAnOutageLeaveTheBalanceAsItIs() {
		List<Partition> partitions = IntStream.range(0, 6).mapToObj((p) -> new Partition(tp(p), "az-a", ALL_ZONES)).toList();
		List<Member> members = List.of(member("a", "az-a", Policy.FRESHNESS), member("b", "az-b", Policy.FRESHNESS),
				member("c", "az-c", Policy.LOCALITY));
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC, rangeOf(members, 6));
		assertThat(assignment.values()).allSatisfy((assigned) -> assertThat(assigned).hasSize(2));
		// a reads two leaders in its zone, c two followers in its zone, b two leaders across zones
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(6, 2, 4));
	}

	@Test
	void membersWithoutAZoneGetTheWrappedStrategysAssignmentAsItIs() {
		List<Member> members = List.of(member("x", null, Policy.LOCALITY), member("y", null, Policy.FRESHNESS));
		Map<String, List<TopicPartition>> range = Map.of("x", List.of(tp(2), tp(0), tp(1)), "y", List.of(tp(3), tp(4)));
		assertThat(ZoneAwareAssignment.assign(members, ledByEveryZone(5), Balance.PER_TOPIC, range))
			.isEqualTo(range);
	}

	@Test
	void moreMembersThanPartitionsGiveTheOnesThatReadThemTheirZonesLeadersAfterRange() {
		List<Member> members = new ArrayList<>();
		for (String zone : List.of("az-a", "az-b", "az-c")) {
			members.add(member(zone + "-1", zone, Policy.FRESHNESS));
			members.add(member(zone + "-2", zone, Policy.FRESHNESS));
		}
		List<Partition> partitions = ledByEveryZone(3);
		// range gives the three partitions to the first three members by id: two in az-a, one in az-b
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC, rangeOf(members, 3));
		assertThat(assignment.values().stream().filter(List::isEmpty)).hasSize(3);
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(3, 3, 3));
	}

	@Test
	void aZoneWithoutMembersHasItsPartitionsSpreadOverTheOthers() {
		List<Member> members = List.of(member("a", "az-a", Policy.LOCALITY), member("b", "az-b", Policy.LOCALITY));
		List<Partition> partitions = ledByEveryZone(6);
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC, rangeOf(members, 6));
		assertThat(assignment.get("a")).hasSize(3).contains(tp(0), tp(3));
		assertThat(assignment.get("b")).hasSize(3).contains(tp(1), tp(4));
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(6, 4, 6));
	}

	@Test
	void whereMovingGainsNothingTheWrappedStrategysChoiceStandsInItsOwnOrder() {
		List<Partition> partitions = IntStream.range(0, 4).mapToObj((p) -> new Partition(tp(p), "az-c", ALL_ZONES)).toList();
		List<Member> members = List.of(member("a", "az-a", Policy.FRESHNESS), member("b", "az-b", Policy.FRESHNESS));
		Map<String, List<TopicPartition>> sticky = Map.of("a", List.of(tp(3), tp(2)), "b", List.of(tp(0), tp(1)));
		assertThat(ZoneAwareAssignment.assign(members, partitions, Balance.TOTAL, sticky)).isEqualTo(sticky);
	}

	@Test
	void underATotalBalanceEachMemberKeepsItsCountOfEveryTopicSoHotTopicsStaySpread() {
		// cooperative-sticky spread both topics over both members; every partition is led in az-a
		List<Partition> partitions = new ArrayList<>();
		for (String topic : List.of("hot", "cold")) {
			IntStream.range(0, 4)
				.forEach((p) -> partitions.add(new Partition(new TopicPartition(topic, p), "az-a", ALL_ZONES)));
		}
		List<Member> members = List.of(new Member("a", "az-a", Policy.FRESHNESS, Set.of("hot", "cold"), Set.of()),
				new Member("b", "az-b", Policy.FRESHNESS, Set.of("hot", "cold"), Set.of()));
		Map<String, List<TopicPartition>> sticky = Map.of("a",
				List.of(tp("hot", 0), tp("hot", 1), tp("cold", 0), tp("cold", 1)), "b",
				List.of(tp("hot", 2), tp("hot", 3), tp("cold", 2), tp("cold", 3)));
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions, Balance.TOTAL,
				sticky);
		assertThat(assignment).isEqualTo(sticky);
	}

	@Test
	void coPartitionedTopicsGoWhereTheirLeadersAreTogetherAfterRange() {
		// orders and payments have the same subscribers and partitions: partition p of both to one member
		List<Partition> partitions = new ArrayList<>();
		IntStream.range(0, 3).forEach((p) -> {
			partitions.add(new Partition(tp("orders", p), zone(p), ALL_ZONES));
			partitions.add(new Partition(tp("payments", p), zone(p + 1), ALL_ZONES));
		});
		List<Member> members = List.of(new Member("a", "az-a", Policy.FRESHNESS, Set.of("orders", "payments"), Set.of()),
				new Member("b", "az-b", Policy.FRESHNESS, Set.of("orders", "payments"), Set.of()),
				new Member("c", "az-c", Policy.FRESHNESS, Set.of("orders", "payments"), Set.of()));
		Map<String, List<TopicPartition>> range = Map.of("a", List.of(tp("orders", 0), tp("payments", 0)), "b",
				List.of(tp("orders", 1), tp("payments", 1)), "c", List.of(tp("orders", 2), tp("payments", 2)));
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC, range);
		assignment.forEach((member, partitionsOf) -> assertThat(
				partitionsOf.stream().filter((tp) -> tp.topic().equals("orders")).map(TopicPartition::partition).toList())
			.as("co-partitioned on %s", member)
			.isEqualTo(partitionsOf.stream()
				.filter((tp) -> tp.topic().equals("payments"))
				.map(TopicPartition::partition)
				.toList()));
		// each index has one of its two leaders in its reader's zone
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions).leaderZone()).isEqualTo(3);
	}

	@Test
	void staticMembersGetTheirPartitionsBackWhenTheirMemberIdsChange() {
		List<Partition> partitions = ledByEveryZone(7);
		List<Member> before = List.of(new Member("m1", "i-a", "az-a", Policy.LOCALITY, Set.of("events"), Set.of()),
				new Member("m2", "i-b", "az-a", Policy.LOCALITY, Set.of("events"), Set.of()),
				new Member("m3", "i-c", "az-b", Policy.LOCALITY, Set.of("events"), Set.of()));
		List<Member> after = List.of(new Member("z9", "i-a", "az-a", Policy.LOCALITY, Set.of("events"), Set.of()),
				new Member("a0", "i-b", "az-a", Policy.LOCALITY, Set.of("events"), Set.of()),
				new Member("k5", "i-c", "az-b", Policy.LOCALITY, Set.of("events"), Set.of()));
		// range orders static members by instance id, so its layout follows the instances too
		Map<String, List<TopicPartition>> first = ZoneAwareAssignment.assign(before, partitions, Balance.PER_TOPIC,
				Map.of("m1", List.of(tp(0), tp(1), tp(2)), "m2", List.of(tp(3), tp(4)), "m3", List.of(tp(5), tp(6))));
		Map<String, List<TopicPartition>> second = ZoneAwareAssignment.assign(after, partitions, Balance.PER_TOPIC,
				Map.of("z9", List.of(tp(0), tp(1), tp(2)), "a0", List.of(tp(3), tp(4)), "k5", List.of(tp(5), tp(6))));
		assertThat(byInstance(second, Map.of("z9", "i-a", "a0", "i-b", "k5", "i-c")))
			.isEqualTo(byInstance(first, Map.of("m1", "i-a", "m2", "i-b", "m3", "i-c")));
	}

	@Test
	void aGroupTooLargeForTheBudgetIsRefusedBeforeItsFlowIsBuilt() {
		List<Member> members = List.of(member("a", "az-a", Policy.FRESHNESS), member("b", "az-b", Policy.FRESHNESS));
		Budget tiny = new Budget(3, Long.MAX_VALUE, Duration.ofSeconds(10), 0);
		assertThatExceptionOfType(OverBudgetException.class)
			.isThrownBy(() -> ZoneAwareAssignment.assign(members, ledByEveryZone(6), Balance.PER_TOPIC,
					rangeOf(members, 6), tiny))
			.withMessageContaining("flow edges, more than 3");
	}

	@Test
	void theCooperativeHandOverWithholdsAPartitionThatChangesOwner() {
		Map<String, List<TopicPartition>> target = Map.of("a", List.of(tp(0), tp(1)), "b", List.of(tp(2)));
		Map<String, List<TopicPartition>> owned = Map.of("a", List.of(tp(0)), "b", List.of(tp(1), tp(2)));
		assertThat(ZoneAwareAssignment.handOver(target, owned)).containsEntry("a", List.of(tp(0)))
			.containsEntry("b", List.of(tp(2)));
	}

	@Test
	void theCooperativeHandOverLetsOneOfTwoClaimantsKeepAPartitionBothClaim() {
		Map<String, List<TopicPartition>> target = Map.of("a", List.of(tp(0)), "b", List.of(), "c", List.of(tp(1)));
		Map<String, List<TopicPartition>> owned = Map.of("a", List.of(tp(0)), "b", List.of(tp(0)), "c", List.of());
		assertThat(ZoneAwareAssignment.handOver(target, owned)).containsEntry("a", List.of(tp(0)))
			.containsEntry("c", List.of(tp(1)));
	}

	/**
	 * Range's layout: the members by id, the first ones one partition more.
	 */
	private static Map<String, List<TopicPartition>> rangeOf(List<Member> members, int partitions) {
		List<String> ids = members.stream().map(Member::id).sorted().toList();
		Map<String, List<TopicPartition>> range = new TreeMap<>();
		int next = 0;
		for (int i = 0; i < ids.size(); i++) {
			int count = partitions / ids.size() + ((i < partitions % ids.size()) ? 1 : 0);
			List<TopicPartition> of = new ArrayList<>();
			for (int n = 0; n < count; n++) {
				of.add(tp(next++));
			}
			range.put(ids.get(i), of);
		}
		return range;
	}

	private static Map<String, Set<TopicPartition>> sets(Map<String, List<TopicPartition>> assignment) {
		Map<String, Set<TopicPartition>> sets = new TreeMap<>();
		assignment.forEach((member, partitions) -> sets.put(member, Set.copyOf(partitions)));
		return sets;
	}

	private static Map<String, Set<TopicPartition>> byInstance(Map<String, List<TopicPartition>> assignment,
			Map<String, String> instances) {
		Map<String, Set<TopicPartition>> byInstance = new HashMap<>();
		assignment.forEach((member, partitions) -> byInstance.put(instances.get(member), Set.copyOf(partitions)));
		return byInstance;
	}

	private static List<Partition> ledByEveryZone(int count) {
		return IntStream.range(0, count).mapToObj((p) -> new Partition(tp(p), zone(p), ALL_ZONES)).toList();
	}

	private static String zone(int index) {
		return List.of("az-a", "az-b", "az-c").get(index % 3);
	}

	private static Member member(String id, String zone, Policy policy) {
		return new Member(id, zone, policy, Set.of("events"), Set.of());
	}

	private static TopicPartition tp(int partition) {
		return tp("events", partition);
	}

	private static TopicPartition tp(String topic, int partition) {
		return new TopicPartition(topic, partition);
	}

}
