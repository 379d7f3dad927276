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
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BiFunction;

import dev.followerfetch.ClientRack;
import dev.followerfetch.Policy;
import dev.followerfetch.application.StreamsApplications.StreamsApplication;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.StreamsConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Gives the consumers of every {@link StreamsBuilderFactoryBean} (Boot's and the
 * application's own) the {@code client.rack} their Kafka Streams application's fetch
 * policy calls for, before the factory builds its topology. Locality sets
 * {@code client.rack}, which the main, restore and global consumers all take;
 * freshness also sets an empty {@code main.consumer.client.rack}, keeping the stream
 * threads on the partition leaders while restoration and global tables still read in
 * the zone. A rack the configuration sets itself, plain or prefixed, is kept. With
 * {@code follower-fetch.client-id-zone}, {@code client.id} gets the zone tag first: Kafka
 * Streams names every client of the application after it. Without one, the tag is
 * followed by the application id and a random UUID, as Kafka Streams' own default is by
 * the application id and its process id, so instances stay distinct.
 *
 * @author follower-fetch authors
 */
final class StreamsClientRackPostProcessor implements BeanPostProcessor, SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(StreamsClientRackPostProcessor.class);

	static final String CLIENT_RACK = ConsumerConfig.CLIENT_RACK_CONFIG;

	static final String MAIN_CLIENT_RACK = StreamsConfig.mainConsumerPrefix(CLIENT_RACK);

	private static final String METADATA_MAX_AGE = ConsumerConfig.METADATA_MAX_AGE_CONFIG;

	private static final String REQUEST_TIMEOUT = ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG;

	private static final Map<String, String> CONSUMER_PREFIXES = Map.of("main", StreamsConfig.MAIN_CONSUMER_PREFIX,
			"restore", StreamsConfig.RESTORE_CONSUMER_PREFIX, "global", StreamsConfig.GLOBAL_CONSUMER_PREFIX);

	private final ObjectProvider<ClientRackDecider> decider;

	private final ObjectProvider<StreamsApplications> applications;

	StreamsClientRackPostProcessor(ObjectProvider<ClientRackDecider> decider,
			ObjectProvider<StreamsApplications> applications) {
		this.decider = decider;
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
		ClientRackDecider decider = this.decider.getObject();
		ConsumerPolicy policy = decider.decide(ConsumerKind.STREAMS, applicationId.toString(),
				consumerSetting(config, "main", CLIENT_RACK), null, null);
		Map<String, String> added = new LinkedHashMap<>();
		if (!config.containsKey(CLIENT_RACK) && !config.containsKey(StreamsConfig.consumerPrefix(CLIENT_RACK))) {
			decider.clientRack(Policy.LOCALITY).ifPresent((rack) -> added.put(CLIENT_RACK, rack));
		}
		if (policy.origin() != Origin.OWN_CLIENT_RACK && policy.policy() == Policy.FRESHNESS) {
			decider.clientRack(Policy.FRESHNESS).ifPresent((rack) -> added.put(MAIN_CLIENT_RACK, rack));
		}
		config.putAll(added);
		String lease = followerSetting(decider::replicaLease, METADATA_MAX_AGE, config);
		if (lease != null) {
			config.put(StreamsConfig.consumerPrefix(METADATA_MAX_AGE), lease);
		}
		String requestTimeout = followerSetting(decider::replicaRequestTimeout, REQUEST_TIMEOUT, config);
		if (requestTimeout != null) {
			config.put(StreamsConfig.consumerPrefix(REQUEST_TIMEOUT), requestTimeout);
		}
		Optional<String> clientId = decider.clientId(config.get(StreamsConfig.CLIENT_ID_CONFIG),
				applicationId + "-" + UUID.randomUUID());
		clientId.ifPresent((id) -> config.put(StreamsConfig.CLIENT_ID_CONFIG, id));
		if (!added.isEmpty() || lease != null || requestTimeout != null || clientId.isPresent()) {
			factory.setStreamsConfiguration(config);
		}
		StreamsApplication application = new StreamsApplication(policy, clientRacks(config),
				rackAwareAssignmentStrategy(config));
		this.applications.getObject().record(application);
		if (logger.isInfoEnabled()) {
			logger.info("Kafka Streams fetch policy: " + describe(application));
		}
	}

	/**
	 * A consumer keeps the follower it was sent to until {@code metadata.max.age.ms} has
	 * passed, and waits {@code request.timeout.ms} for a silent broker. These settings go to
	 * the consumers only, {@code consumer.}-prefixed: the producers and the admin client
	 * read no partitions and keep theirs. A plain or {@code consumer.}-prefixed setting of
	 * the application's wins; a {@code main.}/{@code restore.}/{@code global.consumer.} one
	 * still wins for that consumer.
	 */
	private static @Nullable String followerSetting(BiFunction<Object, Map<String, ?>, Optional<String>> setting,
			String key, Properties config) {
		Object rack = clientRacks(config).values().stream().filter(ClientRack::names).findFirst().orElse("");
		Map<String, Object> consumers = new LinkedHashMap<>();
		Object own = config.containsKey(StreamsConfig.consumerPrefix(key)) ? config.get(StreamsConfig.consumerPrefix(key))
				: config.get(key);
		if (own != null) {
			consumers.put(key, own);
		}
		return setting.apply(rack, consumers).orElse(null);
	}

	/**
	 * The effective value of a consumer setting of one of the Streams consumers, as
	 * {@link StreamsConfig} resolves it: the consumer's own prefix, then
	 * {@code consumer.}, then the plain setting.
	 * @param config the streams configuration
	 * @param consumer {@code main}, {@code restore} or {@code global}
	 * @param name the consumer setting
	 * @return the value, or {@code null} when none is set
	 */
	static @Nullable Object consumerSetting(Map<Object, Object> config, String consumer, String name) {
		Object value = config.get(CONSUMER_PREFIXES.get(consumer) + name);
		if (value == null) {
			value = config.get(StreamsConfig.consumerPrefix(name));
		}
		return (value != null) ? value : config.get(name);
	}

	static Map<String, String> clientRacks(Map<Object, Object> config) {
		Map<String, String> racks = new LinkedHashMap<>();
		for (String consumer : new String[] { "main", "restore", "global" }) {
			Object rack = consumerSetting(config, consumer, CLIENT_RACK);
			racks.put(consumer, (rack != null) ? rack.toString() : "");
		}
		return racks;
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
