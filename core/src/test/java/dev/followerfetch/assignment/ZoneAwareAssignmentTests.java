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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Locality;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The zone-aware rule on the deployments the starter meets, each with the outcome a user
 * should expect.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignmentTests {

	private static final Set<String> ALL_ZONES = Set.of("az-a", "az-b", "az-c");

	@Test
	void oneMemberPerZoneReadsThePartitionsLedInItsZoneWhateverItsPolicy() {
		List<Partition> partitions = ledByEveryZone(6);
		for (Policy policy : Policy.values()) {
			List<Member> members = List.of(member("a", "az-a", policy), member("b", "az-b", policy),
					member("c", "az-c", policy));
			Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
					Balance.PER_TOPIC);
			assertThat(assignment).containsEntry("a", List.of(tp(0), tp(3)))
				.containsEntry("b", List.of(tp(1), tp(4)))
				.containsEntry("c", List.of(tp(2), tp(5)));
			assertThat(ZoneAwareAssignment.locality(assignment, members, partitions))
				.isEqualTo(new Locality(6, 6, 6));
		}
	}

	@Test
	void unevenMembersKeepTheBalanceAndReadFromLeadersWhereTheBalanceAllows() {
		List<Member> members = List.of(member("a1", "az-a", Policy.FRESHNESS), member("a2", "az-a", Policy.FRESHNESS),
				member("b", "az-b", Policy.FRESHNESS));
		List<Partition> partitions = ledByEveryZone(6);
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions, Balance.TOTAL);
		assertThat(assignment.values()).allSatisfy((assigned) -> assertThat(assigned).hasSize(2));
		assertThat(assignment.get("b")).containsExactly(tp(1), tp(4));
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
				Balance.PER_TOPIC);
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(6, 6, 6));
	}

	@Test
	void leadersConcentratedInOneZoneAfterAnOutageLeaveTheBalanceAsItIs() {
		List<Partition> partitions = IntStream.range(0, 6).mapToObj((p) -> new Partition(tp(p), "az-a", ALL_ZONES)).toList();
		List<Member> members = List.of(member("a", "az-a", Policy.FRESHNESS), member("b", "az-b", Policy.FRESHNESS),
				member("c", "az-c", Policy.LOCALITY));
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC);
		assertThat(assignment.values()).allSatisfy((assigned) -> assertThat(assigned).hasSize(2));
		// a reads two leaders in its zone, c two followers in its zone, b two leaders across zones
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(6, 2, 4));
	}

	@Test
	void membersWithoutAZoneAreBalancedOnly() {
		List<Member> members = List.of(member("x", null, Policy.LOCALITY), member("y", null, Policy.FRESHNESS));
		List<Partition> partitions = ledByEveryZone(5);
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC);
		assertThat(assignment.get("x").size() + assignment.get("y").size()).isEqualTo(5);
		assertThat(Math.abs(assignment.get("x").size() - assignment.get("y").size())).isEqualTo(1);
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(5, 0, 0));
	}

	@Test
	void moreMembersThanPartitionsLeaveSomeMembersWithoutAndGiveTheOthersTheirZonesLeaders() {
		List<Member> members = new ArrayList<>();
		for (String zone : List.of("az-a", "az-b", "az-c")) {
			members.add(member(zone + "-1", zone, Policy.FRESHNESS));
			members.add(member(zone + "-2", zone, Policy.FRESHNESS));
		}
		List<Partition> partitions = ledByEveryZone(3);
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC);
		assertThat(assignment.values().stream().filter(List::isEmpty)).hasSize(3);
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(3, 3, 3));
	}

	@Test
	void aZoneWithoutMembersHasItsPartitionsSpreadOverTheOthers() {
		List<Member> members = List.of(member("a", "az-a", Policy.LOCALITY), member("b", "az-b", Policy.LOCALITY));
		List<Partition> partitions = ledByEveryZone(6);
		Map<String, List<TopicPartition>> assignment = ZoneAwareAssignment.assign(members, partitions,
				Balance.PER_TOPIC);
		assertThat(assignment.get("a")).hasSize(3).contains(tp(0), tp(3));
		assertThat(assignment.get("b")).hasSize(3).contains(tp(1), tp(4));
		assertThat(ZoneAwareAssignment.locality(assignment, members, partitions)).isEqualTo(new Locality(6, 4, 6));
	}

	@Test
	void ownedPartitionsStayWhenMovingThemGainsNothing() {
		List<Partition> partitions = IntStream.range(0, 4).mapToObj((p) -> new Partition(tp(p), "az-c", ALL_ZONES)).toList();
		List<Member> members = List.of(
				new Member("a", "az-a", Policy.FRESHNESS, Set.of("events"), Set.of(tp(2), tp(3))),
				new Member("b", "az-b", Policy.FRESHNESS, Set.of("events"), Set.of(tp(0), tp(1))));
		assertThat(ZoneAwareAssignment.assign(members, partitions, Balance.PER_TOPIC))
			.containsEntry("a", List.of(tp(2), tp(3)))
			.containsEntry("b", List.of(tp(0), tp(1)));
	}

	@Test
	void theCooperativeHandOverWithholdsAPartitionThatChangesOwner() {
		Map<String, List<TopicPartition>> target = Map.of("a", List.of(tp(0), tp(1)), "b", List.of(tp(2)));
		Map<String, List<TopicPartition>> owned = Map.of("a", List.of(tp(0)), "b", List.of(tp(1), tp(2)));
		assertThat(ZoneAwareAssignment.handOver(target, owned)).containsEntry("a", List.of(tp(0)))
			.containsEntry("b", List.of(tp(2)));
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
		return new TopicPartition("events", partition);
	}

}
