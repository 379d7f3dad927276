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
package dev.followerfetch.assignment.differential;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.differential.GeneratedGroup.Consumer;
import dev.followerfetch.assignment.differential.GeneratedGroup.Disturbance;
import dev.followerfetch.assignment.differential.GeneratedGroup.Hostile;
import dev.followerfetch.assignment.differential.GeneratedGroup.Phase;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * One side of the comparison, the group's members with the starter or without it, over
 * the phases of a {@link GeneratedGroup}, one rebalance at a time as Kafka's consumer and
 * group coordinator run it: every member joins with its subscription, which goes over the
 * wire (what the leader receives is what {@link ConsumerProtocol} reads back, with the
 * group instance id the coordinator adds), the leader assigns, and every member takes its
 * assignment, off the wire too, and hands it to its assignor with the group's metadata,
 * so that its next user data tells its generation. Under the eager protocol a member owns
 * nothing when it joins (the consumer revokes everything first); under the cooperative
 * one it sends what it owns, revokes what it lost and then rejoins.
 *
 * @author follower-fetch authors
 */
final class Rebalances {

	private final ConsumerSetup setup;

	private final String clientPrefix;

	/**
	 * The members in the order they joined: the first leads.
	 */
	private final Map<String, Member> members = new LinkedHashMap<>();

	private Cluster metadata = Cluster.empty();

	private int generation;

	/**
	 * Create one side.
	 * @param setup how its members are configured
	 * @param clientPrefix what its members' client ids start with, unique in the JVM
	 */
	Rebalances(ConsumerSetup setup, String clientPrefix) {
		this.setup = setup;
		this.clientPrefix = clientPrefix;
	}

	/**
	 * Bring the group to a phase: members that left are gone, new ones joined, each
	 * subscribes as the phase says, and the phase's disturbances happen.
	 * @param phase the phase
	 */
	void enter(Phase phase) {
		this.metadata = phase.metadata();
		Set<String> present = phase.members().stream().map(Consumer::memberId).collect(Collectors.toSet());
		this.members.keySet().retainAll(present);
		for (Consumer consumer : phase.members()) {
			Member member = this.members.get(consumer.memberId());
			if (member == null) {
				this.members.put(consumer.memberId(), new Member(consumer));
			}
			else {
				member.consumer = consumer;
			}
		}
		phase.disturbances().forEach(this::disturb);
	}

	/**
	 * What each member owns now.
	 * @return the owned partitions, by member id
	 */
	Map<String, Set<TopicPartition>> ownership() {
		Map<String, Set<TopicPartition>> ownership = new HashMap<>();
		this.members.forEach((id, member) -> ownership.put(id, Set.copyOf(member.owned)));
		return ownership;
	}

	/**
	 * Every member joins: its subscription, as it sends it.
	 * @return the subscriptions on the wire
	 */
	Wire join() {
		Map<String, ByteBuffer> sent = new LinkedHashMap<>();
		Map<String, Optional<String>> instances = new HashMap<>();
		this.members.forEach((memberId, member) -> {
			Consumer consumer = member.consumer;
			Subscription subscription = new Subscription(new ArrayList<>(consumer.topics()),
					userData(member, new HashSet<>(consumer.topics())), eager() ? List.of() : member.owned,
					member.generation, rackId(consumer.clientRack()));
			sent.put(memberId, ConsumerProtocol.serializeSubscription(subscription));
			instances.put(memberId, Optional.ofNullable(consumer.instanceId()));
		});
		return new Wire(sent, instances);
	}

	/**
	 * Every member takes what the leader assigned, as Kafka's consumer does.
	 * @param wire what the members sent
	 * @param assignment what the leader assigned
	 * @return what each member got and whether the group settled
	 */
	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	Sync sync(Wire wire, GroupAssignment assignment) {
		this.generation++;
		Map<String, List<TopicPartition>> given = new LinkedHashMap<>();
		Set<TopicPartition> revoked = new LinkedHashSet<>();
		Set<String> rejected = new LinkedHashSet<>();
		this.members.forEach((memberId, member) -> {
			Assignment assigned = assignment.groupAssignment().get(memberId);
			Assignment received = ConsumerProtocol.deserializeAssignment(
					ConsumerProtocol.serializeAssignment((assigned != null) ? assigned : new Assignment(List.of())));
			List<TopicPartition> partitions = received.partitions().stream().distinct().toList();
			given.put(memberId, partitions);
			member.generation = this.generation;
			if (!member.consumer.topics().containsAll(partitions.stream().map(TopicPartition::topic).toList())) {
				// the consumer takes nothing of an assignment that does not match its subscription, and rejoins
				rejected.add(memberId);
				return;
			}
			if (!eager()) {
				member.owned.stream().filter((tp) -> !partitions.contains(tp)).forEach(revoked::add);
			}
			member.owned = partitions;
			ConsumerGroupMetadata metadata = new ConsumerGroupMetadata(ConsumerSetup.GROUP, this.generation, memberId,
					Optional.ofNullable(member.consumer.instanceId()));
			member.assignor.onAssignment(received, metadata);
			if (member.kafka != member.assignor) {
				member.kafka.onAssignment(received, metadata);
			}
		});
		Set<TopicPartition> assignable = assignable(this.metadata, wire.received());
		Set<TopicPartition> withheld = withheld(wire.received(), given, assignable);
		return new Sync(this.generation, given, assignable, revoked, withheld, rejected,
				rejected.isEmpty() && (eager() || (revoked.isEmpty() && withheld.isEmpty())));
	}

