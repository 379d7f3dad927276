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

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import dev.followerfetch.application.StreamsApplications.StreamsApplication;
import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientPlan;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import dev.followerfetch.policy.StreamsConsumerConfig;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.StreamsConfig;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Applies the {@link ClientPlan} of every {@link StreamsBuilderFactoryBean} (Boot's and the
 * application's own) to its streams configuration before the factory builds its topology:
 * the {@code client.rack} of its Kafka Streams application's fetch policy, the follower
 * settings of its consumers and, with {@code follower-fetch.client-id-zone}, the zone tag
 * first in {@code client.id}, after which Kafka Streams names every client of the
 * application. A setting the configuration has, plain or prefixed, is kept.
 *
 * @author follower-fetch authors
 */
final class StreamsClientRackPostProcessor implements BeanPostProcessor, SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(StreamsClientRackPostProcessor.class);

	private final ObjectProvider<ClientRackDecider> decider;

	private final ObjectProvider<AppliedPlans> applied;

	private final ObjectProvider<StreamsApplications> applications;

	StreamsClientRackPostProcessor(ObjectProvider<ClientRackDecider> decider, ObjectProvider<AppliedPlans> applied,
			ObjectProvider<StreamsApplications> applications) {
		this.decider = decider;
		this.applied = applied;
		this.applications = applications;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (bean instanceof StreamsBuilderFactoryBean factory) {
			apply(factory, beanName);
		}
		return bean;
	}

	private void apply(StreamsBuilderFactoryBean factory, String beanName) {
		Properties config = factory.getStreamsConfiguration();
		Object applicationId = (config != null) ? config.get(StreamsConfig.APPLICATION_ID_CONFIG) : null;
		if (config == null || applicationId == null) {
			logger.warn("StreamsBuilderFactoryBean '" + beanName + "' has no " + StreamsConfig.APPLICATION_ID_CONFIG
					+ " in its streams configuration yet; its consumers keep their client.rack as configured");
			return;
		}
		ClientRequest request = ClientRequest.streams(applicationId.toString(), config);
		ClientPlan plan = this.applied.getObject().applying(request, this.decider.getObject().plan(request));
		if (!plan.isEmpty()) {
			config.putAll(plan.configs());
			factory.setStreamsConfiguration(config);
		}
		StreamsApplication application = new StreamsApplication(Objects.requireNonNull(plan.policy()),
				StreamsConsumerConfig.clientRacks(config), rackAwareAssignmentStrategy(config));
		this.applications.getObject().record(application);
		if (logger.isInfoEnabled()) {
			logger.info("Kafka Streams fetch policy: " + describe(application));
		}
	}

	static String rackAwareAssignmentStrategy(Map<Object, Object> config) {
		Object strategy = config.get(StreamsConfig.RACK_AWARE_ASSIGNMENT_STRATEGY_CONFIG);
		if (strategy == null) {
			strategy = StreamsConfig.configDef().defaultValues().get(StreamsConfig.RACK_AWARE_ASSIGNMENT_STRATEGY_CONFIG);
		}
		return String.valueOf(strategy);
	}

	private static String describe(StreamsApplication application) {
		ConsumerPolicy policy = application.policy();
		Map<String, String> racks = new LinkedHashMap<>();
		application.clientRacks().forEach((consumer, rack) -> racks.put(consumer, rack.isEmpty() ? "''" : rack));
		return policy.name() + "=" + policy.policy() + " (" + origin(policy.origin()) + "); client.rack "
				+ racks.toString().replace("{", "").replace("}", "") + "; rack.aware.assignment.strategy="
				+ application.rackAwareAssignmentStrategy();
	}

	private static String origin(Origin origin) {
		return switch (origin) {
			case OWN_CLIENT_RACK -> "own client.rack";
			case PROPERTY -> "follower-fetch.policy.streams";
			default -> origin.name().toLowerCase(Locale.ROOT).replace('_', ' ');
		};
	}

	@Override
	public void afterSingletonsInstantiated() {
		ClientRackDecider decider = this.decider.getIfAvailable();
		if (decider == null) {
			return;
		}
		decider.warnUnknownNames(ConsumerKind.STREAMS, this.applications.getObject().applicationIds());
	}

}
