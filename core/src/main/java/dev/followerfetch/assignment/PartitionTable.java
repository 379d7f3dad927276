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

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * A value per partition, in an array per topic indexed by partition number. Kafka's
 * {@code TopicPartition} hash sends many partitions of topics with alike names to one
 * bucket, so a {@code HashMap} keyed by it turns into trees once a group has hundreds of
 * thousands of partitions (a million-partition group spent most of a rebalance in them).
 *
 * @param <V> the value type
 * @author follower-fetch authors
 */
final class PartitionTable<V> {

	private final Map<String, @Nullable Object[]> byTopic = new HashMap<>();

	@SuppressWarnings("unchecked")
	@Nullable V get(TopicPartition partition) {
		Object[] values = this.byTopic.get(partition.topic());
		int index = partition.partition();
		return (values != null && index >= 0 && index < values.length) ? (V) values[index] : null;
	}

	/**
	 * A partition's value, by topic and partition number.
	 * @param topic the topic
	 * @param index the partition number
	 * @return the value, or {@code null}
	 */
	@SuppressWarnings("unchecked")
	@Nullable V get(String topic, int index) {
		Object[] values = this.byTopic.get(topic);
		return (values != null && index >= 0 && index < values.length) ? (V) values[index] : null;
	}

	boolean containsKey(TopicPartition partition) {
		return get(partition) != null;
	}

	/**
	 * Set a partition's value.
	 * @param partition the partition, numbered from 0
	 * @param value the value
	 * @return the value it had, or {@code null}
	 */
	@SuppressWarnings("unchecked")
	@Nullable V put(TopicPartition partition, V value) {
		int index = partition.partition();
		if (index < 0) {
			throw new IllegalArgumentException("Partition numbers start at 0: " + partition);
		}
		Object[] values = this.byTopic.get(partition.topic());
		if (values == null || index >= values.length) {
			values = (values == null) ? new Object[Math.max(8, index + 1)]
					: Arrays.copyOf(values, Math.max(values.length * 2, index + 1));
			this.byTopic.put(partition.topic(), values);
		}
		V before = (V) values[index];
		values[index] = value;
		return before;
	}

	/**
	 * Set a partition's value unless it has one.
	 * @param partition the partition
	 * @param value the value
	 * @return the value it had, or {@code null} when it took this one
	 */
	@Nullable V putIfAbsent(TopicPartition partition, V value) {
		V current = get(partition);
		if (current == null) {
			put(partition, value);
		}
		return current;
	}

}