	/**
	 * Partitions of subscribed topics that some member claimed and nobody got: the
	 * cooperative hand-over withholds them until their owner revoked them.
	 */
	private static Set<TopicPartition> withheld(GroupSubscription sent, Map<String, List<TopicPartition>> given,
			Set<TopicPartition> assignable) {
		Set<TopicPartition> assigned = new HashSet<>();
		given.values().forEach(assigned::addAll);
		Set<TopicPartition> withheld = new LinkedHashSet<>();
		sent.groupSubscription().values().forEach((subscription) -> subscription.ownedPartitions()
			.stream()
			.filter((tp) -> assignable.contains(tp) && !assigned.contains(tp))
			.forEach(withheld::add));
		return withheld;
	}

	/**
	 * The partitions a leader can assign: those of the subscribed topics in its metadata.
	 * @param metadata the leader's metadata
	 * @param subscriptions the subscriptions
	 * @return the partitions
	 */
	static Set<TopicPartition> assignable(Cluster metadata, GroupSubscription subscriptions) {
		Set<String> topics = new HashSet<>();
		subscriptions.groupSubscription().values().forEach((subscription) -> topics.addAll(subscription.topics()));
		Set<TopicPartition> partitions = new HashSet<>();
		for (String topic : topics) {
			for (PartitionInfo info : metadata.partitionsForTopic(topic)) {
				partitions.add(new TopicPartition(topic, info.partition()));
			}
		}
		return partitions;
	}

	ConsumerPartitionAssignor leader() {
		return leading().assignor;
	}

	/**
	 * The leader's settings, for an assignor configured as its own.
	 * @return the settings
	 */
	Map<String, Object> leaderConfig() {
		return leading().config;
	}

	/**
	 * The leader's instance of the Kafka strategy its zone-aware assignor wraps, told every
	 * assignment that one is told: Kafka's sticky assignors keep state from one rebalance
	 * to the next, so only an instance with the same history assigns the same input alike.
	 * @return the Kafka assignor
	 */
	ConsumerPartitionAssignor leaderTwin() {
		return leading().kafka;
	}

	String leaderClientId() {
		return leading().clientId;
	}

	Cluster metadata() {
		return this.metadata;
	}

	ConsumerSetup setup() {
		return this.setup;
	}

	/**
	 * What each member sends as user data.
	 * @return the kind, by member id
	 */
	Map<String, GeneratedGroup.UserData> userData() {
		Map<String, GeneratedGroup.UserData> kinds = new HashMap<>();
		this.members.forEach((memberId, member) -> kinds.put(memberId, member.consumer.userData()));
		return kinds;
	}

	private Member leading() {
		return this.members.values().iterator().next();
	}

	private boolean eager() {
		return this.setup.protocol() == RebalanceProtocol.EAGER;
	}

	private void disturb(Disturbance disturbance) {
		Member member = this.members.get(disturbance.memberId());
		if (member == null) {
			return;
		}
		switch (disturbance.kind()) {
			case CLAIMS -> claim(member, disturbance.partitions());
			case COPIES -> {
				Member other = (disturbance.from() != null) ? this.members.get(disturbance.from()) : null;
				if (other != null) {
					claim(member, other.owned);
				}
			}
			case STALE_GENERATION -> {
				if (member.generation >= 0) {
					member.generation = Math.max(0, member.generation - disturbance.generations());
					tell(member);
				}
			}
			case LOST_GENERATION -> {
				// the consumer lost its partitions; its assignor is not told
				member.generation = -1;
				member.owned = List.of();
			}
		}
	}

	private void claim(Member member, List<TopicPartition> partitions) {
		Set<TopicPartition> owned = new LinkedHashSet<>(member.owned);
		owned.addAll(partitions);
		member.owned = List.copyOf(owned);
		tell(member);
	}

	/**
	 * The member's assignors believe what it claims, so that their user data says so.
	 */
	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	private void tell(Member member) {
		Assignment assignment = new Assignment(member.owned);
		ConsumerGroupMetadata metadata = new ConsumerGroupMetadata(ConsumerSetup.GROUP, member.generation,
				member.consumer.memberId(), Optional.ofNullable(member.consumer.instanceId()));
		member.assignor.onAssignment(assignment, metadata);
		if (member.kafka != member.assignor) {
			member.kafka.onAssignment(assignment, metadata);
		}
	}

