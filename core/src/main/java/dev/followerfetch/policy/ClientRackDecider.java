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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.followerfetch.ClientRack;
import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which fetch policy a consumer of the application follows and which
 * {@code client.rack} it carries. Consumer factories, listeners, Kafka Streams
 * applications, bindings and consumers the application builds itself all ask this one
 * component. Precedence: the consumer's own {@code client.rack}, then
 * {@code follower-fetch.policy.<kind>.<name>}, {@code @FetchPolicy} on the method, on the
 * class, then {@code follower-fetch.policy.default}.
 *
 * @author follower-fetch authors
 */
public final class ClientRackDecider {

	private static final Logger logger = LoggerFactory.getLogger(ClientRackDecider.class);

	private static final int MAX_CONFIGURED_CONSUMERS = 1000;

	private final Policy defaultPolicy;

	private final Map<ConsumerKind, Map<String, Policy>> configured;

	private final Duration replicaLease;

	private final Duration replicaRequestTimeout;

	private final Supplier<DetectedRack> detectedRack;

	private final boolean producerRackAware;

	private final ProducerRackSupport producerSupport;

	private final AssignmentStrategy assignment;

	private final ClientIdZone clientIdZone;

	private static final BrokerBounceRejoins KAFKA_20778 = BrokerBounceRejoins.ofClasspath();

	private final AtomicBoolean clientIdZoneReported = new AtomicBoolean();

	private final AtomicBoolean brokerBounceReported = new AtomicBoolean();

	private final Map<String, AtomicInteger> clientIdBases = new ConcurrentHashMap<>();

