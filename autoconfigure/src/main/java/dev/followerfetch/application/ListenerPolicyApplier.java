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

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.followerfetch.application.ListenerPolicies.Annotated;
import dev.followerfetch.application.ListenerPolicies.Declared;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientPlan;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Applies every listener container's {@link ClientPlan} before any container starts, and
 * records its policy. A {@code @KafkaListener} planned at its annotation keeps that plan:
 * its policy, and the {@code client.rack} it put in the container's consumer properties;
 * the container adds only what its annotation could not see (the assignment strategy
 * over its factory's, its client id prefix). Any other container (a listener on the
 * default policy, one declared as a bean) gets its whole plan here. What a plan adds goes
 * into the container's own consumer properties (the registry of zone-aware assignors as
 * an object, which spring-kafka passes on to the consumer), its client id prefix into its
 * container properties.
 *
 * @author follower-fetch authors
 */
final class ListenerPolicyApplier implements SmartLifecycle {

	static final int PHASE = Integer.MIN_VALUE;

	// the id Spring Kafka gives a @KafkaListener without one
	private static final String GENERATED_ID_PREFIX = "org.springframework.kafka.KafkaListenerEndpointContainer#";

	private static final Log logger = LogFactory.getLog(ListenerPolicyApplier.class);

	private final Supplier<Collection<MessageListenerContainer>> containers;

	private final ClientRackDecider decider;

	private final AppliedPlans applied;

	private final ListenerPolicies policies;

	private final Set<MessageListenerContainer> seen = Collections.newSetFromMap(new IdentityHashMap<>());

	private volatile boolean running;

	private boolean unknownIdsReported;

	ListenerPolicyApplier(Supplier<Collection<MessageListenerContainer>> containers, ClientRackDecider decider,
			AppliedPlans applied, ListenerPolicies policies) {
		this.containers = containers;
		this.decider = decider;
		this.applied = applied;
		this.policies = policies;
	}

	@Override
	public synchronized void start() {
		Collection<MessageListenerContainer> all = this.containers.get();
		List<ConsumerPolicy> decided = all.stream()
			.filter(this.seen::add)
			.map(this::apply)
			.flatMap(Optional::stream)
			.toList();
		if (!decided.isEmpty() && logger.isInfoEnabled()) {
			logger.info("Kafka listener fetch policies: "
					+ decided.stream().map(ConsumerPolicy::toString).collect(Collectors.joining(", ")));
		}
		reportUnknownIds(all);
		this.running = true;
	}

	private Optional<ConsumerPolicy> apply(MessageListenerContainer container) {
		ContainerProperties containerProperties;
		try {
			containerProperties = container.getContainerProperties();
		}
		catch (UnsupportedOperationException ex) {
			logger.warn("Listener container '" + container.getListenerId() + "' (" + container.getClass().getName()
					+ ") does not expose its properties; its fetch policy cannot be applied");
			return Optional.empty();
		}
		Declared declared = this.policies.declared(container.getListenerId(),
				containerProperties.getKafkaConsumerProperties());
		ClientRequest request = request(container, declared);
		ClientPlan plan = this.applied.applying(request, this.decider.plan(request));
		plan.settings().forEach(declared.own()::setProperty);
		ZoneAwareAssignors assignors = plan.assignors();
		if (assignors != null) {
			declared.own().put(ZoneAwareAssignor.REGISTRY_CONFIG, assignors);
		}
		containerProperties.setKafkaConsumerProperties(declared.own());
		plan.clientIdToSet().ifPresent(containerProperties::setClientId);
		ConsumerPolicy policy = Objects.requireNonNull(plan.policy());
		this.policies.record(policy);
		return Optional.of(policy);
	}

	/**
	 * What the {@link ClientRackDecider} needs to plan a container's consumers: with the
	 * policy its annotation's plan decided, where that plan still holds and was made for
	 * this listener; else with the annotation's policies, for a listener whose id
	 * spring-kafka resolved from an expression or generated (the annotation could not know
	 * it), its consumer properties without what that plan added.
	 */
	private static ClientRequest request(MessageListenerContainer container, Declared declared) {
		String id = container.getListenerId();
		ContainerProperties containerProperties = container.getContainerProperties();
		String base = (id != null && !id.startsWith(GENERATED_ID_PREFIX)) ? id
				: "consumer-" + Objects.requireNonNullElse(container.getGroupId(), "");
		Annotated annotated = declared.annotated();
		ConsumerPolicy decided = (annotated != null) ? annotated.plan().policy() : null;
		if (decided != null && Objects.equals(decided.name(), id)) {
			return ClientRequest.listener(id, ListenerPolicies.map(declared.own()),
					ListenerContainers.factoryConfig(container), decided, containerProperties.getClientId(), base);
		}
		if (annotated != null) {
			annotated.plan().settings().keySet().forEach(declared.own()::remove);
		}
		return ClientRequest.listener(id, ListenerPolicies.map(declared.own()),
				ListenerContainers.factoryConfig(container), (annotated != null) ? annotated.onMethod() : null,
				(annotated != null) ? annotated.onClass() : null, containerProperties.getClientId(), base);
	}

	private void reportUnknownIds(Collection<MessageListenerContainer> all) {
		if (this.unknownIdsReported) {
			return;
		}
		this.unknownIdsReported = true;
		Set<String> known = all.stream()
			.map(MessageListenerContainer::getListenerId)
			.filter((id) -> id != null)
			.collect(Collectors.toSet());
		this.decider.warnUnknownNames(ConsumerKind.LISTENER, known);
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
