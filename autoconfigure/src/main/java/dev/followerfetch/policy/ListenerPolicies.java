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
import java.util.UUID;
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
	 * annotation declared, this instance's key and an index into {@link #declarations}:
	 * spring-kafka carries nothing else from an annotation to its container (the listener
	 * method is not public on the container, and a listener without an id gets its id after
	 * the annotation is read). Removed before the consumer is created.
	 */
	static final String DECLARATION = "dev.followerfetch.internal.listener";

	// the id Spring Kafka gives a @KafkaListener without one
	private static final String GENERATED_ID_PREFIX = "org.springframework.kafka.KafkaListenerEndpointContainer#";

	private static final Log logger = LogFactory.getLog(ListenerPolicies.class);

	private final ClientRackDecider decider;

	// one entry per distinct declaration, so that prototype listener beans add none
	private final List<Declaration> declarations = new CopyOnWriteArrayList<>();

	// tells this application context's links from those of another in the same JVM
	private final String key = UUID.randomUUID().toString();

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
			declared = declared(id, container.getContainerProperties().getKafkaConsumerProperties());
		}
		catch (UnsupportedOperationException ex) {
			return new ConsumerPolicy(ConsumerKind.LISTENER, id, defaultPolicy(), Origin.DEFAULT);
		}
		return Objects.requireNonNull(this.decider
			.plan(ClientRequest.listenerAnnotation(id, map(declared.own()), declared.declaration().onMethod(),
					declared.declaration().onClass()))
			.policy());
	}

	/**
	 * Keep what a {@code @KafkaListener}'s annotation declared, for its container.
	 * @param declaration its {@code @FetchPolicy} and the {@code client.rack} its plan added
	 * @return the value of {@link #DECLARATION} that names it
	 */
	String declare(Declaration declaration) {
		synchronized (this.declarations) {
			int index = this.declarations.indexOf(declaration);
			if (index < 0) {
				this.declarations.add(declaration);
				index = this.declarations.size() - 1;
			}
			return this.key + ":" + index;
		}
	}

	/**
	 * A container's consumer properties as the application declared them, and its
	 * {@code @FetchPolicy}: without {@link #DECLARATION} and without the
	 * {@code client.rack} the annotation's plan added, where it still holds that value.
	 * @param id the listener id, for the log
	 * @param consumerProperties the container's consumer properties
	 * @return a copy as declared
	 */
	Declared declared(@Nullable String id, Properties consumerProperties) {
		Properties own = ListenerContainers.flatten(consumerProperties);
		Object link = own.remove(DECLARATION);
		Declaration declaration = (link != null) ? declaration(id, link.toString()) : null;
		if (declaration == null) {
			return new Declared(own, Declaration.NONE);
		}
		if (declaration.clientRack() != null
				&& declaration.clientRack().equals(own.getProperty(ConsumerConfig.CLIENT_RACK_CONFIG))) {
			own.remove(ConsumerConfig.CLIENT_RACK_CONFIG);
		}
		return new Declared(own, declaration);
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
				declared.declaration().onMethod(), declared.declaration().onClass(),
				containerProperties.getClientId(), base);
	}

	private @Nullable Declaration declaration(@Nullable String id, String link) {
		String prefix = this.key + ":";
		try {
			if (link.startsWith(prefix)) {
				return this.declarations.get(Integer.parseInt(link.substring(prefix.length())));
			}
		}
		catch (RuntimeException ex) {
			// reported below
		}
		logger.warn("Listener '" + id + "' carries " + DECLARATION + "=" + link + ", which no @KafkaListener of "
				+ "this application context declared; it is ignored");
		return null;
	}

	static Map<String, Object> map(Properties properties) {
		Map<String, Object> map = new LinkedHashMap<>();
		properties.forEach((name, value) -> map.put(name.toString(), value));
		return map;
	}

	void record(ConsumerPolicy policy) {
		String id = policy.name();
		if (id == null) {
			return;
		}
		Map<String, ConsumerPolicy> updated = new LinkedHashMap<>(this.policies);
		updated.put(id, policy);
		this.policies = Collections.unmodifiableMap(updated);
	}

	/**
	 * What a {@code @KafkaListener}'s annotation declared.
	 *
	 * @param onMethod {@code @FetchPolicy} on the method, or {@code null}
	 * @param onClass {@code @FetchPolicy} on the class, or {@code null}
	 * @param clientRack the {@code client.rack} the annotation's plan added to its consumer
	 * properties, or {@code null}
	 */
	record Declaration(@Nullable Policy onMethod, @Nullable Policy onClass, @Nullable String clientRack) {

		static final Declaration NONE = new Declaration(null, null, null);

	}

	/**
	 * A container's consumer properties as the application declared them, and its
	 * {@code @FetchPolicy}.
	 *
	 * @param own the consumer properties
	 * @param declaration what its annotation declared
	 */
	record Declared(Properties own, Declaration declaration) {

	}

}
