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
package dev.followerfetch.e2e;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;

/**
 * Counts, per consumer group, the partitions its members had revoked or lost, as the
 * consumers report them to Spring Kafka; Spring Boot sets this bean on its listener
 * container factory.
 *
 * @author follower-fetch authors
 */
public final class Revocations implements ConsumerAwareRebalanceListener {

	private final Map<String, AtomicInteger> revoked = new ConcurrentHashMap<>();

	@Override
	public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		count(consumer, partitions);
	}

	@Override
	public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		count(consumer, partitions);
	}

	private void count(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
		this.revoked.computeIfAbsent(consumer.groupMetadata().groupId(), (group) -> new AtomicInteger())
			.addAndGet(partitions.size());
	}

	/**
	 * The partitions the members of a group had revoked or lost so far.
	 * @param groupId the group
	 * @return the count
	 */
	public int revoked(String groupId) {
		AtomicInteger count = this.revoked.get(groupId);
		return (count != null) ? count.get() : 0;
	}

}
