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

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.DirectFieldAccessor;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Every listener container of the application: those of {@code @KafkaListener} endpoints
 * and those declared as beans. Share listener containers (KIP-932) are not among them:
 * their consumers fetch from the partition leaders whatever their configuration, so no
 * policy applies to them, and they are observed as share consumers.
 *
 * @author follower-fetch authors
 */
public final class ListenerContainers {

	private static final String SHARE_CONTAINER = "org.springframework.kafka.listener."
			+ "AbstractShareKafkaMessageListenerContainer";

	private final ObjectProvider<KafkaListenerEndpointRegistry> registry;

	private final ListableBeanFactory beanFactory;

	ListenerContainers(ObjectProvider<KafkaListenerEndpointRegistry> registry, ListableBeanFactory beanFactory) {
		this.registry = registry;
		this.beanFactory = beanFactory;
	}

	/**
	 * The listener containers: the registry's and the singleton container beans, share
	 * containers left out. Never instantiates a prototype container.
	 * @return the containers
	 */
	public Collection<MessageListenerContainer> all() {
		Map<MessageListenerContainer, Boolean> containers = new IdentityHashMap<>();
		KafkaListenerEndpointRegistry endpointRegistry = this.registry.getIfUnique();
		if (endpointRegistry != null) {
			endpointRegistry.getListenerContainers().forEach((container) -> containers.put(container, true));
		}
		this.beanFactory.getBeansOfType(MessageListenerContainer.class, false, false)
			.values()
			.forEach((container) -> containers.put(container, true));
		containers.keySet().removeIf(ListenerContainers::isShare);
		return new ArrayList<>(containers.keySet());
	}

	// by name: spring-kafka 3.3 (Spring Boot 3.5) has no share containers
	private static boolean isShare(MessageListenerContainer container) {
		for (Class<?> type = container.getClass(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals(SHARE_CONTAINER)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The configuration a container's consumers are created with: its consumer factory's,
	 * overridden by the container's own consumer properties (those of a
	 * {@code @KafkaListener}'s {@code properties} included).
	 * @param container a listener container
	 * @return the configuration, empty when the container exposes none of it
	 */
	public static Map<String, Object> consumerConfig(MessageListenerContainer container) {
		Map<String, Object> config = factoryConfig(container);
		try {
			flatten(container.getContainerProperties().getKafkaConsumerProperties())
				.forEach((name, value) -> config.put(name.toString(), value));
		}
		catch (UnsupportedOperationException ex) {
			// a container that does not expose its properties
		}
		return config;
	}

	/**
	 * The configuration of a container's consumer factory.
	 * @param container a listener container
	 * @return a copy of the configuration, empty when the container exposes no factory or
	 * the factory no configuration
	 */
	public static Map<String, Object> factoryConfig(MessageListenerContainer container) {
		Map<String, Object> config = new HashMap<>();
		if (container instanceof AbstractMessageListenerContainer<?, ?> abstractContainer
				&& consumerFactory(abstractContainer) instanceof ConsumerFactory<?, ?> consumerFactory) {
			try {
				config.putAll(consumerFactory.getConfigurationProperties());
			}
			catch (UnsupportedOperationException ex) {
				// a factory that does not expose its configuration
			}
		}
		return config;
	}

	/**
	 * A container's consumer properties as one map: spring-kafka puts a
	 * {@code @KafkaListener}'s {@code properties} over the container factory's as
	 * {@link Properties} defaults, which a plain copy would lose.
	 * @param consumerProperties the container's consumer properties
	 * @return a copy holding its entries and its String defaults
	 */
	public static Properties flatten(Properties consumerProperties) {
		Properties flat = new Properties();
		flat.putAll(consumerProperties);
		consumerProperties.stringPropertyNames()
			.forEach((name) -> flat.setProperty(name, consumerProperties.getProperty(name)));
		return flat;
	}

	/**
	 * A container may hold a consumer factory that is no bean; spring-kafka keeps it in a
	 * protected field of its container base class and offers no getter.
	 * @param container a listener container
	 * @return its consumer factory, or {@code null}
	 */
	public static @Nullable Object consumerFactory(AbstractMessageListenerContainer<?, ?> container) {
		try {
			return new DirectFieldAccessor(container).getPropertyValue(FollowerFetchRuntimeHints.CONSUMER_FACTORY_FIELD);
		}
		catch (BeansException ex) {
			return null;
		}
	}

}
