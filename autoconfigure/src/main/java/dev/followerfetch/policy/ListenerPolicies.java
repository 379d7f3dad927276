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
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import dev.followerfetch.Policy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The effective fetch policy of every listener container, known once the containers are
 * about to start. Available as a bean.
 *
 * @author follower-fetch authors
 */
public final class ListenerPolicies {

	/**
	 * The consumer property that carries the policy decided from a listener's
	 * {@code @FetchPolicy} from the annotation enhancer to its container; removed before
	 * the consumer is created.
	 */
	static final String MARKER = "dev.followerfetch.internal.policy";

	private static final Log logger = LogFactory.getLog(ListenerPolicies.class);

	private final ClientRackDecider decider;

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
	 * the one its consumer properties carry.
	 * @param container a listener container
	 * @return its policy
	 */
	public ConsumerPolicy of(MessageListenerContainer container) {
		String id = container.getListenerId();
		ConsumerPolicy recorded = (id != null) ? this.policies.get(id) : null;
		if (recorded != null) {
			return recorded;
		}
		Properties consumerProperties;
		try {
			consumerProperties = container.getContainerProperties().getKafkaConsumerProperties();
		}
		catch (UnsupportedOperationException ex) {
			return ConsumerPolicy.listener(id, defaultPolicy(), Origin.DEFAULT);
		}
		ConsumerPolicy marked = marked(id, consumerProperties.getProperty(MARKER));
		return decide(id, consumerProperties, marked);
	}

	/**
	 * Decide a listener's policy from what its consumer properties carry: the decision of
	 * the {@code @FetchPolicy} annotation enhancer (whose {@code client.rack} is then not the
	 * listener's own), or else the listener's own {@code client.rack}.
	 */
	ConsumerPolicy decide(String id, Properties consumerProperties, @Nullable ConsumerPolicy marked) {
		Object ownRack = (marked == null) ? consumerProperties.getProperty(ConsumerConfig.CLIENT_RACK_CONFIG) : null;
		Policy onMethod = (marked != null && marked.origin() == Origin.METHOD_ANNOTATION) ? marked.policy() : null;
		Policy onClass = (marked != null && marked.origin() == Origin.CLASS_ANNOTATION) ? marked.policy() : null;
		return this.decider.decide(ConsumerKind.LISTENER, id, ownRack, onMethod, onClass);
	}

	/**
	 * The policy the {@code @FetchPolicy} annotation enhancer decided for a listener, as its
	 * marker property carries it.
	 * @param id the listener id
	 * @param marker the marker's value, or {@code null}
	 * @return the policy, or {@code null} when there is no readable marker
	 */
	static @Nullable ConsumerPolicy marked(String id, @Nullable String marker) {
		if (marker == null) {
			return null;
		}
		String[] parts = marker.split(",", 2);
		try {
			return ConsumerPolicy.listener(id, Policy.valueOf(parts[0]), Origin.valueOf(parts[1]));
		}
		catch (RuntimeException ex) {
			logger.warn("Listener '" + id + "' carries an unreadable " + MARKER + "="
					+ marker + "; it is ignored");
			return null;
		}
	}

	void record(ConsumerPolicy policy) {
		Map<String, ConsumerPolicy> updated = new LinkedHashMap<>(this.policies);
		updated.put(policy.name(), policy);
		this.policies = Collections.unmodifiableMap(updated);
	}

}
