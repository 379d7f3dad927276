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
package dev.followerfetch.e2e.previous;

import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import dev.followerfetch.ClientRack;
import dev.followerfetch.Policy;
import dev.followerfetch.e2e.previous.PreviousZoneAwareAssignment.Balance;
import dev.followerfetch.e2e.previous.PreviousZoneAwareAssignment.Locality;
import dev.followerfetch.e2e.previous.PreviousZoneAwareAssignment.Member;
import dev.followerfetch.e2e.previous.PreviousZoneAwareAssignment.Partition;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The previous release's own code, kept as it was (but for its name) so that tests can run
 * groups that mix it with this release, as a rolling upgrade does.
 * <p>
 * A consumer group assignor (classic protocol) that gives each partition to a member in
 * its leader's zone where the balance allows, by the {@link PreviousZoneAwareAssignment} rule.
 * Put it first in {@code partition.assignment.strategy}, followed by the strategies the
 * consumer had: a group whose members do not all offer it uses the next common one, and
 * the next one after it decides the balance (per topic after Kafka's range assignor,
 * across the subscription after the others). A member reads its zone from
 * {@code client.rack}, or from {@value #ZONE_CONFIG} when {@code client.rack} is empty
 * (its FRESHNESS consumers read from the leaders); its policy is LOCALITY when its
 * {@code client.rack} is set. Supports the eager and the cooperative protocol: under the
 * cooperative one, a partition that changes owner is revoked in one rebalance and
 * assigned in the next. Needs only kafka-clients.
 *
 * @author follower-fetch authors
 */
public final class PreviousZoneAwareAssignor implements ConsumerPartitionAssignor, Configurable {

	/**
	 * The assignor's name in the group protocol, which tools such as
	 * {@code kafka-consumer-groups --describe --state} show.
	 */
	public static final String NAME = "follower-fetch-zone-aware";

	/**
	 * The consumer setting that gives a member's zone when its {@code client.rack} is
	 * empty.
	 */
	public static final String ZONE_CONFIG = "follower.fetch.zone";

	private static final Logger logger = LoggerFactory.getLogger(PreviousZoneAwareAssignor.class);

	/**
	 * Kafka creates assignors by class name inside the consumer; this is how the
	 * application reaches the one that led its group's last rebalance.
	 */
	private static final Map<String, WeakReference<PreviousZoneAwareAssignor>> byClientId = new ConcurrentHashMap<>();

	private @Nullable String zone;

	private Policy policy = Policy.FRESHNESS;

	private Balance balance = Balance.PER_TOPIC;

	private String groupId = "";

	private String clientId = "";

	private Duration metadataMaxAge = metadataMaxAge(null);

	private volatile List<TopicPartition> assigned = List.of();

	private volatile int generation = -1;

	private volatile @Nullable Leadership pending;

	private volatile @Nullable Leadership leadership;

	@Override
	public void configure(Map<String, ?> configs) {
		String rack = text(configs.get(ConsumerConfig.CLIENT_RACK_CONFIG));
		this.policy = (rack != null) ? Policy.LOCALITY : Policy.FRESHNESS;
		this.zone = (rack != null) ? rack : text(configs.get(ZONE_CONFIG));
		this.balance = balanceAfter(strategies(configs.get(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)));
		this.groupId = Objects.toString(configs.get(ConsumerConfig.GROUP_ID_CONFIG), "");
		this.clientId = Objects.toString(configs.get(ConsumerConfig.CLIENT_ID_CONFIG), "");
		this.metadataMaxAge = metadataMaxAge(configs.get(ConsumerConfig.METADATA_MAX_AGE_CONFIG));
		byClientId.values().removeIf((reference) -> reference.get() == null);
		if (!this.clientId.isEmpty()) {
			byClientId.put(this.clientId, new WeakReference<>(this));
		}
	}

	@Override
	public String name() {
		return NAME;
	}

	@Override
	public List<RebalanceProtocol> supportedProtocols() {
		return List.of(RebalanceProtocol.EAGER, RebalanceProtocol.COOPERATIVE);
	}

	@Override
	public ByteBuffer subscriptionUserData(Set<String> topics) {
		return new PreviousMemberData(this.zone, this.policy, this.generation, this.assigned).encode();
	}

	@Override
	public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
		Map<String, Subscription> subscriptions = new TreeMap<>(groupSubscription.groupSubscription());
		Map<String, Set<TopicPartition>> owned = stickyClaims(subscriptions);
		List<Member> members = new ArrayList<>();
		Set<String> topics = new TreeSet<>();
		subscriptions.forEach((memberId, subscription) -> {
			PreviousMemberData data = PreviousMemberData.decode(subscription.userData()).orElse(null);
			String memberZone = (data != null && data.zone() != null) ? data.zone()
					: ClientRack.zoneOf(subscription.rackId().orElse(null));
			Policy memberPolicy = (data != null) ? data.policy()
					: (ClientRack.names(subscription.rackId().orElse(null)) ? Policy.LOCALITY : Policy.FRESHNESS);
			members.add(new Member(memberId, memberZone, memberPolicy, new HashSet<>(subscription.topics()),
					owned.getOrDefault(memberId, Set.of())));
			topics.addAll(subscription.topics());
		});
		List<Partition> partitions = partitions(metadata, topics);
		Map<String, List<TopicPartition>> target;
		try {
			target = PreviousZoneAwareAssignment.assign(members, partitions, this.balance);
		}
		catch (RuntimeException ex) {
			logger.error("Zone-aware assignment of group '" + this.groupId + "' failed, so this rebalance spreads "
					+ "the partitions by balance only; please report it with this stack trace", ex);
			target = spread(members, partitions);
		}
		Map<String, List<TopicPartition>> ownedNow = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> ownedNow.put(memberId, subscription.ownedPartitions()));
		Map<String, List<TopicPartition>> handed = PreviousZoneAwareAssignment.handOver(target, ownedNow);
		Map<String, Assignment> assignments = new HashMap<>();
		handed.forEach((memberId, partitionsOf) -> assignments.put(memberId, new Assignment(partitionsOf)));
		List<Member> given = members.stream()
			.map((member) -> new Member(member.id(), member.zone(), member.policy(), member.topics(),
					new HashSet<>(handed.get(member.id()))))
			.toList();
		this.pending = new Leadership(this.groupId, this.clientId, -1, this.metadataMaxAge, this.balance, given);
		if (logger.isInfoEnabled()) {
			Locality locality = PreviousZoneAwareAssignment.locality(target, members, partitions);
			int withheld = target.values().stream().mapToInt(List::size).sum()
					- handed.values().stream().mapToInt(List::size).sum();
			logger.info("Zone-aware assignment of group '" + this.groupId + "': " + members.size() + " members by zone "
					+ zonesOf(members) + ", " + locality.partitions() + " partitions: " + locality.leaderZone()
					+ " to a member in their leader's zone, " + locality.zoneLocal() + " read in-zone, " + withheld
					+ " withheld until their owner revokes them");
		}
		return new GroupAssignment(assignments);
	}

	@Override
	public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
		this.assigned = List.copyOf(assignment.partitions());
		this.generation = (metadata != null) ? metadata.generationId() : -1;
		Leadership led = this.pending;
		this.pending = null;
		this.leadership = (led != null) ? led.at(this.generation) : null;
	}

	/**
	 * What this member knows of its group from leading the last rebalance.
	 * @return the leadership, or {@code null} when another member led the last one
	 */
	@Nullable Leadership leadership() {
		return this.leadership;
	}

	/**
	 * The groups the application's consumers led in their last rebalance, with what the
	 * zone-aware rule knew of each.
	 * @return one leadership per consumer that leads its group, by client id
	 */
	public static Map<String, Leadership> leaderships() {
		Map<String, Leadership> led = new TreeMap<>();
		byClientId.forEach((clientId, reference) -> {
			PreviousZoneAwareAssignor assignor = reference.get();
			Leadership leadership = (assignor != null) ? assignor.leadership : null;
			if (leadership != null) {
				led.put(clientId, leadership);
			}
		});
		return led;
	}

	/**
	 * The claims that stickiness honours: a member's owned partitions (cooperative
	 * protocol), else the assignment its user data reports (eager protocol). When two
	 * members claim one partition, the newest generation keeps it.
	 */
	private static Map<String, Set<TopicPartition>> stickyClaims(Map<String, Subscription> subscriptions) {
		Map<TopicPartition, String> owner = new HashMap<>();
		Map<TopicPartition, Integer> ownerGeneration = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> {
			List<TopicPartition> claimed = subscription.ownedPartitions();
			int generation = subscription.generationId().orElse(-1);
			if (claimed.isEmpty()) {
				PreviousMemberData data = PreviousMemberData.decode(subscription.userData()).orElse(null);
				claimed = (data != null) ? data.assigned() : List.of();
				generation = (data != null) ? data.generation() : -1;
			}
			for (TopicPartition tp : claimed) {
				Integer current = ownerGeneration.get(tp);
				if (current == null || generation > current) {
					owner.put(tp, memberId);
					ownerGeneration.put(tp, generation);
				}
			}
		});
		Map<String, Set<TopicPartition>> claims = new HashMap<>();
		owner.forEach((tp, memberId) -> claims.computeIfAbsent(memberId, (key) -> new HashSet<>()).add(tp));
		return claims;
	}

	/**
	 * The partitions of the subscribed topics as the consumer's metadata has them. A
	 * topic without metadata is not assigned, as Kafka's own assignors do.
	 */
	static List<Partition> partitions(Cluster metadata, Collection<String> topics) {
		List<Partition> partitions = new ArrayList<>();
		for (String topic : topics) {
			for (PartitionInfo info : metadata.partitionsForTopic(topic)) {
				Set<String> inSync = new HashSet<>();
				if (info.inSyncReplicas() != null) {
					Arrays.stream(info.inSyncReplicas())
						.map(Node::rack)
						.filter(ClientRack::names)
						.forEach(inSync::add);
				}
				Node leader = info.leader();
				String leaderZone = (leader != null) ? ClientRack.zoneOf(leader.rack()) : null;
				partitions.add(new Partition(new TopicPartition(topic, info.partition()), leaderZone, inSync));
			}
		}
		return partitions;
	}

	/**
	 * A rebalance must not fail for a bug in the rule: each topic's partitions in turn to
	 * the members subscribed to it, which keeps them within one of each other.
	 */
	static Map<String, List<TopicPartition>> spread(List<Member> members, List<Partition> partitions) {
		Map<String, List<TopicPartition>> assignment = new TreeMap<>();
		members.forEach((member) -> assignment.put(member.id(), new ArrayList<>()));
		Map<String, List<TopicPartition>> byTopic = new TreeMap<>();
		partitions.forEach((partition) -> byTopic
			.computeIfAbsent(partition.partition().topic(), (topic) -> new ArrayList<>())
			.add(partition.partition()));
		byTopic.forEach((topic, ofTopic) -> {
			List<String> readers = members.stream()
				.filter((member) -> member.topics().contains(topic))
				.map(Member::id)
				.sorted()
				.toList();
			ofTopic.sort(Comparator.comparingInt(TopicPartition::partition));
			for (int i = 0; i < ofTopic.size() && !readers.isEmpty(); i++) {
				Objects.requireNonNull(assignment.get(readers.get(i % readers.size()))).add(ofTopic.get(i));
			}
		});
		return assignment;
	}

	private static Map<String, Long> zonesOf(List<Member> members) {
		return members.stream()
			.collect(Collectors.groupingBy((member) -> Objects.toString(member.zone(), "none"), TreeMap::new,
					Collectors.counting()));
	}

	private static Balance balanceAfter(List<String> strategies) {
		int own = strategies.indexOf(PreviousZoneAwareAssignor.class.getName());
		List<String> after = strategies.subList(own + 1, strategies.size());
		return (after.isEmpty() || after.get(0).equals(RangeAssignor.class.getName())) ? Balance.PER_TOPIC
				: Balance.TOTAL;
	}

	/**
	 * The class names of a {@code partition.assignment.strategy} value: a list of classes
	 * or names, or names separated by commas.
	 * @param value the value
	 * @return the class names in order
	 */
	public static List<String> strategies(@Nullable Object value) {
		List<String> names = new ArrayList<>();
		Collection<?> entries = (value instanceof Collection<?> collection) ? collection
				: (value != null) ? Arrays.asList(value.toString().split(",")) : List.of();
		for (Object entry : entries) {
			String name = (entry instanceof Class<?> type) ? type.getName() : Objects.toString(entry, "").trim();
			if (!name.isEmpty()) {
				names.add(name);
			}
		}
		return names;
	}

	private static Duration metadataMaxAge(@Nullable Object value) {
		Object millis = (value != null) ? value
				: ConsumerConfig.configDef().defaultValues().get(ConsumerConfig.METADATA_MAX_AGE_CONFIG);
		return Duration.ofMillis((Long) Objects.requireNonNull(
				ConfigDef.parseType(ConsumerConfig.METADATA_MAX_AGE_CONFIG, millis, ConfigDef.Type.LONG)));
	}

	private static @Nullable String text(@Nullable Object value) {
		return (value != null && !value.toString().isBlank()) ? value.toString() : null;
	}

	/**
	 * What the member that led its group's last rebalance knows: every member's zone,
	 * policy and topics, and the partitions each got.
	 *
	 * @param groupId the group
	 * @param clientId the client id of the leading consumer
	 * @param generation the generation of that rebalance
	 * @param metadataMaxAge the leading consumer's {@code metadata.max.age.ms}: the
	 * leaders it assigns by may be this much older than a move
	 * @param balance how the rule kept partitions per member even
	 * @param members the members, each with the partitions it was given as owned
	 */
	public record Leadership(String groupId, String clientId, int generation, Duration metadataMaxAge, Balance balance,
			List<Member> members) {

		public Leadership {
			members = List.copyOf(members);
		}

		Leadership at(int generation) {
			return new Leadership(this.groupId, this.clientId, generation, this.metadataMaxAge, this.balance,
					this.members);
		}

		/**
		 * Each member's partitions.
		 * @return the assignment, by member id
		 */
		public Map<String, Set<TopicPartition>> assignment() {
			Map<String, Set<TopicPartition>> assignment = new TreeMap<>();
			this.members.forEach((member) -> assignment.put(member.id(), member.owned()));
			return assignment;
		}

	}

}
