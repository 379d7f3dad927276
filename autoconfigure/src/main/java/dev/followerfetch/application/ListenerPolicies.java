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
import dev.followerfetch.policy.ClientPlan;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The effective fetch policy of every listener container, known once the containers are
 * about to start, and the plan each {@code @KafkaListener}'s annotation got. Available as
 * a bean.
 *
 * @author follower-fetch authors
 */
public final class ListenerPolicies {

	/**
	 * The consumer property that links a {@code @KafkaListener}'s container to the plan its
	 * annotation got, this instance's key and an index into {@link #plans}: spring-kafka
	 * carries nothing else from an annotation to its container (the listener method is not
	 * public on the container, and a listener without an id gets its id after the
	 * annotation is read). Removed before the consumer is created.
	 */
	static final String DECLARATION = "dev.followerfetch.internal.listener";

	private static final Log logger = LogFactory.getLog(ListenerPolicies.class);

	private final ClientRackDecider decider;

	// one entry per distinct plan, so that prototype listener beans add none
	private final List<Annotated> plans = new CopyOnWriteArrayList<>();

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
	 * the one its annotation's plan decided, else the one its consumer properties call for
	 * (a plan of its own, which changes nothing).
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
		ClientPlan plan = declared.plan();
		if (plan == null) {
			plan = this.decider.plan(ClientRequest.listenerAnnotation(id, map(declared.own()), null, null));
		}
		ConsumerPolicy policy = Objects.requireNonNull(plan.policy());
		return new ConsumerPolicy(ConsumerKind.LISTENER, id, policy.policy(), policy.origin());
	}

	/**
	 * Keep the plan a {@code @KafkaListener}'s annotation got, for its container, with the
	 * annotation's policies it was made from.
	 * @param plan the plan
	 * @param onMethod {@code @FetchPolicy} on the method, or {@code null}
	 * @param onClass {@code @FetchPolicy} on the class, or {@code null}
	 * @return the value of {@link #DECLARATION} that links to it
	 */
	String declare(ClientPlan plan, @Nullable Policy onMethod, @Nullable Policy onClass) {
		Annotated annotated = new Annotated(plan, onMethod, onClass);
		synchronized (this.plans) {
			int index = this.plans.indexOf(annotated);
			if (index < 0) {
				this.plans.add(annotated);
				index = this.plans.size() - 1;
			}
			return this.key + ":" + index;
		}
	}

	/**
	 * A container's consumer properties without {@link #DECLARATION}, and the plan its
	 * annotation got where they still hold it: the {@code client.rack} they carry is the
	 * one that plan added (none where it added none), else the rack is the listener's own
	 * and the plan is not its.
	 * @param id the listener id, for the log
	 * @param consumerProperties the container's consumer properties
	 * @return a copy without the link, and the plan
	 */
	Declared declared(@Nullable String id, Properties consumerProperties) {
		Properties own = ListenerContainers.flatten(consumerProperties);
		Object link = own.remove(DECLARATION);
		Annotated annotated = (link != null) ? annotated(id, link.toString()) : null;
		String rack = ConsumerConfig.CLIENT_RACK_CONFIG;
		if (annotated != null && !Objects.equals(annotated.plan().settings().get(rack), own.getProperty(rack))) {
			annotated = null;
		}
		return new Declared(own, annotated);
	}

	private @Nullable Annotated annotated(@Nullable String id, String link) {
		String prefix = this.key + ":";
		try {
			if (link.startsWith(prefix)) {
				return this.plans.get(Integer.parseInt(link.substring(prefix.length())));
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
	 * A container's consumer properties as the application and its annotation's plan left
	 * them, without the link, and that plan.
	 *
	 * @param own the consumer properties
	 * @param annotated the plan its annotation got, or {@code null} when it has none that
	 * still holds
	 */
	record Declared(Properties own, @Nullable Annotated annotated) {

		@Nullable ClientPlan plan() {
			return (this.annotated != null) ? this.annotated.plan() : null;
		}

	}

	/**
	 * The plan a {@code @KafkaListener}'s annotation got, and the annotation's policies it
	 * was made from.
	 *
	 * @param plan the plan
	 * @param onMethod {@code @FetchPolicy} on the method, or {@code null}
	 * @param onClass {@code @FetchPolicy} on the class, or {@code null}
	 */
	record Annotated(ClientPlan plan, @Nullable Policy onMethod, @Nullable Policy onClass) {

	}

}
