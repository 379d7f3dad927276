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
package dev.followerfetch.application;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.followerfetch.ClientRack;
import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ListenerContainers;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

/**
 * Sets {@code client.rack} on every {@link ConsumerFactory} bean, and on the factory held by
 * every listener container factory bean and every listener container bean, unless the
 * factory already has one or the default fetch policy is freshness. Factories get the
 * replica lease as {@code metadata.max.age.ms} once a rack is in effect, unless they set
 * it, and the zone-aware assignor first in {@code partition.assignment.strategy}. With
 * {@code follower-fetch.client-id-zone}, a factory's own {@code client.id} gets the zone
 * tag first.
 *
 * @author follower-fetch authors
 */
final class ClientRackConsumerFactoryPostProcessor implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(ClientRackConsumerFactoryPostProcessor.class);

	private final ObjectProvider<ClientRackDecider> decider;

	private final Set<ConsumerFactory<?, ?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());

	ClientRackConsumerFactoryPostProcessor(ObjectProvider<ClientRackDecider> decider) {
		this.decider = decider;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ConsumerFactory<?, ?> consumerFactory) {
			apply(consumerFactory, "ConsumerFactory bean '" + beanName + "'");
		}
		else if (bean instanceof AbstractKafkaListenerContainerFactory<?, ?, ?> containerFactory
				&& containerFactory.getConsumerFactory() != null) {
			apply(containerFactory.getConsumerFactory(),
					"ConsumerFactory of listener container factory '" + beanName + "'");
		}
		else if (bean instanceof AbstractMessageListenerContainer<?, ?> container
				&& ListenerContainers.consumerFactory(container) instanceof ConsumerFactory<?, ?> consumerFactory) {
			apply(consumerFactory, "ConsumerFactory of listener container '" + beanName + "'");
		}
		return bean;
	}

	private void apply(ConsumerFactory<?, ?> consumerFactory, String description) {
		synchronized (this.seen) {
			if (!this.seen.add(consumerFactory)) {
				return;
			}
		}
		Map<String, Object> configs = configs(consumerFactory);
		if (configs == null) {
			logger.warn(description + " (" + consumerFactory.getClass().getName()
					+ ") does not expose its configuration; set client.rack on it yourself");
			return;
		}
		ClientRackDecider decider = this.decider.getObject();
		applyAssignment(consumerFactory, decider, configs, description);
		applyClientId(consumerFactory, decider, configs, description);
		DetectedRack detected = decider.detectedRack();
		Object explicit = configs.get(ConsumerConfig.CLIENT_RACK_CONFIG);
		if (explicit != null) {
			if (logger.isInfoEnabled()) {
				logger.info(description + " keeps its own client.rack=" + explicit + rackNote(detected, explicit));
			}
			applyFollowerSettings(consumerFactory, decider, explicit, configs, description);
			return;
		}
		// listeners that read from followers while the default policy is freshness use this factory too
		applyFollowerSettings(consumerFactory, decider, detected.rack().orElse(null), configs, description);
		Optional<ClientRack> rack = decider.clientRack(decider.defaultPolicy()).flatMap(ClientRack::of);
		if (rack.isEmpty()) {
			if (decider.defaultPolicy() == Policy.FRESHNESS && logger.isDebugEnabled()) {
				logger.debug(description + " is left on the leaders: follower-fetch.policy.default=freshness");
			}
			return;
		}
		if (!update(consumerFactory, ConsumerConfig.CLIENT_RACK_CONFIG, rack.get().value())) {
			logger.warn(description + " (" + consumerFactory.getClass().getName()
					+ ") does not support updateConfigs; set client.rack=" + rack.get() + " on it yourself");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug(description + " now has client.rack=" + rack.get());
		}
	}

	private void applyAssignment(ConsumerFactory<?, ?> consumerFactory, ClientRackDecider decider,
			Map<String, Object> configs, String description) {
		AssignmentStrategy.Decision assignment = decider.assignment(description, configs);
		if (assignment.settings().isEmpty()) {
			return;
		}
		consumerFactory.updateConfigs(new HashMap<>(assignment.settings()));
		Map<String, Object> updated = configs(consumerFactory);
		if (updated == null || !assignment.settings().keySet().stream().allMatch(updated::containsKey)) {
			logger.warn(description + " (" + consumerFactory.getClass().getName()
					+ ") does not support updateConfigs; zone-aware assignment is not added");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug(description + " now has " + assignment.settings());
		}
	}

	/**
	 * A factory's own {@code client.id} gets the zone tag. One without stays so: every
	 * consumer it creates without a prefix of its own would share the one made up here.
	 * Listener containers get theirs per container.
	 */
	private void applyClientId(ConsumerFactory<?, ?> consumerFactory, ClientRackDecider decider,
			Map<String, Object> configs, String description) {
		decider.clientId(configs.get(ConsumerConfig.CLIENT_ID_CONFIG), null)
			.ifPresent((clientId) -> apply(consumerFactory, ConsumerConfig.CLIENT_ID_CONFIG, Optional.of(clientId),
					"follower-fetch.client-id-zone", description));
	}

	private void applyFollowerSettings(ConsumerFactory<?, ?> consumerFactory, ClientRackDecider decider,
			@Nullable Object rack, Map<String, Object> configs, String description) {
		apply(consumerFactory, ConsumerConfig.METADATA_MAX_AGE_CONFIG, decider.replicaLease(rack, configs),
				"follower-fetch.policy.replica-lease", description);
		apply(consumerFactory, ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, decider.replicaRequestTimeout(rack, configs),
				"follower-fetch.policy.replica-request-timeout", description);
	}

	private void apply(ConsumerFactory<?, ?> consumerFactory, String key, Optional<String> value, String property,
			String description) {
		value.filter((millis) -> update(consumerFactory, key, millis))
			.filter((millis) -> logger.isDebugEnabled())
			.ifPresent((millis) -> logger.debug(description + " now has " + key + "=" + millis + " (" + property + ")"));
	}

	private static boolean update(ConsumerFactory<?, ?> consumerFactory, String key, String value) {
		consumerFactory.updateConfigs(Map.of(key, value));
		Map<String, Object> updated = configs(consumerFactory);
		return updated != null && value.equals(updated.get(key));
	}

	private static String rackNote(DetectedRack detected, Object explicit) {
		return detected.rack()
			.filter((rack) -> !rack.equals(explicit.toString()))
			.map((rack) -> " (detected rack is " + rack + " from " + detected.source().orElse("?") + ")")
			.orElse("");
	}

	private static @Nullable Map<String, Object> configs(ConsumerFactory<?, ?> consumerFactory) {
		try {
			return consumerFactory.getConfigurationProperties();
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
	}

}
