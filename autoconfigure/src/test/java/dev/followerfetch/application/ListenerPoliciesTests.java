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

import dev.followerfetch.Policy;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ClientPlan;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import dev.followerfetch.policy.PolicySettings;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ListenerPolicies}.
 *
 * @author follower-fetch authors
 */
class ListenerPoliciesTests {

	private final ClientRackDecider decider = new ClientRackDecider(PolicySettings.defaults(),
			() -> DetectedRack.of("az-b", "test"));

	private final ListenerPolicies policies = new ListenerPolicies(this.decider);

	@Test
	void aRecordedPolicyIsTheContainersPolicy() {
		this.policies.record(ConsumerPolicy.listener("audit", Policy.FRESHNESS, Origin.PROPERTY));
		assertThat(this.policies.of(container("audit", Map.of())))
			.isEqualTo(ConsumerPolicy.listener("audit", Policy.FRESHNESS, Origin.PROPERTY));
	}

	@Test
	void aContainerCreatedAfterStartUpIsJudgedByThePolicyItsAnnotationAskedFor() {
		String declaration = this.policies.declare(annotationPlan(Policy.FRESHNESS), Policy.FRESHNESS, null);
		assertThat(this.policies.of(container("late",
				Map.of(ListenerPolicies.DECLARATION, declaration, ConsumerConfig.CLIENT_RACK_CONFIG, ""))))
			.isEqualTo(ConsumerPolicy.listener("late", Policy.FRESHNESS, Origin.METHOD_ANNOTATION));
	}

	@Test
	void aRackTheAnnotationDidNotAddIsTheListenersOwn() {
		String declaration = this.policies.declare(annotationPlan(Policy.LOCALITY), Policy.LOCALITY, null);
		assertThat(this.policies.of(container("late",
				Map.of(ListenerPolicies.DECLARATION, declaration, ConsumerConfig.CLIENT_RACK_CONFIG, ""))))
			.isEqualTo(ConsumerPolicy.listener("late", Policy.FRESHNESS, Origin.OWN_CLIENT_RACK));
	}

	@Test
	void aLinkFromAnotherApplicationContextIsIgnored() {
		ListenerPolicies other = new ListenerPolicies(
				new ClientRackDecider(PolicySettings.defaults(), () -> DetectedRack.of("az-b", "test")));
		String declaration = other.declare(annotationPlan(Policy.FRESHNESS), Policy.FRESHNESS, null);
		assertThat(this.policies.of(container("late", Map.of(ListenerPolicies.DECLARATION, declaration))))
			.isEqualTo(ConsumerPolicy.listener("late", Policy.LOCALITY, Origin.DEFAULT));
	}

	@Test
	void aContainerCreatedAfterStartUpWithItsOwnRackIsJudgedByThatRack() {
		assertThat(this.policies.of(container("late", Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, ""))))
			.isEqualTo(ConsumerPolicy.listener("late", Policy.FRESHNESS, Origin.OWN_CLIENT_RACK));
		assertThat(this.policies.of(container("late", Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, "az-a"))))
			.isEqualTo(ConsumerPolicy.listener("late", Policy.LOCALITY, Origin.OWN_CLIENT_RACK));
	}

	@Test
	void aContainerCreatedAfterStartUpThatSaysNothingFollowsTheDefault() {
		assertThat(this.policies.of(container("late", Map.of())))
			.isEqualTo(ConsumerPolicy.listener("late", Policy.LOCALITY, Origin.DEFAULT));
	}

	private ClientPlan annotationPlan(Policy onMethod) {
		return this.decider.plan(ClientRequest.listenerAnnotation(null, Map.of(), onMethod, null));
	}

	private static ConcurrentMessageListenerContainer<String, String> container(String id,
			Map<String, String> consumerProperties) {
		ContainerProperties properties = new ContainerProperties("orders");
		properties.getKafkaConsumerProperties().putAll(consumerProperties);
		properties.setMessageListener((MessageListener<String, String>) (record) -> {
		});
		ConcurrentMessageListenerContainer<String, String> container = new ConcurrentMessageListenerContainer<>(
				new DefaultKafkaConsumerFactory<>(Map.of()), properties);
		container.setBeanName(id);
		return container;
	}

}
