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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import dev.followerfetch.ClientRack;
import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what each client of the application gets: one {@link ClientRequest} in, one
 * {@link ClientPlan} out ({@link #plan(ClientRequest)}). Consumer factories, listeners,
 * Kafka Streams applications, bindings, producers and consumers the application builds
 * itself all ask this one component; the adapters that find them apply the plan and decide
 * nothing. A consumer's policy follows, highest first: its own {@code client.rack}, then
 * {@code follower-fetch.policy.<kind>.<name>}, {@code @FetchPolicy} on the method, on the
 * class, then {@code follower-fetch.policy.default}. Every consumer whose strategies name
 * the zone-aware assignor gets the decider's {@link ZoneAwareAssignors}, which the
 * observation reads.
 * <p>
 * {@link #plan(ClientRequest)} is a function of the request and the settings: it changes
 * nothing and logs nothing, so planning a client again gives an equal plan. What applying
 * plans keeps (client ids made from a base, notes said once) is in {@link AppliedPlans}.
 *
 * @author follower-fetch authors
 */
public final class ClientRackDecider {

	private static final Logger logger = LoggerFactory.getLogger(ClientRackDecider.class);

	private static final BrokerBounceRejoins KAFKA_20778 = BrokerBounceRejoins.ofClasspath();

	private static final String CLIENT_RACK = ConsumerConfig.CLIENT_RACK_CONFIG;

	private static final String CLIENT_ID = ConsumerConfig.CLIENT_ID_CONFIG;

	private static final String STRATEGY = ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG;

	private final Policy defaultPolicy;

	private final Map<ConsumerKind, Map<String, Policy>> configured;

	private final Duration replicaLease;

	private final Duration replicaRequestTimeout;

	private final ClientSettings clients;

	private final Supplier<DetectedRack> detectedRack;

	private final ConfiguredConsumer.Observer configuredConsumers;

	private final ZoneAwareAssignors assignors;

	private final AppliedPlans applied;

	/**
	 * Create a decider for the policy settings, with the other settings' defaults; the
	 * consumers it {@link #configure(ConsumerKind, String, Map) configures} are reported to
	 * no observation (the auto-configured decider reports them to the health and meters),
	 * and their zone-aware assignors register in a registry of its own.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param detectedRack the detected rack, asked when a rack is needed
	 */
	public ClientRackDecider(PolicySettings settings, Supplier<DetectedRack> detectedRack) {
		this(settings, ClientSettings.defaults(), detectedRack, (consumer) -> {
		});
	}

	/**
	 * Create a decider; the zone-aware assignors of the consumers it configures register
	 * in a registry of its own.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param clients the producer, assignment and client id settings
	 * @param detectedRack the detected rack, asked when a rack is needed
	 * @param configuredConsumers told of each consumer the application configures through
	 * {@link #configure(ConsumerKind, String, Map)} with {@link ConsumerKind#OTHER}, for
	 * the observation to judge it under its declared policy
	 */
	public ClientRackDecider(PolicySettings settings, ClientSettings clients, Supplier<DetectedRack> detectedRack,
			ConfiguredConsumer.Observer configuredConsumers) {
		this(settings, clients, detectedRack, configuredConsumers, new ZoneAwareAssignors());
	}

	/**
	 * Create a decider whose consumers' zone-aware assignors register in a registry the
	 * observation reads.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param clients the producer, assignment and client id settings
	 * @param detectedRack the detected rack, asked when a rack is needed
	 * @param configuredConsumers told of each consumer the application configures through
	 * {@link #configure(ConsumerKind, String, Map)} with {@link ConsumerKind#OTHER}
	 * @param assignors the registry handed to every consumer whose strategies name the
	 * zone-aware assignor, one per application
	 */
	public ClientRackDecider(PolicySettings settings, ClientSettings clients, Supplier<DetectedRack> detectedRack,
			ConfiguredConsumer.Observer configuredConsumers, ZoneAwareAssignors assignors) {
		this(settings, clients, detectedRack, configuredConsumers, assignors, new AppliedPlans());
	}

	/**
	 * Create a decider whose {@link #configure(ConsumerKind, String, Map) configure}
	 * applies its plans through the application context's {@link AppliedPlans}, as the
	 * context's adapters do.
	 * @param settings the {@code follower-fetch.policy} settings
	 * @param clients the producer, assignment and client id settings
	 * @param detectedRack the detected rack, asked when a rack is needed
	 * @param configuredConsumers told of each consumer the application configures through
	 * {@link #configure(ConsumerKind, String, Map)} with {@link ConsumerKind#OTHER}
	 * @param assignors the registry handed to every consumer whose strategies name the
	 * zone-aware assignor, one per application
	 * @param applied what the application context's adapters keep between the plans they
	 * apply
	 */
	public ClientRackDecider(PolicySettings settings, ClientSettings clients, Supplier<DetectedRack> detectedRack,
			ConfiguredConsumer.Observer configuredConsumers, ZoneAwareAssignors assignors, AppliedPlans applied) {
		this.defaultPolicy = settings.defaultPolicy();
		this.configured = settings.named();
		this.replicaLease = settings.replicaLease();
		this.replicaRequestTimeout = settings.replicaRequestTimeout();
		this.clients = clients;
		this.detectedRack = detectedRack;
		this.configuredConsumers = configuredConsumers;
		this.assignors = assignors;
		this.applied = applied;
	}

	/**
	 * The registry of the zone-aware assignors of the consumers this decider configures,
	 * which observation reads to know the groups they led and the assignors they chose.
	 * @return the registry
	 */
	public ZoneAwareAssignors assignors() {
		return this.assignors;
	}

	/**
	 * Decide what one client gets. Nothing the client's configuration sets is replaced. A
	 * function of the request and this decider's settings: it changes no state and logs
	 * nothing (what there is to say is in {@link ClientPlan#notes()}), so an equal request
	 * gets an equal plan. Apply it through {@link AppliedPlans#applying}.
	 * @param request the client
	 * @return the plan
	 */
	public ClientPlan plan(ClientRequest request) {
		List<PlanNote> notes = new ArrayList<>();
		return switch (request.kind()) {
			case CONSUMER_FACTORY -> consumerFactory(request, notes);
			case LISTENER_ANNOTATION -> listenerAnnotation(request, notes);
			case LISTENER -> listener(request, notes);
			case STREAMS -> streams(request, notes);
			case CONSUMER -> consumer(request, notes);
			case PRODUCER -> producer(request, notes);
			case CLIENT -> new ClientPlan(null, Map.of(), clientId(request, notes), null, notes);
		};
	}

	/**
	 * A consumer factory carries the default policy's {@code client.rack} unless it sets
	 * one; it gets the follower settings when its own rack, or else the detected one, names
	 * a zone, since listeners that read from followers while the default is freshness use
	 * it too.
	 */
	private ClientPlan consumerFactory(ClientRequest request, List<PlanNote> notes) {
		Map<String, ?> config = request.config();
		String name = String.valueOf(request.name());
		AssignmentStrategy.Decision assignment = assignment(name, config, notes);
		Map<String, String> settings = new LinkedHashMap<>(assignment.settings());
		Object explicit = config.get(CLIENT_RACK);
		if (explicit != null) {
			DetectedRack detected = detectedRack();
			notes.add(new PlanNote.OwnClientRack(name, explicit.toString(), detected.rack().orElse(null),
					detected.source().orElse(null)));
		}
		Object rack = (explicit != null) ? explicit : detectedRack().rack().orElse(null);
		followerSettings(rack, config, settings);
		if (explicit == null) {
			clientRack(this.defaultPolicy, notes).flatMap(ClientRack::of)
				.ifPresent((zone) -> settings.put(CLIENT_RACK, zone.value()));
			if (this.defaultPolicy == Policy.FRESHNESS) {
				notes.add(new PlanNote.LeftOnLeaders(name));
			}
		}
		return new ClientPlan(null, settings, clientId(request, notes), assignors(assignment, config), notes);
	}

	/**
	 * What a {@code @KafkaListener}'s own consumer properties can carry before its
	 * container exists: the {@code client.rack} its policy calls for over a factory that
	 * carries the default policy's. Nothing when the default policy applies or the listener
	 * sets its own {@code client.rack}.
	 */
	private ClientPlan listenerAnnotation(ClientRequest request, List<PlanNote> notes) {
		ConsumerPolicy policy = listenerPolicy(request);
		Map<String, String> settings = new LinkedHashMap<>();
		if (policy.origin() != Origin.OWN_CLIENT_RACK && policy.origin() != Origin.DEFAULT) {
			clientRackOverFactory(policy.policy(), notes).ifPresent((rack) -> settings.put(CLIENT_RACK, rack));
		}
		return new ClientPlan(policy, settings, null, null, notes);
	}

	/**
	 * A listener's own consumer properties replace its factory's: the {@code client.rack}
	 * its policy calls for over the factory's (unless its annotation's plan decided the
	 * policy and added that already); under the consumer group protocol, an empty
	 * {@code partition.assignment.strategy} when the factory's names the zone-aware
	 * assignor (Kafka refuses one there); before a strategy of its own, the zone-aware
	 * assignor. Its containers' client id prefix gets the zone tag, followed by the prefix
	 * it had, its factory's {@code client.id} or else its base.
	 */
	private ClientPlan listener(ClientRequest request, List<PlanNote> notes) {
		ConsumerPolicy decided = request.decided();
		ConsumerPolicy policy = (decided != null) ? decided : listenerPolicy(request);
		Map<String, ?> own = request.config();
		Map<String, String> settings = new LinkedHashMap<>();
		if (decided == null && policy.origin() != Origin.OWN_CLIENT_RACK) {
			clientRackOverFactory(policy.policy(), notes).ifPresent((rack) -> settings.put(CLIENT_RACK, rack));
		}
		ZoneAwareAssignors registry = null;
		if (own.containsKey(STRATEGY)) {
			Map<String, Object> merged = new LinkedHashMap<>(request.inherited());
			merged.putAll(own);
			AssignmentStrategy.Decision assignment = assignment(
					ConsumerKind.LISTENER.describe(String.valueOf(request.name())), merged, notes);
			settings.putAll(assignment.settings());
			registry = assignors(assignment, merged);
		}
		else if (AssignmentStrategy.usesConsumerProtocol(own) && ZoneAwareAssignor
			.strategies(request.inherited().get(STRATEGY))
			.contains(ZoneAwareAssignor.class.getName())) {
			settings.put(STRATEGY, "");
		}
		return new ClientPlan(policy, settings, clientId(request, notes), registry, notes);
	}

	private ConsumerPolicy listenerPolicy(ClientRequest request) {
		return decide(ConsumerKind.LISTENER, request.name(), request.config().get(CLIENT_RACK), request.onMethod(),
				request.onClass());
	}

	/**
	 * Locality sets {@code client.rack}, which the main, restore and global consumers all
	 * take; freshness also sets an empty {@code main.consumer.client.rack}, keeping the
	 * stream threads on the leaders while restoration and global tables still read in the
	 * zone. The follower settings go to the consumers only, {@code consumer.}-prefixed.
	 */
	private ClientPlan streams(ClientRequest request, List<PlanNote> notes) {
		Map<String, ?> config = request.config();
		ConsumerPolicy policy = decide(ConsumerKind.STREAMS, request.name(),
				StreamsConsumerConfig.effective(config, "main", CLIENT_RACK), null, null);
		Map<String, String> settings = new LinkedHashMap<>();
		if (!config.containsKey(CLIENT_RACK) && !config.containsKey(StreamsConsumerConfig.CONSUMER_PREFIX + CLIENT_RACK)) {
			clientRack(Policy.LOCALITY, notes).ifPresent((rack) -> settings.put(CLIENT_RACK, rack));
		}
		if (policy.origin() != Origin.OWN_CLIENT_RACK && policy.policy() == Policy.FRESHNESS) {
			clientRack(Policy.FRESHNESS)
				.ifPresent((rack) -> settings.put(StreamsConsumerConfig.PREFIXES.get("main") + CLIENT_RACK, rack));
		}
		Map<String, Object> racked = new LinkedHashMap<>(config);
		racked.putAll(settings);
		Object rack = StreamsConsumerConfig.clientRacks(racked)
			.values()
			.stream()
			.filter(ClientRack::names)
			.findFirst()
			.orElse("");
		streamsFollowerSetting(ConsumerConfig.METADATA_MAX_AGE_CONFIG, this.replicaLease, rack, config, settings);
		streamsFollowerSetting(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, this.replicaRequestTimeout, rack, config,
				settings);
		return new ClientPlan(policy, settings, clientId(request, notes), null, notes);
	}

	/**
	 * A plain or {@code consumer.}-prefixed setting of the application's wins; a
	 * {@code main.}/{@code restore.}/{@code global.consumer.} one still wins for that
	 * consumer.
	 */
	private static void streamsFollowerSetting(String key, Duration value, Object rack, Map<String, ?> config,
			Map<String, String> settings) {
		String prefixed = StreamsConsumerConfig.CONSUMER_PREFIX + key;
		Map<String, Object> own = new LinkedHashMap<>();
		Object set = config.containsKey(prefixed) ? config.get(prefixed) : config.get(key);
		if (set != null) {
			own.put(key, set);
		}
		followerSetting(rack, own, key, value).ifPresent((millis) -> settings.put(prefixed, millis));
	}

	/**
	 * A binding's or a hand-built consumer's map: its policy from its own
	 * {@code client.rack} and the properties ({@code follower-fetch.policy.consumers} looked
	 * up by name, then by {@code client.id}), then the {@code client.rack}, follower
	 * settings and zone-aware assignment it needs, and the zone tag in its
	 * {@code client.id} (the name after the tag when it has none).
	 */
	private ClientPlan consumer(ClientRequest request, List<PlanNote> notes) {
		ConsumerKind kind = Objects.requireNonNull(request.consumerKind());
		Map<String, ?> config = request.config();
		String name = request.name();
		Object own = config.get(CLIENT_RACK);
		ConsumerPolicy decision = decide(kind, name, own, null, null);
		Object clientIdConfig = config.get(CLIENT_ID);
		if (kind == ConsumerKind.OTHER && decision.origin() == Origin.DEFAULT && clientIdConfig != null) {
			Policy byClientId = this.configured.getOrDefault(ConsumerKind.OTHER, Map.of())
				.get(clientIdConfig.toString());
			if (byClientId != null) {
				decision = new ConsumerPolicy(kind, name, byClientId, Origin.PROPERTY);
			}
		}
		Map<String, String> settings = new LinkedHashMap<>();
		Object effective = own;
		if (own == null) {
			Optional<String> rack = clientRack(decision.policy(), notes);
			if (rack.isPresent()) {
				settings.put(CLIENT_RACK, rack.get());
				effective = rack.get();
			}
		}
		followerSettings(effective, config, settings);
		String described = (name != null) ? name : String.valueOf(clientIdConfig);
		AssignmentStrategy.Decision assignment = assignment(kind.describe(described), config, notes);
		settings.putAll(assignment.settings());
		return new ClientPlan(decision, settings, clientId(request, notes), assignors(assignment, config), notes);
	}

	/**
	 * A producer gets the detected rack as {@code client.rack} unless it sets one, and
	 * {@code partitioner.rack.aware=true} when {@code follower-fetch.producer.rack-aware} is
	 * on, it has a rack and sets no {@code partitioner.rack.aware} itself; nothing of
	 * either on kafka-clients older than 4.4. Records with a key are partitioned by their
	 * key whatever this adds.
	 */
	private ClientPlan producer(ClientRequest request, List<PlanNote> notes) {
		Map<String, ?> config = request.config();
		Map<String, String> settings = new LinkedHashMap<>();
		ProducerRackSupport support = this.clients.producerSupport();
		if (support.clientRack()) {
			Object own = config.get(ProducerRackSupport.CLIENT_RACK);
			Optional<ClientRack> rack = (own != null) ? ClientRack.of(own)
					: detectedRack().rack().flatMap(ClientRack::of);
			if (own == null && rack.isPresent()) {
				settings.put(ProducerRackSupport.CLIENT_RACK, rack.get().value());
			}
			if (this.clients.producerRackAware() && support.rackAwarePartitioner() && rack.isPresent()
					&& !config.containsKey(ProducerRackSupport.RACK_AWARE)) {
				settings.put(ProducerRackSupport.RACK_AWARE, "true");
			}
		}
		return new ClientPlan(null, settings, clientId(request, notes), null, notes);
	}

	/**
	 * Configure one consumer's configuration map, as used for a binding or a consumer the
	 * application builds itself: add what its {@link #plan(ClientRequest) plan} calls for
	 * (its {@code client.rack}, replica lease, zone-aware assignment and, with
	 * {@code follower-fetch.client-id-zone}, its {@code client.id} with the zone tag first),
	 * never replacing a value the configuration already has. A consumer of kind
	 * {@link ConsumerKind#OTHER} is reported to the observation, which judges it under its
	 * declared policy: give it a {@code client.id} (or use its client id as name).
	 * {@code follower-fetch.policy.consumers} is looked up by its name, then by its
	 * {@code client.id}.
	 * @param kind how the application consumes
	 * @param name the consumer's name (for {@link ConsumerKind#OTHER}, best its client id)
	 * @param config the consumer configuration, changed in place
	 * @return the decision
	 * @throws IllegalArgumentException for {@link ConsumerKind#SHARE}: share consumers take none of it
	 */
	public ConsumerPolicy configure(ConsumerKind kind, @Nullable String name, Map<String, Object> config) {
		ClientRequest request = ClientRequest.consumer(kind, name, config);
		ClientPlan plan = this.applied.applying(request, plan(request));
		plan.applyTo(config);
		ConsumerPolicy policy = Objects.requireNonNull(plan.policy());
		if (kind == ConsumerKind.OTHER && name != null) {
			Object clientId = config.get(CLIENT_ID);
			Object rack = config.get(CLIENT_RACK);
			this.configuredConsumers.configured(new ConfiguredConsumer(policy, (clientId != null) ? clientId.toString() : null,
					(rack != null) ? rack.toString() : null, config));
		}
		return policy;
	}

	/**
	 * The policy a consumer the starter did not configure is judged under:
	 * {@code follower-fetch.policy.consumers.<client-id>} (its client id without the zone
	 * tag), else the default.
	 * @param clientId the consumer's client id
	 * @return its policy
	 */
	public ConsumerPolicy declaredPolicy(String clientId) {
		return decide(ConsumerKind.OTHER, untagged(clientId), null, null, null);
	}

	/**
	 * The policy of one consumer.
	 */
	ConsumerPolicy decide(ConsumerKind kind, @Nullable String name, @Nullable Object ownClientRack,
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
	 * The {@code client.rack} a consumer must carry for a policy: empty text for
	 * freshness, the detected rack for locality, or nothing when no rack was detected.
	 */
	Optional<String> clientRack(Policy policy) {
		return (policy == Policy.FRESHNESS) ? Optional.of("") : detectedRack().rack();
	}

	/**
	 * {@link #clientRack(Policy)}, with the note that these kafka-clients make a consumer
	 * with a rack rejoin its group for every broker restart.
	 */
	private Optional<String> clientRack(Policy policy, List<PlanNote> notes) {
		Optional<String> rack = clientRack(policy);
		if (policy != Policy.FRESHNESS && rack.isPresent() && !KAFKA_20778.fixed()) {
			notes.add(new PlanNote.Rejoins(KAFKA_20778.kafkaVersion()));
		}
		return rack;
	}

	/**
	 * The {@code client.rack} a listener's own properties must add over a consumer factory
	 * that carries the default policy's rack: freshness always says so itself.
	 */
	Optional<String> clientRackOverFactory(Policy policy) {
		return clientRackOverFactory(policy, new ArrayList<>());
	}

	private Optional<String> clientRackOverFactory(Policy policy, List<PlanNote> notes) {
		return (policy == Policy.LOCALITY && this.defaultPolicy == Policy.LOCALITY) ? Optional.empty()
				: clientRack(policy, notes);
	}

	/**
	 * The {@code metadata.max.age.ms} a consumer configuration should get: a consumer keeps
	 * the follower a leader sent it to until its metadata expires, even when that follower
	 * has stopped replicating, so the replica lease bounds that time. Empty when the
	 * consumer reads from no follower, sets its own, or the lease is zero.
	 */
	Optional<String> replicaLease(@Nullable Object effectiveClientRack, Map<String, ?> config) {
		return followerSetting(effectiveClientRack, config, ConsumerConfig.METADATA_MAX_AGE_CONFIG, this.replicaLease);
	}

	/**
	 * The {@code request.timeout.ms} a consumer configuration should get: a consumer that
	 * reads from a follower whose broker dies without closing its connections waits this
	 * long before it fetches from the leader again. Empty as for the lease.
	 */
	Optional<String> replicaRequestTimeout(@Nullable Object effectiveClientRack, Map<String, ?> config) {
		return followerSetting(effectiveClientRack, config, ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG,
				this.replicaRequestTimeout);
	}

	private void followerSettings(@Nullable Object rack, Map<String, ?> config, Map<String, String> settings) {
		replicaLease(rack, config).ifPresent((lease) -> settings.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, lease));
		replicaRequestTimeout(rack, config)
			.ifPresent((timeout) -> settings.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout));
	}

	private static Optional<String> followerSetting(@Nullable Object effectiveClientRack, Map<String, ?> config,
			String key, Duration value) {
		if (!ClientRack.names(effectiveClientRack) || value.isZero() || config.containsKey(key)) {
			return Optional.empty();
		}
		return Optional.of(String.valueOf(value.toMillis()));
	}

	/**
	 * The {@code client.id} a client must send for {@code follower-fetch.client-id-zone}:
	 * its own with the zone tag first, or the tag and the request's base when it has none
	 * (made distinct from other clients of that base where the plan is applied,
	 * {@link AppliedPlans}); {@code null} to keep the client's: no tag is configured, the
	 * client already carries one, no zone that fits a tag is detected, or it has none and
	 * no base.
	 */
	private @Nullable String clientId(ClientRequest request, List<PlanNote> notes) {
		ClientIdZone clientIdZone = this.clients.clientIdZone();
		if (!clientIdZone.enabled()) {
			return null;
		}
		String zone = detectedRack().rack().orElse(null);
		if (zone == null || !clientIdZone.fits(zone)) {
			notes.add(new PlanNote.NoClientIdTag(clientIdZone.toString(), clientIdZone.key().orElse(""), zone));
		}
		return clientIdZone.clientId(request.ownClientId(), request.clientIdBase(), zone).orElse(null);
	}

	/**
	 * A client id without the tag of {@code follower-fetch.client-id-zone}, as the
	 * application named the client: what {@code follower-fetch.policy.consumers.<client-id>}
	 * names.
	 * @param clientId a client id, tagged or not
	 * @return the client id after the tag
	 */
	public String untagged(String clientId) {
		return this.clients.clientIdZone().untagged(clientId);
	}

	/**
	 * What a consumer configuration gets for zone-aware assignment.
	 */
	AssignmentStrategy.Decision assignment(@Nullable String description, Map<String, ?> config) {
		return assignment(description, config, new ArrayList<>());
	}

	/**
	 * {@link #assignment(String, Map)}, with a note when the consumer keeps a strategy of
	 * its own.
	 */
	private AssignmentStrategy.Decision assignment(@Nullable String description, Map<String, ?> config,
			List<PlanNote> notes) {
		AssignmentStrategy.Decision decision = this.clients.assignment()
			.decide(config, detectedRack().rack().orElse(null));
		if (description != null && decision.outcome() == AssignmentStrategy.Outcome.KEPT) {
			notes.add(new PlanNote.OwnStrategy(description, decision.strategies()));
		}
		return decision;
	}

	/**
	 * The registry a consumer hands its zone-aware assignor: to every one whose strategies
	 * name it (under the classic protocol), unless its configuration holds one.
	 */
	private @Nullable ZoneAwareAssignors assignors(AssignmentStrategy.Decision assignment, Map<String, ?> config) {
		boolean zoneAware = assignment.outcome() != AssignmentStrategy.Outcome.BROKER
				&& assignment.strategies().contains(ZoneAwareAssignor.class.getName());
		return (zoneAware && !config.containsKey(ZoneAwareAssignor.REGISTRY_CONFIG)) ? this.assignors : null;
	}

	/**
	 * Whether a producer with this configuration sends records without a key only to
	 * partitions led in its zone: it has a rack, {@code partitioner.rack.aware=true} and
	 * Kafka's built-in partitioner.
	 * @param config the producer's configuration, after its plan is applied
	 * @return whether rack-aware partitioning is in effect
	 */
	public boolean producerRackAware(Map<String, ?> config) {
		return this.clients.producerSupport().rackAwarePartitioner()
				&& ClientRack.names(config.get(ProducerRackSupport.CLIENT_RACK))
				&& "true".equalsIgnoreCase(String.valueOf(config.get(ProducerRackSupport.RACK_AWARE)))
				&& config.get(ProducerConfig.PARTITIONER_CLASS_CONFIG) == null;
	}

	/**
	 * What the kafka-clients on the classpath let producers say about their zone.
	 * @return the support
	 */
	public ProducerRackSupport producerSupport() {
		return this.clients.producerSupport();
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
