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

import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.stream.binder.kafka.provisioning.AdminClientConfigCustomizer;
import org.springframework.cloud.stream.binder.kafka.support.ProducerConfigCustomizer;
import org.springframework.core.Ordered;
import org.springframework.util.StringUtils;

/**
 * Gives the producers and the admin client of the Spring Cloud Stream Kafka binder the
 * zone tag of {@code follower-fetch.client-id-zone} in their {@code client.id}: a
 * producer binding's name follows it when the configuration has none (the binder's
 * producer factory then adds a counter per producer), {@code producer} for the factory of
 * a transactional binder, which has no binding, and {@code binder-admin} for the
 * provisioner's admin client. A class apart from the consumer customizer: the binder's
 * consumer and producer customizers declare the same method.
 *
 * @author follower-fetch authors
 */
final class BinderClientIdCustomizer implements ProducerConfigCustomizer, AdminClientConfigCustomizer, Ordered {

	private final ObjectProvider<ClientRackDecider> decider;

	private final ObjectProvider<AppliedPlans> applied;

	BinderClientIdCustomizer(ObjectProvider<ClientRackDecider> decider, ObjectProvider<AppliedPlans> applied) {
		this.decider = decider;
		this.applied = applied;
	}

	@Override
	public void configure(Map<String, Object> producerProperties, @Nullable String bindingName,
			@Nullable String destination) {
		String name = StringUtils.hasText(bindingName) ? bindingName
				: StringUtils.hasText(destination) ? destination : "producer";
		tag(producerProperties, name);
	}

	@Override
	public void configure(Map<String, Object> adminClientProperties) {
		tag(adminClientProperties, "binder-admin");
	}

	private void tag(Map<String, Object> properties, String base) {
		ClientRequest request = ClientRequest.client(properties, base);
		this.applied.getObject().applying(request, this.decider.getObject().plan(request)).applyTo(properties);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
