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

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentGate.Violation;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate on what the zone-aware assignor hands out: each rule it holds an assignment
 * to, broken once.
 *
 * @author follower-fetch authors
 */
class AssignmentGateTests {

	private static final List<Partition> PARTITIONS = partitions("t1", 4, "t2", 4);

	private static final List<Member> MEMBERS = List.of(member("a", Set.of("t1", "t2")), member("b", Set.of("t1", "t2")));

	private static final Map<String, List<TopicPartition>> RANGE = Map.of("a",
			List.of(tp("t1", 0), tp("t1", 1), tp("t2", 0), tp("t2", 1)), "b",
			List.of(tp("t1", 2), tp("t1", 3), tp("t2", 2), tp("t2", 3)));

	@Test
	void anAssignmentThatKeepsEveryGuaranteePasses() {
		Map<String, List<TopicPartition>> swapped = Map.of("a", List.of(tp("t1", 0), tp("t1", 2), tp("t2", 0), tp("t2", 2)),
				"b", List.of(tp("t1", 1), tp("t1", 3), tp("t2", 1), tp("t2", 3)));
		assertThat(check(MEMBERS, Balance.PER_TOPIC, RANGE, swapped, swapped)).isNull();
		assertThat(check(MEMBERS, Balance.TOTAL, RANGE, swapped, swapped)).isNull();
	}

	@Test
	void aPartitionTheWrappedStrategyPlacesAndTheRuleDoesNotIsUnassigned() {
		Map<String, List<TopicPartition>> dropped = Map.of("a", List.of(tp("t1", 0), tp("t1", 1), tp("t2", 0), tp("t2", 1)),
				"b", List.of(tp("t1", 2), tp("t2", 2), tp("t2", 3)));
		assertThat(check(MEMBERS, Balance.TOTAL, RANGE, dropped, dropped)).extracting(Violation::kind)
			.isEqualTo("unassigned");
	}

	@Test
	void aPartitionGivenTwiceToAMemberNotSubscribedOrNotInTheMetadataIsRefused() {
		Map<String, List<TopicPartition>> twice = new java.util.HashMap<>(RANGE);
		twice.put("b", append(RANGE.get("b"), tp("t1", 0)));
		assertThat(check(MEMBERS, Balance.TOTAL, RANGE, twice, twice).kind()).isEqualTo("duplicate");
		List<Member> narrow = List.of(member("a", Set.of("t1", "t2")), member("b", Set.of("t1")));
		assertThat(check(narrow, Balance.TOTAL, RANGE, RANGE, RANGE).kind()).isEqualTo("unsubscribed");
		Map<String, List<TopicPartition>> unknown = Map.of("a", append(RANGE.get("a"), tp("t1", 4)), "b", RANGE.get("b"));
		assertThat(check(MEMBERS, Balance.TOTAL, RANGE, unknown, unknown).kind()).isEqualTo("unknown-partition");
		Map<String, List<TopicPartition>> stranger = Map.of("a", RANGE.get("a"), "b", RANGE.get("b"), "c",
				List.of(tp("t1", 0)));
		assertThat(check(MEMBERS, Balance.TOTAL, RANGE, stranger, stranger).kind()).isEqualTo("unknown-member");
	}

	@Test
	void underTotalBalanceEveryMemberKeepsItsCountOfEachTopic() {
		Map<String, List<TopicPartition>> shifted = Map.of("a", List.of(tp("t1", 0), tp("t1", 1), tp("t1", 2), tp("t2", 1)),
				"b", List.of(tp("t2", 0), tp("t1", 3), tp("t2", 2), tp("t2", 3)));
		assertThat(check(MEMBERS, Balance.TOTAL, RANGE, shifted, shifted).kind()).isEqualTo("balance");
	}

	@Test
	void underPerTopicBalanceEachTopicStaysWithinOneAndCoPartitionedTopicsStayTogether() {
		Map<String, List<TopicPartition>> uneven = Map.of("a", List.of(tp("t1", 0), tp("t1", 1), tp("t1", 2), tp("t2", 0),
				tp("t2", 1)), "b", List.of(tp("t1", 3), tp("t2", 2), tp("t2", 3)));
		assertThat(check(MEMBERS, Balance.PER_TOPIC, RANGE, uneven, uneven).kind()).isEqualTo("balance");
		Map<String, List<TopicPartition>> split = Map.of("a", List.of(tp("t1", 0), tp("t1", 1), tp("t2", 2), tp("t2", 3)),
				"b", List.of(tp("t1", 2), tp("t1", 3), tp("t2", 0), tp("t2", 1)));
		assertThat(check(MEMBERS, Balance.PER_TOPIC, RANGE, split, split).kind()).isEqualTo("co-partitioning");
		assertThat(check(MEMBERS, Balance.TOTAL, RANGE, split, split)).as("no co-partitioning to keep").isNull();
	}

	@Test
	void underTheCooperativeProtocolAPartitionAnotherMemberOwnsIsWithheldAndOnlySuchAPartition() {
		List<Member> owning = List.of(member("a", Set.of("t1", "t2"), tp("t1", 2)), member("b", Set.of("t1", "t2")));
		assertThat(check(owning, Balance.TOTAL, RANGE, RANGE, RANGE).kind()).isEqualTo("hand-over");
		Map<String, List<TopicPartition>> handed = ZoneAwareAssignment.handOver(RANGE, Map.of("a", Set.of(tp("t1", 2))));
		assertThat(handed.get("b")).doesNotContain(tp("t1", 2));
		assertThat(check(owning, Balance.TOTAL, RANGE, RANGE, handed)).isNull();
		Map<String, List<TopicPartition>> overWithheld = Map.of("a", RANGE.get("a"), "b", List.of(tp("t1", 3)));
		assertThat(check(owning, Balance.TOTAL, RANGE, RANGE, overWithheld).detail()).contains("no other member owns");
	}

	private static Violation check(List<Member> members, Balance balance, Map<String, List<TopicPartition>> reference,
			Map<String, List<TopicPartition>> target, Map<String, List<TopicPartition>> handed) {
		return AssignmentGate.check(members, PARTITIONS, balance, reference, target, handed);
	}

	private static List<TopicPartition> append(List<TopicPartition> partitions, TopicPartition tp) {
		List<TopicPartition> more = new ArrayList<>(partitions);
		more.add(tp);
		return more;
	}

	private static List<Partition> partitions(String first, int firstCount, String second, int secondCount) {
		List<Partition> partitions = new ArrayList<>();
		for (int p = 0; p < firstCount; p++) {
			partitions.add(new Partition(tp(first, p), "az-a", Set.of("az-a")));
		}
		for (int p = 0; p < secondCount; p++) {
			partitions.add(new Partition(tp(second, p), "az-b", Set.of("az-b")));
		}
		return partitions;
	}

	private static Member member(String id, Set<String> topics, TopicPartition... owned) {
		return new Member(id, "az-" + id, Policy.LOCALITY, topics, Set.of(owned));
	}

	private static TopicPartition tp(String topic, int partition) {
		return new TopicPartition(topic, partition);
	}

}
