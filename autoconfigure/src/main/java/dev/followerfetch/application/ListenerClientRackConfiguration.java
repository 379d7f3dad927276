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

import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientRackDecider;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.cloud.function.context.FunctionRegistration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaListenerAnnotationBeanPostProcessor.AnnotationEnhancer;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * Configuration, imported by {@link ClientRackAutoConfiguration}, that applies each
 * {@code @KafkaListener}'s plan: at its annotation, the {@code client.rack} its policy
 * ({@code @FetchPolicy}, {@code follower-fetch.policy.listeners.<id>}) calls for and the
 * link to that plan ({@link FetchPolicyAnnotationEnhancer}); at its container, before it
 * starts, the rest ({@link ListenerPolicyApplier}); and every listener's policy for the
 * observation ({@link ListenerPolicies}).
 *
 * @author follower-fetch authors
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(KafkaListenerEndpointRegistry.class)
@ConditionalOnBean(ClientRackDecider.class)
final class ListenerClientRackConfiguration {

	private static final String ANNOTATION_ENHANCER = "followerFetchPolicyAnnotationEnhancer";

	@Bean
	ListenerContainers followerFetchListenerContainers(ObjectProvider<KafkaListenerEndpointRegistry> registry,
			ListableBeanFactory beanFactory) {
		return new ListenerContainers(registry, beanFactory);
	}

	@Bean(ANNOTATION_ENHANCER)
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static AnnotationEnhancer followerFetchPolicyAnnotationEnhancer(ObjectProvider<ClientRackDecider> decider,
			ObjectProvider<AppliedPlans> applied, ObjectProvider<ListenerPolicies> policies, Environment environment) {
		return new FetchPolicyAnnotationEnhancer(decider, applied, policies, environment);
	}

	@Bean
	ListenerPolicies followerFetchListenerPolicies(ClientRackDecider decider) {
		return new ListenerPolicies(decider);
	}

	@Bean
	ListenerPolicyApplier followerFetchListenerPolicyApplier(ClientRackDecider decider, AppliedPlans applied,
			ListenerPolicies policies, ListenerContainers containers) {
		return new ListenerPolicyApplier(containers::all, decider, applied, policies);
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
