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
import dev.followerfetch.policy.ConfiguredConsumer;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.function.context.FunctionRegistration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaListenerAnnotationBeanPostProcessor.AnnotationEnhancer;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Auto-configuration of each consumer's fetch policy: the {@link ClientRackDecider} that
 * decides it, and per listener, freshness (partition leader) or locality (in-zone
 * replica) from {@code @FetchPolicy} and the properties; the context's registry of
 * zone-aware assignors, which the decider hands to its consumers and the observation
 * reads.
 *
 * @author follower-fetch authors
 */
@AutoConfiguration(after = RackDetectionAutoConfiguration.class)
@ConditionalOnClass({ ConsumerFactory.class, KafkaListenerEndpointRegistry.class })
@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
public final class FetchPolicyAutoConfiguration {

	private static final String ANNOTATION_ENHANCER = "followerFetchPolicyAnnotationEnhancer";

	@Bean
	@ConditionalOnMissingBean
	ZoneAwareAssignors followerFetchZoneAwareAssignors() {
		return new ZoneAwareAssignors();
	}

	@Bean
	@ConditionalOnMissingBean
	ClientRackDecider followerFetchClientRackDecider(FollowerFetchProperties properties,
			ObjectProvider<DetectedRack> detectedRack, ObjectProvider<ProducerRackSupport> producerSupport,
			ObjectProvider<ConfiguredConsumer.Observer> configuredConsumers, ZoneAwareAssignors assignors) {
		return InvalidSettings.checked(() -> new ClientRackDecider(policySettings(properties.getPolicy()),
				ClientSettings.of(BoundSettings.of(properties),
						producerSupport.getIfAvailable(ProducerRackSupport::ofClasspath)),
				detectedRack::getObject,
				(consumer) -> configuredConsumers.orderedStream().forEach((observer) -> observer.configured(consumer)),
				assignors));
	}

	static PolicySettings policySettings(FollowerFetchProperties.PolicyProperties policy) {
		return PolicySettings.of(BoundSettings.of(policy));
	}

	@Bean
	ListenerContainers followerFetchListenerContainers(ObjectProvider<KafkaListenerEndpointRegistry> registry,
			ListableBeanFactory beanFactory) {
		return new ListenerContainers(registry, beanFactory);
	}

	@Bean(ANNOTATION_ENHANCER)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static AnnotationEnhancer followerFetchPolicyAnnotationEnhancer(ObjectProvider<ClientRackDecider> decider,
			ObjectProvider<ListenerPolicies> policies, Environment environment) {
		return new FetchPolicyAnnotationEnhancer(decider, policies, environment);
	}

	@Bean
	ListenerPolicies followerFetchListenerPolicies(ClientRackDecider decider) {
		return new ListenerPolicies(decider);
	}

	@Bean
	ListenerPolicyApplier followerFetchListenerPolicyApplier(ClientRackDecider decider, ListenerPolicies policies,
			ListenerContainers containers) {
		return new ListenerPolicyApplier(containers::all, decider, policies);
	}

	/**
	 * The enhancer is a {@code BiFunction} bean, which Spring Cloud Function counts among
	 * the application's functions: {@link CloudFunctionDiscovery} keeps its discovery as
	 * without the starter.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(FunctionRegistration.class)
	static final class FunctionCatalogConfiguration {

		@Bean
		static CloudFunctionDiscovery followerFetchCloudFunctionDiscovery(ConfigurableEnvironment environment) {
			return new CloudFunctionDiscovery(environment, ANNOTATION_ENHANCER);
		}

	}

}
