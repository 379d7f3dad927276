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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;

/**
 * Topics assigned as one under {@link ZoneAwareAssignment.Balance#PER_TOPIC}: partition
 * {@code p} of each goes to the same member.
 *
 * @param topics the topics, one or more
 * @param subscribers the members subscribed to them, by place
 * @author follower-fetch authors
 */
record CoPartitioned(List<String> topics, int[] subscribers) {

	/**
	 * Topics grouped as Kafka's range assignor co-partitions them: the same subscribers
	 * and the same partitions {@code 0..n-1}, and, in the reference, the same member for
	 * partition {@code p} of each (else each topic on its own).
	 * @param members the members
	 * @param byTopic each topic's partitions, sorted, by topic in order
	 * @param owners the member the reference gives each partition to
	 * @return the sets, each topic with subscribers in one
	 */
	static List<CoPartitioned> of(MemberClasses members, Map<String, Partition[]> byTopic,
			PartitionTable<Integer> owners) {
		Map<String, List<Integer>> subscribersOf = new HashMap<>();
		for (int m = 0; m < members.size(); m++) {
			for (String topic : members.get(m).topics()) {
				subscribersOf.computeIfAbsent(topic, (key) -> new ArrayList<>()).add(m);
			}
		}
		Map<SetKey, List<String>> sets = new LinkedHashMap<>();
		List<CoPartitioned> result = new ArrayList<>();
		byTopic.forEach((topic, partitions) -> {
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
			if (topics.size() == 1 || sameOwners(owners, topics, key.partitions())) {
				result.add(new CoPartitioned(topics, key.subscribers()));
			}
			else {
				topics.forEach((topic) -> result.add(new CoPartitioned(List.of(topic), key.subscribers())));
			}
		});
		return result;
	}

	private static boolean sameOwners(PartitionTable<Integer> owners, List<String> topics, int partitions) {
		for (int p = 0; p < partitions; p++) {
			Integer first = owners.get(new TopicPartition(topics.get(0), p));
			for (int t = 1; t < topics.size(); t++) {
				if (!Objects.equals(first, owners.get(new TopicPartition(topics.get(t), p)))) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * What topics co-partitioned share: their subscribers and partition count.
	 */
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

}
