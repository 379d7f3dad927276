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
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Auto-configuration that gives every Kafka {@link ConsumerFactory} the detected
 * {@code client.rack}, Boot's own and user-defined ones alike, every producer factory its
 * producer settings (Kafka clients 4.4+), and every listener its plan
 * ({@link ListenerClientRackConfiguration}).
 *
 * @author follower-fetch authors
 */
@AutoConfiguration(after = { RackDetectionAutoConfiguration.class, FetchPolicyAutoConfiguration.class })
@ConditionalOnClass(ConsumerFactory.class)
@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
@Import(ListenerClientRackConfiguration.class)
public final class ClientRackAutoConfiguration {

	@Bean
	static ClientRackConsumerFactoryPostProcessor followerFetchClientRackConsumerFactoryPostProcessor(
			ObjectProvider<ClientRackDecider> decider, ObjectProvider<AppliedPlans> applied) {
		return new ClientRackConsumerFactoryPostProcessor(decider, applied);
	}

	@Bean
	static ClientRackProducerFactoryPostProcessor followerFetchClientRackProducerFactoryPostProcessor(
			ObjectProvider<ClientRackDecider> decider, ObjectProvider<AppliedPlans> applied, Environment environment) {
		return new ClientRackProducerFactoryPostProcessor(decider, applied,
				environment.getProperty("spring.application.name"));
	}

}
