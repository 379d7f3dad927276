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

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.followerfetch.application.ListenerContainers;
import dev.followerfetch.application.ListenerPolicies;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The consumers of every listener container with an id, observed under that id.
 *
 * @author follower-fetch authors
 */
final class ListenerConsumers implements ObservedConsumers {

	private final Supplier<Collection<MessageListenerContainer>> containers;

	private final ListenerPolicies policies;

	ListenerConsumers(Supplier<Collection<MessageListenerContainer>> containers, ListenerPolicies policies) {
		this.containers = containers;
		this.policies = policies;
	}

	@Override
	public Collection<ObservedConsumer> find() {
		List<ObservedConsumer> found = new ArrayList<>();
		for (MessageListenerContainer container : this.containers.get()) {
			String id = container.getListenerId();
			if (id != null) {
				Map<String, Object> config = ListenerContainers.consumerConfig(container);
				if (container.getGroupId() != null) {
					config.put(ConsumerConfig.GROUP_ID_CONFIG, container.getGroupId());
				}
				found.add(new ObservedConsumer(ConsumerKind.LISTENER, id, this.policies.of(container).policy(), config,
						assigned(container), () -> metrics(container), Map.of(), container::enforceRebalance));
			}
		}
		return found;
	}

	private static Collection<TopicPartition> assigned(MessageListenerContainer container) {
		Collection<TopicPartition> assigned = container.getAssignedPartitions();
		return (assigned != null) ? assigned : List.of();
	}

	private static Map<String, Map<MetricName, ? extends Metric>> metrics(MessageListenerContainer container) {
		try {
			return container.metrics();
		}
		catch (RuntimeException ex) {
			return Map.of();
		}
	}

}
