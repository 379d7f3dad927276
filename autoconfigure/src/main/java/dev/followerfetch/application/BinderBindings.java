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

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.followerfetch.policy.ConsumerPolicy;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import org.jspecify.annotations.Nullable;

import org.springframework.kafka.core.ConsumerFactory;

/**
 * The Spring Cloud Stream Kafka binder's consumer bindings of this application: the fetch
 * policy each was given and the consumers its consumer factories have open now. Filled in
 * by the binder's customizers as the bindings are created; read by the observation.
 *
 * @author follower-fetch authors
 */
public final class BinderBindings {

	private final Map<String, Entry> bindings = new LinkedHashMap<>();

	BinderBindings() {
	}

	/**
	 * The bindings known so far, in the order they were first configured.
	 * @return a snapshot of every binding
	 */
	public synchronized List<Binding> all() {
		return this.bindings.values().stream().map(Entry::snapshot).toList();
	}

	/**
	 * The names of the bindings known so far.
	 * @return the binding names
	 */
	public synchronized Set<String> names() {
		return new LinkedHashSet<>(this.bindings.keySet());
	}

	/**
	 * Record a decision. A binding configured again (rebound, or a further destination)
	 * keeps its consumers and takes the last decision.
	 * @return {@code true} when the binding is new
	 */
	synchronized boolean decided(ConsumerPolicy policy, String destination) {
		boolean added = !this.bindings.containsKey(policy.name());
		Entry entry = this.bindings.computeIfAbsent(policy.name(), (name) -> new Entry(policy));
		entry.policy = policy;
		entry.destinations.add(destination);
		return added;
	}

	/**
	 * Follow the consumers a binding's consumer factory creates and closes.
	 */
	@SuppressWarnings("unchecked")
	synchronized void attach(String bindingName, ConsumerFactory<?, ?> consumerFactory) {
		Entry entry = this.bindings.get(bindingName);
		if (entry == null) {
			return;
		}
		LiveConsumers consumers = new LiveConsumers(consumerFactory);
		entry.factories.add(consumers);
		((ConsumerFactory<Object, Object>) consumerFactory).addListener(consumers);
	}

	/**
	 * One binding as last seen.
	 *
	 * @param policy the decision: policy, origin, binding name
	 * @param destinations the topics (or patterns) it consumes
	 * @param config the effective configuration of its consumers, empty before its
	 * consumer factory exists
	 * @param consumers the metrics of each of its open consumers, by client id
	 * @param observed whether its consumer factory is followed; not when only its
	 * configuration reached this application (a binder in a context of its own)
	 */
	public record Binding(ConsumerPolicy policy, Set<String> destinations, Map<String, Object> config,
			Map<String, Map<MetricName, ? extends Metric>> consumers, boolean observed) {

		/**
		 * The binding name.
		 * @return the name
		 */
		public String name() {
			return Objects.requireNonNull(this.policy.name());
		}

	}

	private static final class Entry {

		private ConsumerPolicy policy;

		Entry(ConsumerPolicy policy) {
			this.policy = policy;
		}

		private final Set<String> destinations = new LinkedHashSet<>();

		private final List<LiveConsumers> factories = new ArrayList<>();

		private Binding snapshot() {
			Map<String, Object> config = Map.of();
			Map<String, Map<MetricName, ? extends Metric>> metrics = new LinkedHashMap<>();
			for (LiveConsumers factory : this.factories) {
				if (config.isEmpty()) {
					config = factory.config();
				}
				metrics.putAll(factory.metrics());
			}
			return new Binding(this.policy, Collections.unmodifiableSet(new LinkedHashSet<>(this.destinations)), config,
					metrics, !this.factories.isEmpty());
		}

	}

	/**
	 * The consumers of one consumer factory that are open now. Their metrics are read
	 * from another thread than the consumer's, as spring-kafka's containers do.
	 */
	private static final class LiveConsumers implements ConsumerFactory.Listener<Object, Object> {

		private final ConsumerFactory<?, ?> consumerFactory;

		private final Map<Consumer<?, ?>, Boolean> open = Collections.synchronizedMap(new IdentityHashMap<>());

		LiveConsumers(ConsumerFactory<?, ?> consumerFactory) {
			this.consumerFactory = consumerFactory;
		}

		@Override
		public void consumerAdded(String id, Consumer<Object, Object> consumer) {
			this.open.put(consumer, Boolean.TRUE);
		}

		@Override
		public void consumerRemoved(@Nullable String id, Consumer<Object, Object> consumer) {
			this.open.remove(consumer);
		}

		Map<String, Object> config() {
			try {
				return Collections.unmodifiableMap(new HashMap<>(this.consumerFactory.getConfigurationProperties()));
			}
			catch (RuntimeException ex) {
				return Map.of();
			}
		}

		Map<String, Map<MetricName, ? extends Metric>> metrics() {
			Collection<Consumer<?, ?>> consumers;
			synchronized (this.open) {
				consumers = new ArrayList<>(this.open.keySet());
			}
			Map<String, Map<MetricName, ? extends Metric>> byClient = new LinkedHashMap<>();
			for (Consumer<?, ?> consumer : consumers) {
				Map<MetricName, ? extends Metric> metrics;
				try {
					metrics = consumer.metrics();
				}
				catch (RuntimeException ex) {
					continue;
				}
				String clientId = metrics.keySet()
					.stream()
					.map((name) -> name.tags().get("client-id"))
					.filter((id) -> id != null)
					.findFirst()
					.orElse(null);
				if (clientId != null) {
					byClient.put(clientId, metrics);
				}
			}
			return byClient;
		}

	}

}
