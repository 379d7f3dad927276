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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientPlan;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

/**
 * Applies the {@link ClientPlan} of every {@link ConsumerFactory} bean, and of the factory
 * held by every listener container factory bean and every listener container bean: the
 * default policy's {@code client.rack} unless the factory has one, the follower settings,
 * the zone-aware assignor first in {@code partition.assignment.strategy} with the
 * application's registry of zone-aware assignors and, with
 * {@code follower-fetch.client-id-zone}, the zone tag first in its own {@code client.id}.
 *
 * @author follower-fetch authors
 */
final class ClientRackConsumerFactoryPostProcessor implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(ClientRackConsumerFactoryPostProcessor.class);

	private final ObjectProvider<ClientRackDecider> decider;

	private final ObjectProvider<AppliedPlans> applied;

	private final Set<ConsumerFactory<?, ?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());

	ClientRackConsumerFactoryPostProcessor(ObjectProvider<ClientRackDecider> decider,
			ObjectProvider<AppliedPlans> applied) {
		this.decider = decider;
		this.applied = applied;
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
		ClientRequest request = ClientRequest.consumerFactory(description, configs);
		ClientPlan plan = this.applied.getObject().applying(request, this.decider.getObject().plan(request));
		if (plan.isEmpty()) {
			return;
		}
		consumerFactory.updateConfigs(new HashMap<>(plan.configs()));
		Map<String, Object> updated = configs(consumerFactory);
		Map<String, Object> missing = new LinkedHashMap<>(plan.configs());
		if (updated != null) {
			missing.entrySet().removeIf((setting) -> setting.getValue().equals(updated.get(setting.getKey())));
		}
		if (!missing.isEmpty()) {
			logger.warn(description + " (" + consumerFactory.getClass().getName()
					+ ") does not support updateConfigs; set " + missing + " on it yourself");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug(description + " now has " + plan.configs());
		}
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
