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

import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.util.StringUtils;

/**
 * Gives every listener container the {@code client.rack} its policy calls for, before any
 * container starts: an empty rack keeps a FRESHNESS listener on the partition leaders; a
 * LOCALITY listener reads from its zone. Decisions the {@link FetchPolicyAnnotationEnhancer}
 * already applied are recorded; the rest (container beans, listeners without an explicit
 * id) are made here. Precedence: the listener's own
 * {@code client.rack}, {@code follower-fetch.policy.listeners.<id>}, {@code @FetchPolicy}
 * on the method, then on the class, then {@code follower-fetch.policy.default}.
 *
 * @author follower-fetch authors
 */
final class ListenerPolicyApplier implements SmartLifecycle {

	static final int PHASE = Integer.MIN_VALUE;

	private static final Log logger = LogFactory.getLog(ListenerPolicyApplier.class);

	// the id Spring Kafka gives a @KafkaListener without one
	private static final String GENERATED_ID_PREFIX = "org.springframework.kafka.KafkaListenerEndpointContainer#";

	private final Supplier<Collection<MessageListenerContainer>> containers;

	private final ClientRackDecider decider;

	private final ListenerPolicies policies;

	private final Set<MessageListenerContainer> applied = Collections.newSetFromMap(new IdentityHashMap<>());

	private volatile boolean running;

	private boolean unknownIdsReported;

	ListenerPolicyApplier(Supplier<Collection<MessageListenerContainer>> containers, ClientRackDecider decider,
			ListenerPolicies policies) {
		this.containers = containers;
		this.decider = decider;
		this.policies = policies;
	}

	@Override
	public synchronized void start() {
		Collection<MessageListenerContainer> all = this.containers.get();
		List<ConsumerPolicy> decided = all.stream()
			.filter(this.applied::add)
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
		String id = container.getListenerId();
		ContainerProperties containerProperties;
		try {
			containerProperties = container.getContainerProperties();
		}
		catch (UnsupportedOperationException ex) {
			logger.warn("Listener container '" + id + "' (" + container.getClass().getName()
					+ ") does not expose its properties; its fetch policy cannot be applied");
			return Optional.empty();
		}
		Properties consumerProperties = ListenerContainers.flatten(containerProperties.getKafkaConsumerProperties());
		ConsumerPolicy marked = ListenerPolicies.marked(id,
				(String) consumerProperties.remove(ListenerPolicies.MARKER));
		ConsumerPolicy policy = this.policies.decide(id, consumerProperties, marked);
		if (policy.origin() != Origin.OWN_CLIENT_RACK && !policy.equals(marked)) {
			this.decider.clientRackOverFactory(policy.policy())
				.ifPresentOrElse(
					(rack) -> consumerProperties.setProperty(ConsumerConfig.CLIENT_RACK_CONFIG, rack),
					() -> consumerProperties.remove(ConsumerConfig.CLIENT_RACK_CONFIG));
		}
		withoutZoneAwareUnderTheConsumerProtocol(container, consumerProperties);
		withZoneAwareBeforeItsOwnStrategy(container, consumerProperties);
		containerProperties.setKafkaConsumerProperties(consumerProperties);
		withZoneInItsClientId(container, containerProperties);
		this.policies.record(policy);
		return Optional.of(policy);
	}

	/**
	 * A listener that moves to the consumer group protocol in its own properties cannot
	 * take the assignor its consumer factory got: Kafka refuses a non-blank
	 * {@code partition.assignment.strategy} with {@code group.protocol=consumer}.
	 */
	private static void withoutZoneAwareUnderTheConsumerProtocol(MessageListenerContainer container,
			Properties consumerProperties) {
		if (AssignmentStrategy.usesConsumerProtocol(consumerProperties)
				&& !consumerProperties.containsKey(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)
				&& ZoneAwareAssignor.strategies(ListenerContainers.consumerConfig(container)
					.get(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG))
					.contains(ZoneAwareAssignor.class.getName())) {
			consumerProperties.setProperty(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, "");
		}
	}

	/**
	 * A listener whose own properties name its {@code partition.assignment.strategy}
	 * replaces the list its consumer factory got: the same rule applies to it.
	 */
	private void withZoneAwareBeforeItsOwnStrategy(MessageListenerContainer container, Properties consumerProperties) {
		if (!consumerProperties.containsKey(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)) {
			return;
		}
		Map<String, Object> config = ListenerContainers.consumerConfig(container);
		consumerProperties.forEach((name, value) -> config.put(name.toString(), value));
		this.decider.assignment(ConsumerKind.LISTENER.describe(container.getListenerId()), config)
			.settings()
			.forEach(consumerProperties::setProperty);
	}

	/**
	 * A container's consumers take its client id prefix, else their factory's
	 * {@code client.id}, then the container's suffix ({@code -0}, {@code -1}): a prefix
	 * with the zone tag first, followed by the one the container had, its factory's
	 * {@code client.id} or else the listener id ({@code consumer-<group>} for a generated
	 * one), keeps them tagged and distinct. A {@code client.id} in the container's own
	 * consumer properties is not one Spring Kafka uses.
	 */
	private void withZoneInItsClientId(MessageListenerContainer container, ContainerProperties containerProperties) {
		String prefix = containerProperties.getClientId();
		Object own = StringUtils.hasText(prefix) ? prefix : factoryClientId(container);
		String id = container.getListenerId();
		String base = (id != null && !id.startsWith(GENERATED_ID_PREFIX)) ? id
				: "consumer-" + Objects.requireNonNullElse(container.getGroupId(), "");
		this.decider.clientId(own, base).ifPresent(containerProperties::setClientId);
	}

	private static @Nullable Object factoryClientId(MessageListenerContainer container) {
		try {
			return (container instanceof AbstractMessageListenerContainer<?, ?> withFactory
					&& ListenerContainers.consumerFactory(withFactory) instanceof ConsumerFactory<?, ?> factory)
							? factory.getConfigurationProperties().get(ConsumerConfig.CLIENT_ID_CONFIG) : null;
		}
		catch (UnsupportedOperationException ex) {
			return null;
		}
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