	private final Map<String, ConfiguredConsumer> configuredConsumers = new LinkedHashMap<>() {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, ConfiguredConsumer> eldest) {
			return size() > MAX_CONFIGURED_CONSUMERS;
		}

	};

	/**
	 * Create a decider for the given properties.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param detectedRack the detected rack, asked when a rack is needed
	 */
	public ClientRackDecider(PolicySettings settings,
			Supplier<DetectedRack> detectedRack) {
		this(settings, false, ProducerRackSupport.ofClasspath(), detectedRack);
	}

	/**
	 * Create a decider for the given properties and producer settings.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param producerRackAware {@code follower-fetch.producer.rack-aware}
	 * @param producerSupport what the kafka-clients on the classpath support
	 * @param detectedRack the detected rack, asked when a rack is needed
	 */
	public ClientRackDecider(PolicySettings settings, boolean producerRackAware,
			ProducerRackSupport producerSupport, Supplier<DetectedRack> detectedRack) {
		this(settings, producerRackAware, producerSupport, new AssignmentStrategy(true), detectedRack);
	}

	/**
	 * Create a decider for the given properties, producer settings and assignment.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param producerRackAware {@code follower-fetch.producer.rack-aware}
	 * @param producerSupport what the kafka-clients on the classpath support
	 * @param assignment what consumers get for zone-aware assignment
	 * @param detectedRack the detected rack, asked when a rack is needed
	 */
	public ClientRackDecider(PolicySettings settings, boolean producerRackAware,
			ProducerRackSupport producerSupport, AssignmentStrategy assignment, Supplier<DetectedRack> detectedRack) {
		this(settings, producerRackAware, producerSupport, assignment, ClientIdZone.NONE, detectedRack);
	}

	/**
	 * Create a decider for the given properties, producer settings, assignment and
	 * client id tag.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param producerRackAware {@code follower-fetch.producer.rack-aware}
	 * @param producerSupport what the kafka-clients on the classpath support
	 * @param assignment what consumers get for zone-aware assignment
	 * @param clientIdZone {@code follower-fetch.client-id-zone}
	 * @param detectedRack the detected rack, asked when a rack is needed
	 */
	public ClientRackDecider(PolicySettings settings, boolean producerRackAware,
			ProducerRackSupport producerSupport, AssignmentStrategy assignment, ClientIdZone clientIdZone,
			Supplier<DetectedRack> detectedRack) {
		this.assignment = assignment;
		this.clientIdZone = clientIdZone;
		this.producerRackAware = producerRackAware;
		this.producerSupport = producerSupport;
		this.defaultPolicy = settings.defaultPolicy();
		this.configured = settings.named();
		this.replicaLease = settings.replicaLease();
		this.replicaRequestTimeout = settings.replicaRequestTimeout();
		this.detectedRack = detectedRack;
	}

	/**
	 * The policy of one consumer.
	 * @param kind how the application consumes
	 * @param name the consumer's name (listener id, application id, binding name), or
	 * {@code null}
	 * @param ownClientRack the {@code client.rack} the consumer sets itself, or
	 * {@code null}: one that names no zone ({@link ClientRack}) keeps it on the leaders
	 * @param onMethod {@code @FetchPolicy} on the listener method, or {@code null}
	 * @param onClass {@code @FetchPolicy} on the listener class, or {@code null}
	 * @return the decision
	 */
	public ConsumerPolicy decide(ConsumerKind kind, @Nullable String name, @Nullable Object ownClientRack,
			@Nullable Policy onMethod, @Nullable Policy onClass) {
		if (ownClientRack != null) {
			return new ConsumerPolicy(kind, name,
					ClientRack.names(ownClientRack) ? Policy.LOCALITY : Policy.FRESHNESS, Origin.OWN_CLIENT_RACK);
		}
		Policy property = (name != null) ? this.configured.getOrDefault(kind, Map.of()).get(name) : null;
		if (property != null) {
			return new ConsumerPolicy(kind, name, property, Origin.PROPERTY);
		}
		if (onMethod != null) {
			return new ConsumerPolicy(kind, name, onMethod, Origin.METHOD_ANNOTATION);
		}
		if (onClass != null) {
			return new ConsumerPolicy(kind, name, onClass, Origin.CLASS_ANNOTATION);
		}
		return new ConsumerPolicy(kind, name, this.defaultPolicy, Origin.DEFAULT);
	}

	/**
	 * The {@code client.rack} a consumer must carry for a policy.
	 * @param policy the consumer's policy
	 * @return empty text for freshness, the detected rack for locality, or nothing when
	 * no rack was detected
	 */
	public Optional<String> clientRack(Policy policy) {
		if (policy == Policy.FRESHNESS) {
			return Optional.of("");
		}
		Optional<String> rack = detectedRack().rack();
		if (rack.isPresent() && !KAFKA_20778.fixed() && this.brokerBounceReported.compareAndSet(false, true)) {
			logger.info("kafka-clients " + KAFKA_20778.kafkaVersion() + ": a consumer with client.rack rejoins its "
					+ "group twice for every broker restart (KAFKA-20778, fixed in kafka-clients "
					+ BrokerBounceRejoins.FIXED_IN + "). Consumers with Kafka's default assignment strategies get the "
					+ "zone-aware assignor over range, then cooperative-sticky, and rebalance cooperatively, so such "
					+ "a rejoin revokes no partition; a consumer whose own partition.assignment.strategy names range "
					+ "rebalances eagerly and stops to revoke all its partitions each time (docs/rollout.md)");
		}
		return rack;
	}

	/**
	 * The {@code client.rack} a consumer's own properties must add over a consumer factory
	 * that carries the default policy's rack: freshness always says so itself.
	 * @param policy the consumer's policy
	 * @return the value to set, or empty to leave the factory's in force
	 */
	public Optional<String> clientRackOverFactory(Policy policy) {
		return (policy == Policy.LOCALITY && this.defaultPolicy == Policy.LOCALITY) ? Optional.empty()
				: clientRack(policy);
	}

	/**
	 * The {@code metadata.max.age.ms} a consumer configuration should get: a consumer keeps
	 * the follower a leader sent it to until its metadata expires, even when that follower
	 * has stopped replicating, so the replica lease bounds that time.
	 * @param effectiveClientRack the {@code client.rack} the consumer reads with, or
	 * {@code null}; one that names no zone ({@link ClientRack}) gets nothing
	 * @param config the consumer's configuration
	 * @return the value to set, or empty when the consumer reads from no follower, sets
	 * its own, or the lease is zero
	 */
	public Optional<String> replicaLease(@Nullable Object effectiveClientRack, Map<String, ?> config) {
		return followerSetting(effectiveClientRack, config, ConsumerConfig.METADATA_MAX_AGE_CONFIG, this.replicaLease);
	}

	/**
	 * The {@code request.timeout.ms} a consumer configuration should get: a consumer that
	 * reads from a follower whose broker dies without closing its connections waits this
	 * long before it fetches from the leader again.
	 * @param effectiveClientRack the {@code client.rack} the consumer reads with, or
	 * {@code null}; one that names no zone ({@link ClientRack}) gets nothing
	 * @param config the consumer's configuration
	 * @return the value to set, or empty when the consumer reads from no follower, sets
	 * its own, or the timeout is zero
	 */
	public Optional<String> replicaRequestTimeout(@Nullable Object effectiveClientRack, Map<String, ?> config) {
		return followerSetting(effectiveClientRack, config, ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG,
				this.replicaRequestTimeout);
	}

	/**
	 * A duration in milliseconds for a consumer that reads from followers, unless the
	 * configuration sets the key itself or the duration is zero.
	 */
	private static Optional<String> followerSetting(@Nullable Object effectiveClientRack, Map<String, ?> config,
			String key, Duration value) {
		if (!ClientRack.names(effectiveClientRack) || value.isZero()
				|| config.containsKey(key)) {
			return Optional.empty();
		}
		return Optional.of(String.valueOf(value.toMillis()));
	}

	/**
	 * Configure one consumer's configuration map, as used for a binding or a consumer the
	 * application builds itself: decide its policy from its own {@code client.rack} and the
	 * properties, then add the {@code client.rack}, replica lease and zone-aware
	 * assignment it needs, never replacing a value the configuration already has; with
	 * {@code follower-fetch.client-id-zone}, its {@code client.id} gets the zone tag first
	 * (the name after the tag when it has none). A consumer of kind
	 * {@link ConsumerKind#OTHER} is remembered, so the health reports it
	 * under its declared policy: give it a {@code client.id} (or use its client id as
	 * name).
	 * {@code follower-fetch.policy.consumers} is looked up by its name, then by its
	 * {@code client.id}.
	 * @param kind how the application consumes
	 * @param name the consumer's name (for {@link ConsumerKind#OTHER}, best its client id)
	 * @param config the consumer configuration, changed in place
	 * @return the decision
	 * @throws IllegalArgumentException for {@link ConsumerKind#SHARE}: share consumers take none of it
	 */
	public ConsumerPolicy configure(ConsumerKind kind, @Nullable String name, Map<String, Object> config) {
		if (kind == ConsumerKind.SHARE) {
			throw new IllegalArgumentException("A share consumer (" + name + ") takes no client.rack, replica lease "
					+ "or assignment strategy: share groups fetch from the leaders; build it without configure");
		}
		Object own = config.get(ConsumerConfig.CLIENT_RACK_CONFIG);
		ConsumerPolicy decision = decide(kind, name, own, null, null);
		Object clientIdConfig = config.get(ConsumerConfig.CLIENT_ID_CONFIG);
		if (kind == ConsumerKind.OTHER && decision.origin() == Origin.DEFAULT && clientIdConfig != null) {
			Policy byClientId = this.configured.getOrDefault(ConsumerKind.OTHER, Map.of())
				.get(clientIdConfig.toString());
			if (byClientId != null) {
				decision = new ConsumerPolicy(kind, name, byClientId, Origin.PROPERTY);
			}
		}
		Object effective = own;
		if (own == null) {
			Optional<String> rack = clientRack(decision.policy());
			if (rack.isPresent()) {
				config.put(ConsumerConfig.CLIENT_RACK_CONFIG, rack.get());
				effective = rack.get();
			}
		}
		replicaLease(effective, config).ifPresent((lease) -> config.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, lease));
		replicaRequestTimeout(effective, config)
			.ifPresent((timeout) -> config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout));
		String described = (name != null) ? name : String.valueOf(clientIdConfig);
		config.putAll(assignment(kind.describe(described), config).settings());
		clientId(clientIdConfig, name).ifPresent((clientId) -> config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId));
		Object clientId = config.get(ConsumerConfig.CLIENT_ID_CONFIG);
		if (kind == ConsumerKind.OTHER && name != null) {
			remember(new ConfiguredConsumer(decision, (clientId != null) ? clientId.toString() : null,
					(effective != null) ? effective.toString() : null, config));
		}
		return decision;
	}

	/**
	 * The {@code client.id} a client must send for {@code follower-fetch.client-id-zone}:
	 * its own with the zone tag first, or the tag and {@code base} when it has none.
	 * @param own the client's own {@code client.id}, or {@code null}
	 * @param base what follows the tag when the client has no {@code client.id} (a
	 * number after it when another client got it before), or {@code null} to leave such a
	 * client alone
	 * @return the {@code client.id} to set, or empty to keep the client's: no tag is
	 * configured, the client already carries one, or no zone that fits a tag is detected
	 */
	public Optional<String> clientId(@Nullable Object own, @Nullable String base) {
		if (!this.clientIdZone.enabled()) {
			return Optional.empty();
		}
		Optional<String> zone = detectedRack().rack();
		if ((zone.isEmpty() || !this.clientIdZone.fits(zone.get())) && this.clientIdZoneReported.compareAndSet(false, true)) {
			logger.warn(ClientIdZone.PROPERTY + "=" + this.clientIdZone + " adds no "
					+ this.clientIdZone.key().orElse("") + " to client ids: "
					+ zone.map((rack) -> "the zone '" + rack + "' has characters a client id tag cannot carry")
						.orElse("no zone was detected"));
		}
		Optional<String> clientId = this.clientIdZone.clientId(own, base, zone.orElse(null));
		if (clientId.isPresent() && base != null && (own == null || own.toString().isBlank())) {
			return this.clientIdZone.clientId(null, distinct(base), zone.orElse(null));
		}
		return clientId;
	}

	/**
	 * A client id without the tag of {@code follower-fetch.client-id-zone}, as the
	 * application named the client: what {@code follower-fetch.policy.consumers.<client-id>}
	 * names.
	 * @param clientId a client id, tagged or not
	 * @return the client id after the tag
	 */
	public String untagged(String clientId) {
		return this.clientIdZone.untagged(clientId);
	}

	/**
	 * A base made up for a client that has no {@code client.id}: the first client with it
	 * gets it as it is, the next ones a number after it, so that no two clients share a
	 * client id where Kafka would have made up distinct ones.
	 */
	private String distinct(String base) {
		int use = this.clientIdBases.computeIfAbsent(base, (key) -> new AtomicInteger()).incrementAndGet();
		return (use == 1) ? base : base + "-" + use;
	}

	/**
	 * What a consumer configuration gets for zone-aware assignment (classic protocol):
	 * the zone-aware assignor first in {@code partition.assignment.strategy} and this
	 * application's zone, unless it uses the consumer group protocol, names an assignor
	 * other than Kafka's own, or {@code follower-fetch.assignment.enabled} is false.
	 * @param config the consumer's configuration
	 * @return the decision, with the settings to add
	 */
	public AssignmentStrategy.Decision assignment(Map<String, ?> config) {
		return this.assignment.decide(config, detectedRack().rack().orElse(null));
	}

	/**
	 * As {@link #assignment(Map)}, and say so at INFO when the consumer keeps a strategy
	 * of its own.
	 * @param description the consumer in the log line, for example
	 * {@code Listener 'orders'}
	 * @param config the consumer's configuration
	 * @return the decision, with the settings to add
	 */
	public AssignmentStrategy.Decision assignment(String description, Map<String, ?> config) {
		AssignmentStrategy.Decision decision = assignment(config);
		if (decision.outcome() == AssignmentStrategy.Outcome.KEPT && logger.isInfoEnabled()) {
			logger.info(description + " keeps its own partition.assignment.strategy=" + decision.strategies()
					+ ": zone-aware assignment is not added (list " + ZoneAwareAssignor.class.getName()
					+ " first to have it)");
		}
		return decision;
	}

	/**
	 * What a producer configuration must add: the detected rack as {@code client.rack}
	 * unless it sets one, and {@code partitioner.rack.aware=true} when
	 * {@code follower-fetch.producer.rack-aware} is on, the producer has a rack and sets
	 * no {@code partitioner.rack.aware} itself. Nothing on kafka-clients older than 4.4.
	 * Records with a key are partitioned by their key whatever this adds.
	 * @param config the producer's configuration
	 * @return the settings to add, empty when there are none
	 */
	public Map<String, String> producerSettings(Map<String, ?> config) {
		Map<String, String> settings = new LinkedHashMap<>();
		if (!this.producerSupport.clientRack()) {
			return settings;
		}
		Object own = config.get(ProducerRackSupport.CLIENT_RACK);
		Optional<ClientRack> rack = (own != null) ? ClientRack.of(own) : detectedRack().rack().flatMap(ClientRack::of);
		if (own == null && rack.isPresent()) {
			settings.put(ProducerRackSupport.CLIENT_RACK, rack.get().value());
		}
		if (this.producerRackAware && this.producerSupport.rackAwarePartitioner() && rack.isPresent()
				&& !config.containsKey(ProducerRackSupport.RACK_AWARE)) {
			settings.put(ProducerRackSupport.RACK_AWARE, "true");
		}
		return settings;
	}

	/**
	 * Whether a producer with this configuration sends records without a key only to
	 * partitions led in its zone: it has a rack, {@code partitioner.rack.aware=true} and
	 * Kafka's built-in partitioner.
	 * @param config the producer's configuration, after {@link #producerSettings(Map)}
	 * @return whether rack-aware partitioning is in effect
	 */
	public boolean producerRackAware(Map<String, ?> config) {
		return this.producerSupport.rackAwarePartitioner() && ClientRack.names(config.get(ProducerRackSupport.CLIENT_RACK))
				&& "true".equalsIgnoreCase(String.valueOf(config.get(ProducerRackSupport.RACK_AWARE)))
				&& config.get(ProducerConfig.PARTITIONER_CLASS_CONFIG) == null;
	}

	/**
	 * What the kafka-clients on the classpath let producers say about their zone.
	 * @return the support
	 */
	public ProducerRackSupport producerSupport() {
		return this.producerSupport;
	}

	/**
	 * Whether {@code follower-fetch.producer.rack-aware} is on.
	 * @return {@code follower-fetch.producer.rack-aware}
	 */
	public boolean producerRackAwareByDefault() {
		return this.producerRackAware;
	}

	private void remember(ConfiguredConsumer consumer) {
		synchronized (this.configuredConsumers) {
			this.configuredConsumers.remove(consumer.policy().name());
			this.configuredConsumers.put(consumer.policy().name(), consumer);
		}
	}

	/**
	 * The consumers the application built itself and configured through
	 * {@link #configure(ConsumerKind, String, Map)} with {@link ConsumerKind#OTHER}, the
	 * last configuration of each name, at most the last 1000 names.
	 * @return the configured consumers, oldest first
	 */
	public List<ConfiguredConsumer> configuredConsumers() {
		synchronized (this.configuredConsumers) {
			return new ArrayList<>(this.configuredConsumers.values());
		}
	}

	/**
	 * The policy of consumers that choose none.
	 * @return {@code follower-fetch.policy.default}
	 */
	public Policy defaultPolicy() {
		return this.defaultPolicy;
	}

	/**
	 * The rack detected at start-up.
	 * @return the detected rack
	 */
	public DetectedRack detectedRack() {
		return this.detectedRack.get();
	}

	/**
	 * The names given a policy by {@code follower-fetch.policy.<kind>.<name>}.
	 * @param kind how the application consumes
	 * @return the names, sorted
	 */
	public Set<String> configuredNames(ConsumerKind kind) {
		return new TreeSet<>(this.configured.getOrDefault(kind, Map.of()).keySet());
	}

	/**
	 * Log a warning when {@code follower-fetch.policy.<kind>} names a consumer the
	 * application does not have, most often a typo that leaves it on the default policy.
	 * @param kind how the application consumes
	 * @param known the names of the consumers of that kind the application has
	 * @return the configured names that match no consumer, sorted
	 */
	public Set<String> warnUnknownNames(ConsumerKind kind, Collection<String> known) {
		Set<String> unknown = configuredNames(kind);
		unknown.removeAll(known);
		if (!unknown.isEmpty()) {
			String those = (unknown.size() == 1) ? "that " + kind.key() : "those " + kind.key() + "s";
			logger.warn(kind.property() + " names " + unknown + ", but there is no " + kind.noun() + " with " + those
					+ ". Known " + kind.noun() + " " + kind.key() + "s: " + new TreeSet<>(known));
		}
		return unknown;
	}

}
