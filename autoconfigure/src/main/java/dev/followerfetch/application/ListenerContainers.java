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
import java.util.IdentityHashMap;
import java.util.Map;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Every listener container of the application: those of {@code @KafkaListener} endpoints
 * and those declared as beans.
 *
 * @author follower-fetch authors
 */
public final class ListenerContainers {

	private final ObjectProvider<KafkaListenerEndpointRegistry> registry;

	private final ListableBeanFactory beanFactory;

	ListenerContainers(ObjectProvider<KafkaListenerEndpointRegistry> registry, ListableBeanFactory beanFactory) {
		this.registry = registry;
		this.beanFactory = beanFactory;
	}

	/**
	 * The listener containers: the registry's and the singleton container beans. Never
	 * instantiates a prototype container.
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
		return new ArrayList<>(containers.keySet());
	}

}