	private @Nullable ByteBuffer userData(Member member, Set<String> topics) {
		return switch (member.consumer.userData()) {
			case OWN -> member.assignor.subscriptionUserData(topics);
			case KAFKA -> member.kafka.subscriptionUserData(topics);
			case NONE -> null;
			case RANDOM -> ByteBuffer.wrap(member.consumer.random().clone());
			case HOSTILE -> {
				ByteBuffer own = member.assignor.subscriptionUserData(topics);
				ByteBuffer forged = hostile(member.consumer.hostile(),
						this.setup.starter() ? ZoneAwareAssignor.wrappedUserData(own) : own);
				// Kafka's strategy gets what the zone-aware leader hands the strategy it wraps: the same input
				yield this.setup.starter() ? forged : ZoneAwareAssignor.wrappedUserData(forged);
			}
		};
	}

	/**
	 * The zone-aware assignor's layout: version, zone, policy, generation, an empty
	 * version 1 assignment and, from version 2, the wrapped strategy's user data.
	 */
	private static ByteBuffer hostile(Hostile hostile, @Nullable ByteBuffer inner) {
		byte[] zone = hostile.zone().getBytes(StandardCharsets.UTF_8);
		int length = Math.min(zone.length, Short.MAX_VALUE);
		ByteBuffer copy = (inner != null) ? inner.duplicate() : null;
		ByteBuffer buffer = ByteBuffer.allocate(2 + 2 + length + 1 + 4 + 4 + 4 + ((copy != null) ? copy.remaining() : 0));
		buffer.putShort(hostile.version());
		buffer.putShort((short) length);
		buffer.put(zone, 0, length);
		buffer.put(hostile.policy());
		buffer.putInt(hostile.generation());
		buffer.putInt(0);
		if (hostile.version() >= 2) {
			buffer.putInt((copy != null) ? copy.remaining() : -1);
			if (copy != null) {
				buffer.put(copy);
			}
		}
		return buffer.flip();
	}

	/**
	 * Kafka's consumer trims {@code client.rack}; empty is no rack.
	 */
	private static Optional<String> rackId(@Nullable String clientRack) {
		return Optional.ofNullable(clientRack).map(String::trim).filter((rack) -> !rack.isEmpty());
	}

	/**
	 * A member: its assignors, what it owns and the generation it last joined.
	 */
	private final class Member {

		Consumer consumer;

		final String clientId;

		final Map<String, Object> config;

		/**
		 * The assignor that leads the group when this member leads.
		 */
		final ConsumerPartitionAssignor assignor;

		/**
		 * The bare Kafka strategy, for {@link GeneratedGroup.UserData#KAFKA} user data and
		 * as the twin of the one the zone-aware assignor wraps: with the starter, an
		 * instance of the wrapped one told what the member's assignor is told; without, the
		 * leading assignor itself.
		 */
		final ConsumerPartitionAssignor kafka;

		List<TopicPartition> owned = List.of();

		int generation = -1;

		Member(Consumer consumer) {
			this.consumer = consumer;
			this.clientId = Rebalances.this.clientPrefix + "-" + consumer.memberId();
			this.config = Rebalances.this.setup.config(consumer, this.clientId);
			this.assignor = Rebalances.this.setup.assignors(this.config).get(0);
			this.kafka = Rebalances.this.setup.starter() ? Rebalances.this.setup.wrapped(this.config) : this.assignor;
		}

	}

	/**
	 * The subscriptions as the members sent them.
	 *
	 * @param sent each member's serialized subscription
	 * @param instances each member's group instance id
	 */
	record Wire(Map<String, ByteBuffer> sent, Map<String, Optional<String>> instances) {

		/**
		 * The subscriptions as the leader receives them, read anew for each reader: Kafka's
		 * decoders move the buffers they read.
		 * @return the group's subscriptions
		 */
		GroupSubscription received() {
			Map<String, Subscription> received = new HashMap<>();
			this.sent.forEach((memberId, bytes) -> {
				Subscription subscription = ConsumerProtocol.deserializeSubscription(bytes.duplicate());
				subscription.setGroupInstanceId(this.instances.get(memberId));
				received.put(memberId, subscription);
			});
			return new GroupSubscription(received);
		}

	}

	/**
	 * One rebalance, as the members took it.
	 *
	 * @param generation the generation it made
	 * @param given what each member got
	 * @param assignable the partitions of the subscribed topics in the metadata
	 * @param revoked what members owned and lost (cooperative protocol)
	 * @param withheld what members owned and nobody got (cooperative protocol)
	 * @param rejected the members given partitions of a topic they do not subscribe to,
	 * which took nothing
	 * @param converged whether nobody has to rejoin: nothing revoked, nothing withheld,
	 * nothing rejected
	 */
	record Sync(int generation, Map<String, List<TopicPartition>> given, Set<TopicPartition> assignable,
			Set<TopicPartition> revoked, Set<TopicPartition> withheld, Set<String> rejected, boolean converged) {

		Set<TopicPartition> assigned() {
			Set<TopicPartition> assigned = new HashSet<>();
			this.given.values().forEach(assigned::addAll);
			return assigned;
		}

		Set<TopicPartition> assignedOfTheSubscription() {
			Set<TopicPartition> assigned = assigned();
			assigned.retainAll(this.assignable);
			return assigned;
		}

	}

}
