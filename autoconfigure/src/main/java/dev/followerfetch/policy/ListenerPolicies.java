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
import java.util.function.Supplier;

import dev.followerfetch.Policy;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ListenerPolicy.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The effective fetch policy of every listener container, known once the containers are
 * about to start. Available as a bean.
 *
 * @author follower-fetch authors
 */
public final class ListenerPolicies {

	private static final Log logger = LogFactory.getLog(ListenerPolicies.class);

	private final Policy defaultPolicy;

	private volatile Map<String, ListenerPolicy> policies = Map.of();

	ListenerPolicies(Policy defaultPolicy) {
		this.defaultPolicy = defaultPolicy;
	}

	/**
	 * The policy of consumers that are not listener containers, and of listeners that say
	 * nothing.
	 * @return the default policy
	 */
	public Policy defaultPolicy() {
		return this.defaultPolicy;
	}

	/**
	 * Every listener's policy, by listener id.
	 * @return the policies, in the order the containers were found
	 */
	public Map<String, ListenerPolicy> all() {
		return this.policies;
	}

	/**
	 * The policy of one listener.
	 * @param listenerId the listener id
	 * @return its policy, or empty if no such listener is known
	 */
	public Optional<ListenerPolicy> get(String listenerId) {
		return Optional.ofNullable(this.policies.get(listenerId));
	}

	/**
	 * The policy of a listener container: the one recorded when the containers started,
	 * or, for a container created later (a lazy listener bean, one registered at runtime),
	 * the one its consumer properties carry.
	 * @param container a listener container
	 * @return its policy
	 */
	public ListenerPolicy of(MessageListenerContainer container) {
		String id = container.getListenerId();
		ListenerPolicy recorded = (id != null) ? this.policies.get(id) : null;
		if (recorded != null) {
			return recorded;
		}
		Properties consumerProperties;
		try {
			consumerProperties = container.getContainerProperties().getKafkaConsumerProperties();
		}
		catch (UnsupportedOperationException ex) {
			return new ListenerPolicy(id, this.defaultPolicy, Origin.DEFAULT);
		}
		ListenerPolicy marked = marked(id, consumerProperties.getProperty(FetchPolicyAnnotationEnhancer.MARKER));
		if (marked != null) {
			return marked;
		}
		ListenerPolicy ownRack = ownRack(id, consumerProperties.getProperty(ConsumerConfig.CLIENT_RACK_CONFIG));
		return (ownRack != null) ? ownRack : new ListenerPolicy(id, this.defaultPolicy, Origin.DEFAULT);
	}

	/**
	 * The policy the {@link FetchPolicyAnnotationEnhancer} decided for a listener, as its
	 * marker property carries it.
	 * @param id the listener id
	 * @param marker the marker's value, or {@code null}
	 * @return the policy, or {@code null} when there is no readable marker
	 */
	static ListenerPolicy marked(String id, String marker) {
		if (marker == null) {
			return null;
		}
		String[] parts = marker.split(",", 2);
		try {
			return new ListenerPolicy(id, Policy.valueOf(parts[0]), Origin.valueOf(parts[1]));
		}
		catch (RuntimeException ex) {
			logger.warn("Listener '" + id + "' carries an unreadable " + FetchPolicyAnnotationEnhancer.MARKER + "="
					+ marker + "; it is ignored");
			return null;
		}
	}

	/**
	 * The policy a listener chose by setting {@code client.rack} in its own consumer
	 * properties: an empty rack keeps it on the leaders.
	 * @param id the listener id
	 * @param rack the listener's own {@code client.rack}, or {@code null}
	 * @return the policy, or {@code null} when the listener sets no rack
	 */
	static ListenerPolicy ownRack(String id, Object rack) {
		if (rack == null) {
			return null;
		}
		return new ListenerPolicy(id, rack.toString().isBlank() ? Policy.FRESHNESS : Policy.LOCALITY,
				Origin.LISTENER_CLIENT_RACK);
	}

	/**
	 * The {@code client.rack} a listener's own consumer properties must carry for its
	 * policy: empty for freshness; for locality, the detected rack when the consumer
	 * factories carry none (a freshness default), else nothing to add.
	 * @param policy the listener's policy
	 * @param defaultPolicy {@code follower-fetch.policy.default}
	 * @param detectedRack the detected rack
	 * @return the value to set, or empty to leave the factory's rack in force
	 */
	static Optional<String> clientRack(Policy policy, Policy defaultPolicy, Supplier<DetectedRack> detectedRack) {
		if (policy == Policy.FRESHNESS) {
			return Optional.of("");
		}
		if (defaultPolicy == Policy.FRESHNESS) {
			return detectedRack.get().rack();
		}
		return Optional.empty();
	}

	void record(ListenerPolicy policy) {
		Map<String, ListenerPolicy> updated = new LinkedHashMap<>(this.policies);
		updated.put(policy.listenerId(), policy);
		this.policies = Collections.unmodifiableMap(updated);
	}

}
