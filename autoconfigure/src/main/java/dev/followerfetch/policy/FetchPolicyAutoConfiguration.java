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
package dev.followerfetch.policy;

import dev.followerfetch.BoundSettings;
import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.InvalidSettings;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Auto-configuration of what decides each client's fetch policy and settings: the
 * {@link ClientRackDecider}, from the properties; the context's registry of zone-aware
 * assignors, which the decider hands to its consumers and the observation reads; and the
 * context's {@link AppliedPlans}, which the adapters that apply the decider's plans
 * (auto-configured in {@code dev.followerfetch.application}) and its own
 * {@code configure} share.
 *
 * @author follower-fetch authors
 */
@AutoConfiguration(after = RackDetectionAutoConfiguration.class)
@ConditionalOnClass({ ConsumerFactory.class, KafkaListenerEndpointRegistry.class })
@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
public final class FetchPolicyAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZoneAwareAssignors followerFetchZoneAwareAssignors() {
		return new ZoneAwareAssignors();
	}

	@Bean
	@ConditionalOnMissingBean
	AppliedPlans followerFetchAppliedPlans() {
		return new AppliedPlans();
	}

	@Bean
	@ConditionalOnMissingBean
	ClientRackDecider followerFetchClientRackDecider(FollowerFetchProperties properties,
			ObjectProvider<DetectedRack> detectedRack, ObjectProvider<ProducerRackSupport> producerSupport,
			ObjectProvider<ConfiguredConsumer.Observer> configuredConsumers, ZoneAwareAssignors assignors,
			AppliedPlans applied) {
		return InvalidSettings.checked(() -> new ClientRackDecider(policySettings(properties.getPolicy()),
				ClientSettings.of(BoundSettings.of(properties),
						producerSupport.getIfAvailable(ProducerRackSupport::ofClasspath)),
				detectedRack::getObject,
				(consumer) -> configuredConsumers.orderedStream().forEach((observer) -> observer.configured(consumer)),
				assignors, applied));
	}

	static PolicySettings policySettings(FollowerFetchProperties.PolicyProperties policy) {
		return PolicySettings.of(BoundSettings.of(policy));
	}

}
