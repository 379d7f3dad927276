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
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.Policy;
import dev.followerfetch.detection.DetectedRack;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Sets {@code client.rack} on every {@link ConsumerFactory} bean, and on the factory held by
 * every listener container factory bean, unless the factory already has one or the default
 * fetch policy is freshness.
 *
 * @author follower-fetch authors
 */
final class ClientRackConsumerFactoryPostProcessor implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(ClientRackConsumerFactoryPostProcessor.class);

	private final ObjectProvider<DetectedRack> detectedRack;

	private final ObjectProvider<FollowerFetchProperties> properties;

	private final Set<ConsumerFactory<?, ?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());

	ClientRackConsumerFactoryPostProcessor(ObjectProvider<DetectedRack> detectedRack,
			ObjectProvider<FollowerFetchProperties> properties) {
		this.detectedRack = detectedRack;
		this.properties = properties;
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
		Object explicit = configs.get(ConsumerConfig.CLIENT_RACK_CONFIG);
		DetectedRack detected = this.detectedRack.getObject();
		if (explicit != null) {
			if (logger.isInfoEnabled()) {
				logger.info(description + " keeps its own client.rack=" + explicit + rackNote(detected, explicit));
			}
			return;
		}
		if (this.properties.getObject().getPolicy().getDefault() == Policy.FRESHNESS) {
			if (logger.isDebugEnabled()) {
				logger.debug(description + " is left on the leaders: follower-fetch.policy.default=freshness");
			}
			return;
		}
		detected.rack().ifPresent((rack) -> {
			consumerFactory.updateConfigs(Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, rack));
			Map<String, Object> updated = configs(consumerFactory);
			if (updated == null || !rack.equals(updated.get(ConsumerConfig.CLIENT_RACK_CONFIG))) {
				logger.warn(description + " (" + consumerFactory.getClass().getName()
						+ ") does not support updateConfigs; set client.rack=" + rack + " on it yourself");
			}
			else if (logger.isDebugEnabled()) {
				logger.debug(description + " now has client.rack=" + rack);
			}
		});
	}

	private static String rackNote(DetectedRack detected, Object explicit) {
		return detected.rack()
			.filter((rack) -> !rack.equals(explicit.toString()))
			.map((rack) -> " (detected rack is " + rack + " from " + detected.source().orElse("?") + ")")
			.orElse("");
	}

	private static Map<String, Object> configs(ConsumerFactory<?, ?> consumerFactory) {
		try {
			return consumerFactory.getConfigurationProperties();
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
	}

}
