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
package dev.followerfetch.observation;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * What one Kafka consumer client reports about its reads, whoever built it and wherever
 * its metrics were read (its own {@code Metric} map or JMX).
 *
 * @param clientId the client id
 * @param readReplicas the {@code preferred-read-replica} gauge by partition: the broker id
 * read from, or -1 for the leader
 * @param answered partitions the client has processed a fetch answer for (their
 * {@code records-lag} metric exists)
 * @param received the {@code incoming-byte-total} counter of each broker connection
 * @param rebalances the rebalances the client completed in its group
 * ({@code rebalance-total}), or -1 when it does not say
 * @author follower-fetch authors
 */
record ClientMetrics(String clientId, Map<TopicPartition, Integer> readReplicas, Set<TopicPartition> answered,
		List<NodeTotal> received, long rebalances) {

	ClientMetrics {
		readReplicas = Map.copyOf(readReplicas);
		answered = Set.copyOf(answered);
		received = List.copyOf(received);
	}

	ClientMetrics(String clientId, Map<TopicPartition, Integer> readReplicas, Set<TopicPartition> answered,
			List<NodeTotal> received) {
		this(clientId, readReplicas, answered, received, -1);
	}

	/**
	 * Bytes received from one broker since the client started.
	 *
	 * @param brokerId the broker's id (coordinator connections have ids far above any
	 * broker's)
	 * @param total the counter's value
	 * @param counter what identifies this counter across refreshes: the {@code Metric}
	 * object, or the client's start time when read from JMX; a different one means the
	 * client was recreated and its counter started again from zero
	 */
	record NodeTotal(int brokerId, double total, @Nullable Object counter) {

	}

}
