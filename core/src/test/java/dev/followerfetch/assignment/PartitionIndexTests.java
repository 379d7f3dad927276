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

import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The partitions of the metadata, by topic number.
 *
 * @author follower-fetch authors
 */
class PartitionIndexTests {

	@Test
	void eachTopicGetsANumberInTheOrderItComesAndEachPartitionItsTopicsNumber() {
		PartitionIndex index = new PartitionIndex(
				List.of(partition("b", 0), partition("b", 2), partition("a", 0), partition("b", 1)));
		assertThat(index.topics()).isEqualTo(2);
		assertThat(index.size()).isEqualTo(4);
		assertThat(index.topic(tp("b", 2))).isZero();
		assertThat(index.topic(tp("a", 0))).isOne();
		assertThat(index.span(0)).isGreaterThan(2);
	}

	@Test
	void aPartitionNotInTheMetadataHasNoTopicNumber() {
		PartitionIndex index = new PartitionIndex(List.of(partition("a", 0), partition("a", 2)));
		assertThat(index.topic(tp("a", 1))).isEqualTo(-1);
		assertThat(index.topic(tp("a", 3))).isEqualTo(-1);
		assertThat(index.topic(tp("a", -1))).isEqualTo(-1);
		assertThat(index.topic(tp("c", 0))).isEqualTo(-1);
		assertThat(index.contains(tp("a", 2))).isTrue();
		assertThat(index.size()).isEqualTo(2);
	}

	@Test
	void aPartitionListedTwiceCountsOnce() {
		PartitionIndex index = new PartitionIndex(List.of(partition("a", 0), partition("a", 0)));
		assertThat(index.size()).isOne();
	}

	@Test
	void aPartitionNumberedBelowZeroIsRefusedAsAPartitionTableRefusesIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PartitionIndex(List.of(partition("a", -1))))
			.withMessage("Partition numbers start at 0: a--1");
	}

	@Test
	void aSubscriptionIsTheNumbersOfItsTopicsInTheMetadata() {
		PartitionIndex index = new PartitionIndex(List.of(partition("a", 0), partition("b", 0)));
		IntPredicate subscribed = index.subscribed(Set.of("b", "unknown"));
		assertThat(subscribed.test(index.topic(tp("b", 0)))).isTrue();
		assertThat(subscribed.test(index.topic(tp("a", 0)))).isFalse();
	}

	private static Partition partition(String topic, int partition) {
		return new Partition(tp(topic, partition), null, Set.of());
	}

	private static TopicPartition tp(String topic, int partition) {
		return new TopicPartition(topic, partition);
	}

}
