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

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.followerfetch.Policy;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * One named group of consumers the application reads with: a listener's, a Kafka Streams
 * application's, a binding's.
 *
 * @param kind how the application consumes
 * @param name the listener id, application id or binding name
 * @param policy their fetch policy
 * @param config their effective configuration: its {@code bootstrap.servers} (and
 * security settings) name the cluster they read from; empty for the cluster of the
 * application's {@code KafkaAdmin}
 * @param assigned the partitions assigned to them, or {@code null} to take those their
 * fetch metrics name
 * @param metrics their client metrics by client id, as
 * {@code MessageListenerContainer.metrics()} gives them
 * @param details further facts shown in their health section, for example their
 * {@code client.rack}
 * @param rebalance asks their consumer group to rebalance, from any thread (a listener
 * container's {@code enforceRebalance()}), or {@code null} when the source cannot
 * @author follower-fetch authors
 */
public record ObservedConsumer(ConsumerKind kind, String name, Policy policy, Map<String, Object> config,
		@Nullable Collection<TopicPartition> assigned,
		Supplier<Map<String, Map<MetricName, ? extends Metric>>> metrics, Map<String, Object> details,
		@Nullable Runnable rebalance) {

	public ObservedConsumer {
		config = (config != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(config)) : Map.of();
		assigned = (assigned != null) ? List.copyOf(assigned) : null;
		details = (details != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(details)) : Map.of();
	}

	/**
	 * Consumers whose group cannot be asked to rebalance.
	 * @param kind how the application consumes
	 * @param name the listener id, application id or binding name
	 * @param policy their fetch policy
	 * @param config their effective configuration
	 * @param assigned the partitions assigned to them, or {@code null}
	 * @param metrics their client metrics by client id
	 * @param details further facts shown in their health section
	 */
	public ObservedConsumer(ConsumerKind kind, String name, Policy policy, Map<String, Object> config,
			@Nullable Collection<TopicPartition> assigned,
			Supplier<Map<String, Map<MetricName, ? extends Metric>>> metrics,
			Map<String, Object> details) {
		this(kind, name, policy, config, assigned, metrics, details, null);
	}

	/**
	 * The consumer group they belong to: {@code group.id}, or a Kafka Streams
	 * application's {@code application.id}.
	 * @return the group id, or {@code null} when their configuration names none
	 */
	public @Nullable String group() {
		Object group = this.config.getOrDefault(ConsumerConfig.GROUP_ID_CONFIG, this.config.get("application.id"));
		return (group != null && !group.toString().isBlank()) ? group.toString() : null;
	}

}
