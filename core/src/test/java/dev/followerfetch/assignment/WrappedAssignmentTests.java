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
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wrapped strategy's assignment, made one every member can take.
 *
 * @author follower-fetch authors
 */
class WrappedAssignmentTests {

	private static final List<Partition> PARTITIONS = partitions(6);

	@Test
	void anAssignmentEveryMemberCanTakeComesBackAsItIs() {
		List<TopicPartition> ofA = List.of(tp(4), tp(0), tp(2));
		WrappedAssignment wrapped = WrappedAssignment.of(Map.of("a", ofA, "b", List.of(tp(1), tp(3), tp(5))),
				List.of(member("a", "t"), member("b", "t")), PARTITIONS);
		assertThat(wrapped.repairs()).isEmpty();
		assertThat(wrapped.assignment().get("a")).containsExactlyElementsOf(ofA);
	}

	@Test
	void partitionsOfAMemberSubscribedToNothingGoToTheSubscribersWithTheFewest() {
		WrappedAssignment wrapped = WrappedAssignment.of(
				Map.of("a", List.of(tp(0), tp(3)), "b", List.of(tp(1), tp(4)), "c", List.of(tp(2), tp(5))),
				List.of(member("a"), member("b", "t"), member("c", "t")), PARTITIONS);
		assertThat(wrapped.assignment().get("a")).isEmpty();
		assertThat(wrapped.assignment().get("b")).containsExactly(tp(1), tp(4), tp(0));
		assertThat(wrapped.assignment().get("c")).containsExactly(tp(2), tp(5), tp(3));
		assertThat(wrapped.describe()).isEqualTo("2 partitions given to a member not subscribed to its topic");
	}

	@Test
	void aPartitionGivenTwiceNotInTheMetadataOrLeftToNobodyIsRepaired() {
		WrappedAssignment wrapped = WrappedAssignment.of(
				Map.of("a", List.of(tp(0), tp(1), tp(99)), "b", List.of(tp(1), tp(2))),
				List.of(member("a", "t"), member("b", "t")), PARTITIONS);
		assertThat(wrapped.repairs()).containsEntry("given twice", 1)
			.containsEntry("not in the metadata", 1)
			.containsEntry("left to nobody", 3);
		assertThat(wrapped.assignment().values().stream().flatMap(List::stream))
			.containsExactlyInAnyOrder(tp(0), tp(1), tp(2), tp(3), tp(4), tp(5));
	}

	@Test
	void aPartitionLeftToNobodyThatAMemberStillOwnsIsWithheldNotRepaired() {
		Member owner = new Member("a", "az-a", Policy.LOCALITY, Set.of("t"), Set.of(tp(5)));
		WrappedAssignment wrapped = WrappedAssignment.of(
				Map.of("a", List.of(tp(0), tp(1), tp(2)), "b", List.of(tp(3), tp(4))), List.of(owner, member("b", "t")),
				PARTITIONS);
		assertThat(wrapped.repairs()).isEmpty();
	}

	private static List<Partition> partitions(int count) {
		List<Partition> partitions = new ArrayList<>();
		for (int p = 0; p < count; p++) {
			partitions.add(new Partition(tp(p), "az-a", Set.of("az-a")));
		}
		return partitions;
	}

	private static Member member(String id, String... topics) {
		return new Member(id, "az-" + id, Policy.LOCALITY, Set.of(topics), Set.of());
	}

	private static TopicPartition tp(int partition) {
		return new TopicPartition("t", partition);
	}

}
