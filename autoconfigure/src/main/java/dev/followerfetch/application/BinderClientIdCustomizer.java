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

import java.util.Map;

import dev.followerfetch.policy.ClientRackDecider;
import org.apache.kafka.clients.producer.ProducerConfig;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.stream.binder.kafka.support.ProducerConfigCustomizer;
import org.springframework.core.Ordered;
import org.springframework.util.StringUtils;

/**
 * Gives each producer binding of the Spring Cloud Stream Kafka binder the zone tag of
 * {@code follower-fetch.client-id-zone} in its {@code client.id}, the binding's name
 * following it when the configuration has none (the binder's producer factory then adds
 * a counter per producer). A class of its own: the binder's consumer and producer
 * customizers declare the same method.
 *
 * @author follower-fetch authors
 */
final class BinderProducerClientIdCustomizer implements ProducerConfigCustomizer, Ordered {

	private final ObjectProvider<ClientRackDecider> decider;

	BinderProducerClientIdCustomizer(ObjectProvider<ClientRackDecider> decider) {
		this.decider = decider;
	}

	@Override
	public void configure(Map<String, Object> producerProperties, String bindingName, String destination) {
		String name = StringUtils.hasText(bindingName) ? bindingName : destination;
		this.decider.getObject()
			.clientId(producerProperties.get(ProducerConfig.CLIENT_ID_CONFIG), name)
			.ifPresent((clientId) -> producerProperties.put(ProducerConfig.CLIENT_ID_CONFIG, clientId));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
