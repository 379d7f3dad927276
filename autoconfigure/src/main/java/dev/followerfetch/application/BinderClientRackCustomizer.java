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
import java.util.Objects;

import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.stream.binder.kafka.config.ClientFactoryCustomizer;
import org.springframework.cloud.stream.binder.kafka.support.ConsumerConfigCustomizer;
import org.springframework.core.Ordered;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.util.StringUtils;

/**
 * Gives each consumer binding of the Spring Cloud Stream Kafka binder the
 * {@code client.rack} of its fetch policy, through the binder's own lists of customizers:
 * as a {@link ConsumerConfigCustomizer} it asks the {@link ClientRackDecider} for the
 * binding's configuration (an explicit {@code client.rack} there is kept); as a
 * {@link ClientFactoryCustomizer} it follows the consumers of the factory the binder then
 * builds from that configuration. It runs after the application's own customizers, so it
 * sees what they set.
 * <p>
 * The binder calls both for one binding on one thread, configuration first, then the
 * factory; the binding decided last on a thread is the one its next factory belongs to.
 *
 * @author follower-fetch authors
 */
final class BinderClientRackCustomizer implements ConsumerConfigCustomizer, ClientFactoryCustomizer, Ordered {

	private final ObjectProvider<ClientRackDecider> decider;

	private final BinderBindings bindings;

	private final BindingPolicyReport report;

	private final ThreadLocal<Decided> lastDecided = new ThreadLocal<>();

	BinderClientRackCustomizer(ObjectProvider<ClientRackDecider> decider, BinderBindings bindings,
			BindingPolicyReport report) {
		this.decider = decider;
		this.bindings = bindings;
		this.report = report;
	}

	@Override
	public void configure(Map<String, Object> consumerProperties, String bindingName, String destination) {
		Decided last = this.lastDecided.get();
		if (last != null && last.config() == consumerProperties) {
			return;
		}
		String name = StringUtils.hasText(bindingName) ? bindingName : destination;
		ConsumerPolicy policy = this.decider.getObject().configure(ConsumerKind.BINDING, name, consumerProperties);
		boolean added = this.bindings.decided(policy, destination);
		this.lastDecided.set(new Decided(name, consumerProperties));
		this.report.decided(policy, added);
	}

	@Override
	public void configure(ConsumerFactory<?, ?> consumerFactory) {
		Decided last = this.lastDecided.get();
		this.lastDecided.remove();
		if (last != null && Objects.equals(last.config().get(ConsumerConfig.GROUP_ID_CONFIG), groupId(consumerFactory))) {
			this.bindings.attach(last.bindingName(), consumerFactory);
		}
	}

	private static @Nullable Object groupId(ConsumerFactory<?, ?> consumerFactory) {
		try {
			return consumerFactory.getConfigurationProperties().get(ConsumerConfig.GROUP_ID_CONFIG);
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	private record Decided(String bindingName, Map<String, Object> config) {

	}

}
