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
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The members' sets of partitions.
 *
 * @author follower-fetch authors
 */
class PartitionSetTests {

	@Test
	void eachPartitionIsKeptOnceInTheOrderFirstGiven() {
		PartitionSet set = PartitionSet.copyOf(List.of(tp("b", 1), tp("a", 0), tp("b", 1), tp("a", 2)));
		assertThat(set).hasSize(3).containsExactly(tp("b", 1), tp("a", 0), tp("a", 2));
	}

	@Test
	void partitionsWhoseKafkaHashesCollideAreAllFound() {
		// partition p + 1 of t0000 has the hash of partition p of t0010
		assertThat(tp("t0000", 1)).hasSameHashCodeAs(tp("t0010", 0));
		List<TopicPartition> partitions = new ArrayList<>();
		for (int t = 0; t < 100; t++) {
			for (int p = 0; p < 100; p++) {
				partitions.add(tp("t%04d".formatted(t), p));
			}
		}
		PartitionSet set = PartitionSet.copyOf(partitions);
		assertThat(set).hasSize(10_000).containsAll(partitions).doesNotContain(tp("t0000", 100), tp("t0100", 0));
		assertThat(set).isEqualTo(new HashSet<>(partitions)).hasSameHashCodeAs(new HashSet<>(partitions));
	}

	@Test
	void aListOfDistinctPartitionsIsIndexedWhenFirstAsked() {
		PartitionSet set = PartitionSet.ofDistinct(List.of(tp("a", 3), tp("a", 1)));
		assertThat(set).containsExactly(tp("a", 3), tp("a", 1));
		assertThat(set.contains(tp("a", 1))).isTrue();
		assertThat(set.contains(tp("a", 2))).isFalse();
		assertThat(set).isEqualTo(Set.of(tp("a", 1), tp("a", 3)));
	}

	@Test
	void theSetCannotBeChanged() {
		PartitionSet set = PartitionSet.copyOf(Arrays.asList(tp("a", 0), tp("a", 1)));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> set.add(tp("a", 2)));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> set.remove(tp("a", 0)));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(set::clear);
	}

	@Test
	void aMissingPartitionIsRefusedAsSetCopyOfRefusesIt() {
		assertThatExceptionOfType(NullPointerException.class)
			.isThrownBy(() -> PartitionSet.copyOf(Arrays.asList(tp("a", 0), null)));
	}

	@Test
	void aSetIsNotCopiedAgain() {
		PartitionSet set = PartitionSet.copyOf(List.of(tp("a", 0)));
		assertThat(PartitionSet.copyOf(set)).isSameAs(set);
	}

	private static TopicPartition tp(String topic, int partition) {
		return new TopicPartition(topic, partition);
	}

}
