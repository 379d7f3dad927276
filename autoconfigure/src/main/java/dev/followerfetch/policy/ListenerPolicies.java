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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.followerfetch.Policy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The effective fetch policy of every listener container, known once the containers are
 * about to start, and what each {@code @KafkaListener} declared for it. Available as a
 * bean.
 *
 * @author follower-fetch authors
 */
public final class ListenerPolicies {

	/**
	 * The consumer property that links a {@code @KafkaListener}'s container to what its
	 * annotation declared, an index into {@link #declarations}: spring-kafka carries nothing
	 * else from an annotation to its container (the listener method is not public on the
	 * container, and a listener without an id gets its id after the annotation is read).
	 * Removed before the consumer is created.
	 */
	static final String DECLARATION = "dev.followerfetch.internal.listener";

	// the id Spring Kafka gives a @KafkaListener without one
	private static final String GENERATED_ID_PREFIX = "org.springframework.kafka.KafkaListenerEndpointContainer#";

	private static final Log logger = LogFactory.getLog(ListenerPolicies.class);

	private final ClientRackDecider decider;

	private final List<Annotations> declarations = new CopyOnWriteArrayList<>();

	private volatile Map<String, ConsumerPolicy> policies = Map.of();

	ListenerPolicies(ClientRackDecider decider) {
		this.decider = decider;
	}

	/**
	 * The policy of consumers that are not listener containers, and of listeners that say
	 * nothing.
	 * @return the default policy
	 */
	public Policy defaultPolicy() {
		return this.decider.defaultPolicy();
	}

	/**
	 * Every listener's policy, by listener id.
	 * @return the policies, in the order the containers were found
	 */
	public Map<String, ConsumerPolicy> all() {
		return this.policies;
	}

	/**
	 * The policy of one listener.
	 * @param listenerId the listener id
	 * @return its policy, or empty if no such listener is known
	 */
	public Optional<ConsumerPolicy> get(String listenerId) {
		return Optional.ofNullable(this.policies.get(listenerId));
	}

	/**
	 * The policy of a listener container: the one recorded when the containers started,
	 * or, for a container created later (a lazy listener bean, one registered at runtime),
	 * the one its declaration calls for.
	 * @param container a listener container
	 * @return its policy
	 */
	public ConsumerPolicy of(MessageListenerContainer container) {
		String id = container.getListenerId();
		ConsumerPolicy recorded = (id != null) ? this.policies.get(id) : null;
		if (recorded != null) {
			return recorded;
		}
		Declared declared;
		try {
			declared = declared(container.getContainerProperties().getKafkaConsumerProperties());
		}
		catch (UnsupportedOperationException ex) {
			return ConsumerPolicy.listener(String.valueOf(id), defaultPolicy(), Origin.DEFAULT);
		}
		return Objects.requireNonNull(this.decider
			.plan(ClientRequest.listenerAnnotation(id, map(declared.own()), declared.annotations().onMethod(),
					declared.annotations().onClass()))
			.policy());
	}

	/**
	 * Keep what a {@code @KafkaListener}'s annotation declared, for its container.
	 * @param onMethod {@code @FetchPolicy} on the method, or {@code null}
	 * @param onClass {@code @FetchPolicy} on the class, or {@code null}
	 * @return the value of {@link #DECLARATION} that names it
	 */
	String declare(@Nullable Policy onMethod, @Nullable Policy onClass) {
		synchronized (this.declarations) {
			this.declarations.add(new Annotations(onMethod, onClass));
			return String.valueOf(this.declarations.size() - 1);
		}
	}

	/**
	 * A container's consumer properties as the application declared them, and its
	 * {@code @FetchPolicy}: without {@link #DECLARATION} and, when that is present, without
	 * the {@code client.rack} the annotation's plan added.
	 * @param consumerProperties the container's consumer properties
	 * @return a copy as declared
	 */
	Declared declared(Properties consumerProperties) {
		Properties own = ListenerContainers.flatten(consumerProperties);
		Object handle = own.remove(DECLARATION);
		Annotations annotations = (handle != null) ? annotations(handle.toString()) : null;
		if (annotations == null) {
			return new Declared(own, new Annotations(null, null));
		}
		own.remove(ConsumerConfig.CLIENT_RACK_CONFIG);
		return new Declared(own, annotations);
	}

	/**
	 * What the {@link ClientRackDecider} needs to plan a container's consumers.
	 * @param container the listener container
	 * @param declared its consumer properties as declared
	 * @return the request
	 */
	ClientRequest request(MessageListenerContainer container, Declared declared) {
		String id = container.getListenerId();
		ContainerProperties containerProperties = container.getContainerProperties();
		String base = (id != null && !id.startsWith(GENERATED_ID_PREFIX)) ? id
				: "consumer-" + Objects.requireNonNullElse(container.getGroupId(), "");
		return ClientRequest.listener(id, map(declared.own()), ListenerContainers.factoryConfig(container),
				declared.annotations().onMethod(), declared.annotations().onClass(), containerProperties.getClientId(),
				base);
	}

	private @Nullable Annotations annotations(String handle) {
		try {
			return this.declarations.get(Integer.parseInt(handle));
		}
		catch (RuntimeException ex) {
			logger.warn("A listener carries " + DECLARATION + "=" + handle + ", which no @KafkaListener of this "
					+ "application declared; it is ignored");
			return null;
		}
	}

	private static Map<String, Object> map(Properties properties) {
		Map<String, Object> map = new LinkedHashMap<>();
		properties.forEach((name, value) -> map.put(name.toString(), value));
		return map;
	}

	void record(ConsumerPolicy policy) {
		Map<String, ConsumerPolicy> updated = new LinkedHashMap<>(this.policies);
		updated.put(String.valueOf(policy.name()), policy);
		this.policies = Collections.unmodifiableMap(updated);
	}

	/**
	 * {@code @FetchPolicy} on a listener's method and class.
	 *
	 * @param onMethod on the method, or {@code null}
	 * @param onClass on the class, or {@code null}
	 */
	record Annotations(@Nullable Policy onMethod, @Nullable Policy onClass) {

	}

	/**
	 * A container's consumer properties as the application declared them, and its
	 * {@code @FetchPolicy}.
	 *
	 * @param own the consumer properties
	 * @param annotations its {@code @FetchPolicy}
	 */
	record Declared(Properties own, Annotations annotations) {

	}

}
