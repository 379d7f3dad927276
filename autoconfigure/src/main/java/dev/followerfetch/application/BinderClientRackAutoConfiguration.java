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

import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientRackDecider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.stream.binder.kafka.config.ClientFactoryCustomizer;
import org.springframework.cloud.stream.binder.kafka.support.ConsumerConfigCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that gives every consumer binding of the Spring Cloud Stream Kafka
 * binder the {@code client.rack} of its fetch policy
 * ({@code follower-fetch.policy.bindings.<binding-name>}), through the binder's
 * {@link ConsumerConfigCustomizer} and {@link ClientFactoryCustomizer} lists. A binder
 * whose context has the application's as parent finds these beans there; one in a context
 * of its own needs {@link BinderClientRackConfiguration}.
 *
 * @author follower-fetch authors
 */
@AutoConfiguration(after = { RackDetectionAutoConfiguration.class, ClientRackAutoConfiguration.class })
@ConditionalOnClass({ ConsumerConfigCustomizer.class, ClientFactoryCustomizer.class })
@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
public final class BinderClientRackAutoConfiguration {

	@Bean
	BinderBindings followerFetchBinderBindings() {
		return new BinderBindings();
	}

	@Bean
	BindingPolicyReport followerFetchBindingPolicyReport(ApplicationContext context, BinderBindings bindings,
			ObjectProvider<ClientRackDecider> decider) {
		return new BindingPolicyReport(context, bindings, decider);
	}

	@Bean
	BinderClientRackCustomizer followerFetchBinderClientRackCustomizer(ObjectProvider<ClientRackDecider> decider,
			BinderBindings bindings, BindingPolicyReport report) {
		return new BinderClientRackCustomizer(decider, bindings, report);
	}

	@Bean
	BinderClientIdCustomizer followerFetchBinderClientIdCustomizer(ObjectProvider<ClientRackDecider> decider,
			ObjectProvider<AppliedPlans> applied) {
		return new BinderClientIdCustomizer(decider, applied);
	}

}
