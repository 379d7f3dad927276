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
package dev.followerfetch.assignment.kafka;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * A value per partition, in a map per topic keyed by partition number. Kafka's
 * {@code TopicPartition} hash gives many partitions of topics with alike names one value,
 * so a {@code HashMap} keyed by it slows to a crawl on the million partitions of Kafka's
 * large-group tests: the adapters' own sets of them took a fifth of such a test's time.
 *
 * @param <V> the value type
 * @author follower-fetch authors
 */
final class ByPartition<V> {

	private final Map<String, Map<Integer, V>> byTopic = new HashMap<>();

	@Nullable V get(TopicPartition partition) {
		Map<Integer, V> ofTopic = this.byTopic.get(partition.topic());
		return (ofTopic != null) ? ofTopic.get(partition.partition()) : null;
	}

	boolean containsKey(TopicPartition partition) {
		Map<Integer, V> ofTopic = this.byTopic.get(partition.topic());
		return ofTopic != null && ofTopic.containsKey(partition.partition());
	}

	void putIfAbsent(TopicPartition partition, V value) {
		this.byTopic.computeIfAbsent(partition.topic(), (topic) -> new HashMap<>())
			.putIfAbsent(partition.partition(), value);
	}

}
