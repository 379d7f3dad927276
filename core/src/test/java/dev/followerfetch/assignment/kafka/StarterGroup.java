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
package dev.followerfetch.assignment.kafka;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractPartitionAssignorTest;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * A consumer group as Kafka's assignor tests describe it, each member a consumer the
 * starter configured: {@code partition.assignment.strategy} is the zone-aware assignor
 * followed by the Kafka assignor under test (what {@link AssignmentStrategy} adds); a
 * member whose subscription has a rack id has that {@code client.rack} (LOCALITY), one
 * without has neither {@code client.rack} nor {@value ZoneAwareAssignor#ZONE_CONFIG}. The
 * brokers' racks reach the assignor as the racks of the leaders, replicas and in-sync
 * replicas in the {@link Cluster} built from the tests' partition infos (partition counts
 * become partitions without a leader).
 * <p>
 * Kafka's tests build every member's user data with the one assignor they hold. So before
 * each assignment every subscription is rebuilt as its member would have sent it: what
 * the member was assigned and its generation are read with the Kafka assignor's own
 * decoder (user data the adapter handed out is read as the Kafka assignor wrote it at the
 * same time), given to a {@link ZoneAwareAssignor} of the member's own through
 * {@code onAssignment}, and that assignor's {@code subscriptionUserData} is the member's
 * user data. Topics, generation, rack id and group instance id are kept, and so are the
 * owned partitions, except under the eager protocol, where a member owns nothing when it
 * joins. The leader then assigns through the public API only.
 * <p>
 * What Kafka's sticky assignors tell their tests besides the assignment is read off it
 * by Kafka's definitions: the partitions transferring ownership (one member gets what
 * another claimed and lost; a partition the cooperative hand-over withholds goes where a
 * follow-up rebalance, led by another member, puts it once its owner revoked it), and
 * stickiness (no topic has partitions moving both ways between two members).
 * <p>
 * {@code -Dkafka-assignor-tests.delegate=kafka} puts the Kafka assignor itself behind
 * the same adapters, given the subscriptions as the tests built them (a real member
 * always sends user data, which some of Kafka's tests leave out, and that changes what
 * Kafka's sticky assignors do): every test but the large ones passes so, which shows the
 * adapters cost nothing.
 *
 * @author follower-fetch authors
 */
final class StarterGroup {

	/**
	 * The group id of Kafka's tests.
	 */
	static final String GROUP = "group";

	static final int DEFAULT_GENERATION = -1;

	private static final AssignmentStrategy STARTER = new AssignmentStrategy(true);

	private final Class<? extends ConsumerPartitionAssignor> inner;

	private final Supplier<? extends ConsumerPartitionAssignor> kafka;

	private final boolean zoneAware;

	private final ConsumerPartitionAssignor leader;

	/**
	 * Whether the members rebalance with the eager protocol, which they do when one of
	 * their assignors cannot cooperate (Kafka's consumer takes the newest protocol every
	 * assignor in the list supports).
	 */
	private final boolean eager;

	/**
	 * The user data this group handed to the tests, with what the Kafka assignor wrote at
	 * the same time.
	 */
	private final Map<ByteBuffer, @Nullable ByteBuffer> handedOut = new IdentityHashMap<>();

	/**
	 * Every rebalance this group led, for {@link KafkaObjectives}.
	 */
	private final List<KafkaObjectives.Rebalance> led = new ArrayList<>();

	/**
	 * The partition infos of the last rebalance, as they were, and the metadata made of
	 * them.
	 */
	private Map<String, List<PartitionInfo>> lastInfos = Map.of();

	private @Nullable Cluster lastCluster;

	StarterGroup(Class<? extends ConsumerPartitionAssignor> inner, Supplier<? extends ConsumerPartitionAssignor> kafka) {
		this.inner = inner;
		this.kafka = kafka;
		this.zoneAware = !"kafka".equals(System.getProperty("kafka-assignor-tests.delegate"));
		this.leader = member("leader", Optional.empty());
		this.eager = !(this.leader.supportedProtocols().contains(RebalanceProtocol.COOPERATIVE)
				&& kafka.get().supportedProtocols().contains(RebalanceProtocol.COOPERATIVE));
	}

	/**
	 * The assignor that leads the group; the tests' {@code onAssignment} and
	 * {@code subscriptionUserData} reach it too.
	 * @return the leader's assignor
	 */
	ConsumerPartitionAssignor leader() {
		return this.leader;
	}

	/**
	 * The leader's user data, remembered with the Kafka assignor's.
	 * @param topics the subscribed topics
	 * @param kafkaUserData what the Kafka assignor wrote for the same state
	 * @return the leader's user data
	 */
	@Nullable ByteBuffer userData(Set<String> topics, @Nullable ByteBuffer kafkaUserData) {
		ByteBuffer userData = this.leader.subscriptionUserData(topics);
		if (userData != null) {
			this.handedOut.put(userData, kafkaUserData);
		}
		return userData;
	}

	/**
	 * One rebalance.
	 * @param adapter the adapter the test holds
	 * @param partitionsPerTopic the partitions as the test describes them
	 * @param subscriptions the subscriptions as the test built them
	 * @param claims what a subscription says its member was assigned, read as the Kafka
	 * assignor reads it
	 * @param movements whether to find which partitions change owner, for
	 * {@link Rebalance#transferring()} and {@link Rebalance#sticky()}
	 * @return the assignment, and what changed owner
	 */
	Rebalance rebalance(AbstractPartitionAssignor adapter, Map<String, List<PartitionInfo>> partitionsPerTopic,
			Map<String, Subscription> subscriptions, Function<Subscription, Claim> claims, boolean movements) {
		Cluster cluster = clusterOf(partitionsPerTopic);
		Map<String, Claim> claimed = new HashMap<>();
		Map<String, Subscription> members = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> {
			Claim claim = claims.apply(asKafkaWroteIt(subscription));
			claimed.put(memberId, claim);
			members.put(memberId, this.zoneAware ? asMemberSendsIt(memberId, subscription, claim)
					: handedOut(subscription) ? asKafkaWroteIt(subscription) : subscription);
		});
		Map<String, List<TopicPartition>> assignment = assign(this.leader, adapter, cluster, members);
		Map<String, Subscription> asTheyWereBuilt = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> asTheyWereBuilt.put(memberId,
				handedOut(subscription) ? asKafkaWroteIt(subscription) : subscription));
		if (!movements) {
			this.led.add(new KafkaObjectives.Rebalance(partitionsPerTopic, asTheyWereBuilt, members, claimed,
					assignment, assignment, rackAwareLogic(adapter)));
			return new Rebalance(assignment, null, true);
		}
		Map<String, List<TopicPartition>> intended = new HashMap<>();
		assignment.forEach((memberId, partitions) -> intended.put(memberId, new ArrayList<>(partitions)));
		Set<TopicPartition> withheld = withheld(assignment, claimed, partitionsPerTopic, subscriptions);
		if (!withheld.isEmpty()) {
			followUp(adapter, cluster, subscriptions, assignment, claimed).forEach((memberId, partitions) -> partitions
				.stream()
				.filter(withheld::contains)
				.forEach((tp) -> intended.computeIfAbsent(memberId, (key) -> new ArrayList<>()).add(tp)));
		}
		// Kafka's sticky assignors only say which partitions change owner when every member subscribes to the same
		// topics, and leave it null otherwise
		boolean sameTopics = subscriptions.values()
			.stream()
			.map((subscription) -> Set.copyOf(subscription.topics()))
			.distinct()
			.count() <= 1;
		this.led.add(new KafkaObjectives.Rebalance(partitionsPerTopic, asTheyWereBuilt, members, claimed, assignment,
				intended, rackAwareLogic(adapter)));
		return new Rebalance(assignment, sameTopics ? transferring(intended, claimed) : null,
				sticky(intended, claimed));
	}

	/**
	 * The rebalance that follows once the owners revoked what they lost: every member
	 * owns what it was given, in the next generation. Led by another member, for Kafka's
	 * sticky assignors keep state from one assignment to the next.
	 */
	private Map<String, List<TopicPartition>> followUp(AbstractPartitionAssignor adapter, Cluster cluster,
			Map<String, Subscription> subscriptions, Map<String, List<TopicPartition>> assignment,
			Map<String, Claim> claimed) {
		int generation = claimed.values().stream().mapToInt(Claim::generation).max().orElse(DEFAULT_GENERATION) + 1;
		Map<String, Subscription> next = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> {
			List<TopicPartition> owned = assignment.getOrDefault(memberId, List.of());
			Subscription revoked = copy(subscription, subscription.userData(), owned, generation);
			next.put(memberId, asMemberSendsIt(memberId, revoked, new Claim(owned, generation)));
		});
		return assign(member("next-leader", Optional.empty()), adapter, cluster, next);
	}

	/**
	 * The rebalances this group led so far.
	 * @return them, oldest first
	 */
	List<KafkaObjectives.Rebalance> led() {
		return List.copyOf(this.led);
	}

	/**
	 * A new instance of the Kafka assignor the group wraps, as a test would hold it.
	 * @return the Kafka assignor
	 */
	ConsumerPartitionAssignor kafka() {
		return this.kafka.get();
	}

	/**
	 * Whether the members rebalance with the eager protocol.
	 * @return {@code true} for eager
	 */
	boolean eager() {
		return this.eager;
	}

	/**
	 * The partition infos Kafka's assignors make of partition counts: no leader, no
	 * replicas.
	 * @param partitionsPerTopic partitions per topic
	 * @return the partition infos per topic
	 */
	static Map<String, List<PartitionInfo>> withoutLeaders(Map<String, Integer> partitionsPerTopic) {
		Map<String, List<PartitionInfo>> infos = new HashMap<>();
		partitionsPerTopic.forEach((topic, count) -> {
			List<PartitionInfo> ofTopic = new ArrayList<>();
			for (int partition = 0; partition < count; partition++) {
				ofTopic.add(new PartitionInfo(topic, partition, null, new Node[0], new Node[0]));
			}
			infos.put(topic, ofTopic);
		});
		return infos;
	}

	/**
	 * The partition infos of a consumer's metadata, for its subscribed topics.
	 * @param metadata the metadata
	 * @param subscriptions the subscriptions
	 * @return the partition infos per topic
	 */
	static Map<String, List<PartitionInfo>> partitionsPerTopic(Cluster metadata, Map<String, Subscription> subscriptions) {
		Map<String, List<PartitionInfo>> infos = new HashMap<>();
		subscriptions.values()
			.forEach((subscription) -> subscription.topics()
				.forEach((topic) -> infos.computeIfAbsent(topic, metadata::partitionsForTopic)));
		return infos;
	}

	static GroupAssignment groupAssignment(Map<String, List<TopicPartition>> assignment) {
		Map<String, Assignment> assignments = new HashMap<>();
		assignment.forEach((memberId, partitions) -> assignments.put(memberId, new Assignment(partitions)));
		return new GroupAssignment(assignments);
	}

	private Map<String, List<TopicPartition>> assign(ConsumerPartitionAssignor leader, AbstractPartitionAssignor adapter,
			Cluster cluster, Map<String, Subscription> members) {
		if (!this.zoneAware) {
			followRackAwareLogic(leader, adapter);
		}
		Map<String, List<TopicPartition>> assignment = new HashMap<>();
		leader.assign(cluster, new GroupSubscription(members))
			.groupAssignment()
			.forEach((memberId, given) -> assignment.put(memberId, new ArrayList<>(given.partitions())));
		return assignment;
	}

	/**
	 * The subscription with the user data the Kafka assignor wrote where this group
	 * handed out the leader's; its own buffer, for Kafka's decoders read it to the end.
	 */
	private Subscription asKafkaWroteIt(Subscription subscription) {
		ByteBuffer userData = subscription.userData();
		if (userData == null) {
			return subscription;
		}
		ByteBuffer kafkaUserData = handedOut(subscription) ? this.handedOut.get(userData) : userData;
		return copy(subscription, (kafkaUserData != null) ? kafkaUserData.duplicate() : null,
				subscription.ownedPartitions(), subscription.generationId().orElse(DEFAULT_GENERATION));
	}

	private boolean handedOut(Subscription subscription) {
		ByteBuffer userData = subscription.userData();
		return userData != null && this.handedOut.containsKey(userData);
	}

	/**
	 * The subscription as the member's own zone-aware assignor sends it, after it was
	 * given what the member claims. Under the eager protocol a member owns nothing when it
	 * joins (Kafka's consumer revokes every partition first), so it sends no owned
	 * partitions, whatever the test gave.
	 */
	@SuppressWarnings("removal") // Kafka 4.3 deprecates the only constructor that carries a generation
	private Subscription asMemberSendsIt(String memberId, Subscription subscription, Claim claim) {
		ConsumerPartitionAssignor member = member(memberId, subscription.rackId());
		if (!claim.partitions().isEmpty() || claim.generation() != DEFAULT_GENERATION) {
			member.onAssignment(new Assignment(claim.partitions()),
					new ConsumerGroupMetadata(GROUP, claim.generation(), memberId, subscription.groupInstanceId()));
		}
		return copy(subscription, member.subscriptionUserData(new HashSet<>(subscription.topics())),
				this.eager ? List.of() : subscription.ownedPartitions(),
				subscription.generationId().orElse(DEFAULT_GENERATION));
	}

	private ConsumerPartitionAssignor member(String clientId, Optional<String> rack) {
		ConsumerPartitionAssignor assignor = this.zoneAware ? new ZoneAwareAssignor() : this.kafka.get();
		if (assignor instanceof Configurable configurable) {
			configurable.configure(config(clientId, rack.orElse(null), rack.orElse(null), this.inner));
		}
		return assignor;
	}

	/**
	 * A consumer's configuration as the starter leaves it, for its zone-aware assignor:
	 * Kafka's consumer gives its assignors the original settings and its client id.
	 * @param clientId the consumer's client id
	 * @param clientRack its {@code client.rack} (LOCALITY), or {@code null}
	 * @param zone the zone the starter detected, or {@code null}
	 * @param inner the Kafka assignor the consumer had in its list
	 * @return the configuration
	 */
	static Map<String, Object> config(String clientId, @Nullable String clientRack, @Nullable String zone,
			Class<? extends ConsumerPartitionAssignor> inner) {
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
		config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
		config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, inner.getName());
		if (clientRack != null) {
			config.put(ConsumerConfig.CLIENT_RACK_CONFIG, clientRack);
		}
		AssignmentStrategy.Decision decision = STARTER.decide(config, zone);
		if (decision.outcome() != AssignmentStrategy.Outcome.ADDED) {
			throw new IllegalStateException("The starter did not add the zone-aware assignor: " + decision);
		}
		config.putAll(decision.settings());
		return config;
	}

	/**
	 * Partitions a member claims that nobody got, though a member subscribes to them: the
	 * cooperative hand-over withholds them until their owner revokes them.
	 */
	private static Set<TopicPartition> withheld(Map<String, List<TopicPartition>> assignment,
			Map<String, Claim> claimed, Map<String, List<PartitionInfo>> partitionsPerTopic,
			Map<String, Subscription> subscriptions) {
		ByPartition<Boolean> given = new ByPartition<>();
		assignment.values().forEach((partitions) -> partitions.forEach((tp) -> given.putIfAbsent(tp, Boolean.TRUE)));
		Set<TopicPartition> withheld = new HashSet<>();
		claimed.values().forEach((claim) -> claim.partitions()
			.stream()
			.filter((tp) -> !given.containsKey(tp))
			.forEach(withheld::add));
		if (withheld.isEmpty()) {
			return withheld;
		}
		Set<String> subscribed = new HashSet<>();
		subscriptions.values().forEach((subscription) -> subscribed.addAll(subscription.topics()));
		Set<TopicPartition> assignable = new HashSet<>();
		partitionsPerTopic.forEach((topic, infos) -> {
			if (subscribed.contains(topic)) {
				infos.forEach((info) -> assignable.add(new TopicPartition(topic, info.partition())));
			}
		});
		withheld.retainAll(assignable);
		return withheld;
	}

	/**
	 * Kafka's definition (CooperativeStickyAssignor): a partition one member gets that
	 * another member claimed and loses.
	 */
	private static Map<TopicPartition, String> transferring(Map<String, List<TopicPartition>> intended,
			Map<String, Claim> claimed) {
		Map<String, Set<TopicPartition>> gets = new HashMap<>();
		intended.forEach((memberId, partitions) -> gets.put(memberId, new HashSet<>(partitions)));
		Set<TopicPartition> revoked = new HashSet<>();
		claimed.forEach((memberId, claim) -> claim.partitions()
			.stream()
			.filter((tp) -> !gets.getOrDefault(memberId, Set.of()).contains(tp))
			.forEach(revoked::add));
		Map<TopicPartition, String> transferring = new HashMap<>();
		intended.forEach((memberId, partitions) -> {
			Claim claim = claimed.get(memberId);
			Set<TopicPartition> own = new HashSet<>((claim != null) ? claim.partitions() : List.of());
			partitions.stream()
				.filter((tp) -> !own.contains(tp) && revoked.contains(tp))
				.forEach((tp) -> transferring.put(tp, memberId));
		});
		return transferring;
	}

	/**
	 * Kafka's test of stickiness (AbstractStickyAssignor.PartitionMovements): no topic has
	 * partitions moving both ways between two members.
	 */
	private static boolean sticky(Map<String, List<TopicPartition>> intended, Map<String, Claim> claimed) {
		ByPartition<String> from = new ByPartition<>();
		claimed.forEach((memberId, claim) -> claim.partitions().forEach((tp) -> from.putIfAbsent(tp, memberId)));
		Set<List<String>> moves = new HashSet<>();
		intended.forEach((memberId, partitions) -> partitions.forEach((tp) -> {
			String previous = from.get(tp);
			if (previous != null && !previous.equals(memberId)) {
				moves.add(List.of(tp.topic(), previous, memberId));
			}
		}));
		return moves.stream().noneMatch((move) -> moves.contains(List.of(move.get(0), move.get(2), move.get(1))));
	}

	private static Subscription copy(Subscription subscription, @Nullable ByteBuffer userData,
			List<TopicPartition> ownedPartitions, int generation) {
		Subscription copy = new Subscription(subscription.topics(), userData, ownedPartitions, generation,
				subscription.rackId());
		copy.setGroupInstanceId(subscription.groupInstanceId());
		return copy;
	}

	/**
	 * The metadata of the last rebalance again when the test describes the same partitions
	 * (the same partition infos, which are immutable): Kafka's {@code Cluster} keys them by
	 * {@code TopicPartition}, whose hash is poor, and building it for a million partitions
	 * took a third of a large-group test.
	 */
	private Cluster clusterOf(Map<String, List<PartitionInfo>> partitionsPerTopic) {
		if (this.lastCluster != null && same(this.lastInfos, partitionsPerTopic)) {
			return this.lastCluster;
		}
		Map<String, List<PartitionInfo>> infos = new HashMap<>();
		partitionsPerTopic.forEach((topic, ofTopic) -> infos.put(topic, new ArrayList<>(ofTopic)));
		this.lastInfos = infos;
		this.lastCluster = cluster(partitionsPerTopic);
		return this.lastCluster;
	}

	private static boolean same(Map<String, List<PartitionInfo>> before, Map<String, List<PartitionInfo>> now) {
		if (!before.keySet().equals(now.keySet())) {
			return false;
		}
		for (Map.Entry<String, List<PartitionInfo>> entry : now.entrySet()) {
			List<PartitionInfo> was = before.get(entry.getKey());
			List<PartitionInfo> is = entry.getValue();
			if (was == null || was.size() != is.size()) {
				return false;
			}
			for (int i = 0; i < is.size(); i++) {
				if (was.get(i) != is.get(i)) {
					return false;
				}
			}
		}
		return true;
	}

	/**
	 * The metadata a consumer would have of the partitions a test describes.
	 * @param partitionsPerTopic the partition infos per topic
	 * @return the metadata
	 */
	static Cluster cluster(Map<String, List<PartitionInfo>> partitionsPerTopic) {
		Map<Integer, Node> nodes = new LinkedHashMap<>();
		List<PartitionInfo> partitions = new ArrayList<>();
		partitionsPerTopic.values().forEach((infos) -> infos.forEach((info) -> {
			partitions.add(info);
			add(nodes, info.leader());
			add(nodes, info.replicas());
			add(nodes, info.inSyncReplicas());
		}));
		return new Cluster("kafka-assignor-tests", nodes.values(), partitions, Set.of(), Set.of());
	}

	private static void add(Map<Integer, Node> nodes, Node @Nullable... added) {
		if (added != null) {
			for (Node node : added) {
				if (node != null && !node.isEmpty()) {
					nodes.putIfAbsent(node.id(), node);
				}
			}
		}
	}

	/**
	 * Kafka's tests switch its rack-aware logic on the assignor they hold; behind the
	 * adapters, Kafka's own assignor follows.
	 */
	private static void followRackAwareLogic(ConsumerPartitionAssignor leader, AbstractPartitionAssignor adapter) {
		if (leader instanceof AbstractPartitionAssignor kafkaLeader) {
			AbstractPartitionAssignorTest.preferRackAwareLogic(kafkaLeader, rackAwareLogic(adapter));
		}
	}

	/**
	 * Whether a test switched Kafka's rack-aware logic on for the assignor it holds.
	 * @param adapter the assignor the test holds
	 * @return the switch
	 */
	static boolean rackAwareLogic(AbstractPartitionAssignor adapter) {
		try {
			Field field = AbstractPartitionAssignor.class.getDeclaredField("preferRackAwareLogic");
			field.setAccessible(true);
			return field.getBoolean(adapter);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * What a subscription says its member was assigned.
	 *
	 * @param partitions the partitions
	 * @param generation the generation, {@value StarterGroup#DEFAULT_GENERATION} for none
	 */
	record Claim(List<TopicPartition> partitions, int generation) {

		static Claim of(Subscription subscription) {
			return new Claim(subscription.ownedPartitions(), subscription.generationId().orElse(DEFAULT_GENERATION));
		}

	}

	/**
	 * What one rebalance did.
	 *
	 * @param assignment each member's partitions, as the leader returned them
	 * @param transferring the partitions that change owner, each with the member it goes
	 * to (in this rebalance, or after its owner revoked it); {@code null} where the
	 * members subscribe to different topics
	 * @param sticky whether no topic has partitions moving both ways between two members
	 */
	record Rebalance(Map<String, List<TopicPartition>> assignment, @Nullable Map<TopicPartition, String> transferring,
			boolean sticky) {
	}

}
