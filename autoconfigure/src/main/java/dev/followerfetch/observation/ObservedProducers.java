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
package dev.followerfetch.observation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.followerfetch.policy.ClientRackDecider;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The producers of the application, by producer factory: listens to every
 * {@link ProducerFactory} bean, and to the factory of every {@link KafkaTemplate} bean, for
 * the producers it creates and closes, since they are created lazily on first send. A
 * factory is named by its bean name (or its template's), so the names are bounded by the
 * application's beans, and forgotten when that bean is destroyed: the next refresh no
 * longer lists it, and its meters go.
 *
 * @author follower-fetch authors
 */
final class ObservedProducers implements DestructionAwareBeanPostProcessor {

	private final ObjectProvider<ClientRackDecider> decider;

	private final Map<ProducerFactory<?, ?>, Tracked> factories = Collections.synchronizedMap(new IdentityHashMap<>());

	ObservedProducers(ObjectProvider<ClientRackDecider> decider) {
		this.decider = decider;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ProducerFactory<?, ?> factory) {
			track(factory, beanName);
		}
		else if (bean instanceof KafkaTemplate<?, ?> template && template.getProducerFactory() != null) {
			track(template.getProducerFactory(), beanName);
		}
		return bean;
	}

	@Override
	public void postProcessBeforeDestruction(Object bean, String beanName) {
		if (bean instanceof ProducerFactory<?, ?> factory) {
			forget(factory, beanName);
		}
		else if (bean instanceof KafkaTemplate<?, ?> template && template.getProducerFactory() != null) {
			forget(template.getProducerFactory(), beanName);
		}
	}

	@Override
	public boolean requiresDestruction(Object bean) {
		return bean instanceof ProducerFactory<?, ?> || bean instanceof KafkaTemplate<?, ?>;
	}

	/**
	 * Stop listening to a factory tracked under this bean's name: a template's
	 * destruction leaves alone a factory that is a bean of its own.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	private void forget(ProducerFactory<?, ?> factory, String name) {
		Tracked tracked;
		synchronized (this.factories) {
			tracked = this.factories.get(factory);
			if (tracked == null || !tracked.name.equals(name)) {
				return;
			}
			this.factories.remove(factory);
		}
		((ProducerFactory) factory).removeListener(tracked);
	}

	@SuppressWarnings({ "rawtypes", "unchecked" })
	private void track(ProducerFactory<?, ?> factory, String name) {
		Tracked tracked = new Tracked(name);
		if (this.factories.putIfAbsent(factory, tracked) == null) {
			((ProducerFactory) factory).addListener(tracked);
		}
	}

	/**
	 * Every producer factory seen, with what its live producers report, read once.
	 * @return the producers, by factory name
	 */
	List<ObservedProducer> find() {
		ClientRackDecider decider = this.decider.getIfAvailable();
		List<ObservedProducer> found = new ArrayList<>();
		Map<ProducerFactory<?, ?>, Tracked> factories;
		synchronized (this.factories) {
			factories = new LinkedHashMap<>(this.factories);
		}
		factories.forEach((factory, tracked) -> {
			boolean rackAware = decider != null && decider.producerRackAware(factory.getConfigurationProperties());
			found.add(ObservedProducer.of(tracked.name, rackAware, tracked.metrics()));
		});
		return found;
	}

	private static final class Tracked implements ProducerFactory.Listener<Object, Object> {

		private final String name;

		private final Set<Producer<?, ?>> producers = Collections.synchronizedSet(
				Collections.newSetFromMap(new IdentityHashMap<>()));

		Tracked(String name) {
			this.name = name;
		}

		@Override
		public void producerAdded(String id, Producer<Object, Object> producer) {
			this.producers.add(producer);
		}

		@Override
		public void producerRemoved(String id, Producer<Object, Object> producer) {
			this.producers.remove(producer);
		}

		List<Map<MetricName, ? extends Metric>> metrics() {
			List<Map<MetricName, ? extends Metric>> metrics = new ArrayList<>();
			synchronized (this.producers) {
				for (Producer<?, ?> producer : this.producers) {
					try {
						metrics.add(producer.metrics());
					}
					catch (RuntimeException ex) {
						// closed meanwhile
					}
				}
			}
			return metrics;
		}

	}

}
