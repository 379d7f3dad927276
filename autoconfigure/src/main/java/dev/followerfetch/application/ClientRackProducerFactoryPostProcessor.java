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
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientPlan;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import dev.followerfetch.policy.ProducerRackSupport;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.producer.ProducerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * Applies the {@link ClientPlan} of every {@link ProducerFactory} bean, and of the factory
 * of every {@link KafkaTemplate} bean: {@code client.rack} and,
 * when {@code follower-fetch.producer.rack-aware} is on, {@code partitioner.rack.aware}.
 * A factory's own values of either are kept: they are the per-factory override. With
 * {@code follower-fetch.client-id-zone}, its {@code client.id} gets the zone tag first
 * (without one, Spring Kafka's own prefix, {@code <spring.application.name>-producer} or
 * {@code producer}, follows it, and each producer still gets its counter suffix).
 *
 * @author follower-fetch authors
 */
final class ClientRackProducerFactoryPostProcessor implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(ClientRackProducerFactoryPostProcessor.class);

	private static final String BOOT_PRODUCER_FACTORY = "kafkaProducerFactory";

	private final ObjectProvider<ClientRackDecider> decider;

	private final ObjectProvider<AppliedPlans> applied;

	private final Set<ProducerFactory<?, ?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());

	private final String defaultClientIdBase;

	ClientRackProducerFactoryPostProcessor(ObjectProvider<ClientRackDecider> decider,
			ObjectProvider<AppliedPlans> applied, @Nullable String applicationName) {
		this.decider = decider;
		this.applied = applied;
		this.defaultClientIdBase = (applicationName != null && !applicationName.isBlank())
				? applicationName + "-producer" : "producer";
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ProducerFactory<?, ?> producerFactory) {
			apply(producerFactory, "ProducerFactory bean '" + beanName + "'",
					BOOT_PRODUCER_FACTORY.equals(beanName) ? this.defaultClientIdBase : beanName);
		}
		else if (bean instanceof KafkaTemplate<?, ?> template && template.getProducerFactory() != null) {
			apply(template.getProducerFactory(), "ProducerFactory of KafkaTemplate '" + beanName + "'",
					beanName + "-producer");
		}
		return bean;
	}

	/**
	 * A factory's producers take its client id and a counter of the factory's own: where
	 * the factory has none, the tag is followed by what Spring Kafka would have used for
	 * Boot's factory, and by the bean's name for any other, so that two factories never
	 * make the same client id.
	 */
	private void apply(ProducerFactory<?, ?> producerFactory, String description, String clientIdBase) {
		synchronized (this.seen) {
			if (!this.seen.add(producerFactory)) {
				return;
			}
		}
		ClientRackDecider decider = this.decider.getObject();
		Map<String, Object> configs = producerFactory.getConfigurationProperties();
		ClientRequest request = ClientRequest.producer(configs, clientIdBase);
		ClientPlan plan = this.applied.getObject().applying(request, decider.plan(request));
		Map<String, Object> settings = plan.configs();
		if (settings.isEmpty()) {
			if (logger.isDebugEnabled()) {
				ProducerRackSupport support = decider.producerSupport();
				logger.debug(description + (support.clientRack()
						? " keeps client.rack=" + configs.get(ProducerRackSupport.CLIENT_RACK)
								+ " and partitioner.rack.aware=" + configs.get(ProducerRackSupport.RACK_AWARE)
						: " is left without client.rack: kafka-clients " + support.kafkaVersion()
								+ " producers do not accept it (Kafka 4.4+, KIP-1123)"));
			}
			return;
		}
		producerFactory.updateConfigs(new LinkedHashMap<>(settings));
		Map<String, Object> updated = producerFactory.getConfigurationProperties();
		// Spring Kafka keeps an updated client.id as its prefix, outside the configuration it shows
		if (!settings.entrySet()
			.stream()
			.filter((entry) -> !entry.getKey().equals(ProducerConfig.CLIENT_ID_CONFIG))
			.allMatch((entry) -> entry.getValue().equals(updated.get(entry.getKey())))) {
			logger.warn(description + " (" + producerFactory.getClass().getName()
					+ ") does not support updateConfigs; set " + settings + " on it yourself");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug(description + " now has " + settings);
		}
	}

}
