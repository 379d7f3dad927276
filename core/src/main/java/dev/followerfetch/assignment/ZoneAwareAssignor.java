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
package dev.followerfetch.assignment;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import dev.followerfetch.ClientRack;
import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Locality;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
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
 * A consumer group assignor (classic protocol) that gives each partition to a member in
 * its leader's zone where the guarantees of the strategy it wraps allow, by the
 * {@link ZoneAwareAssignment} rule. Put it first in {@code partition.assignment.strategy},
 * followed by the strategies the consumer had: a group whose members do not all offer it
 * uses the next common one, and the next one after it is the strategy it wraps. That
 * strategy assigns first, as it would without this assignor (with its own user data,
 * owned partitions, static members and rack awareness); the rule then only exchanges
 * partitions between members in ways that keep its balance (per topic and co-partitioned
 * after Kafka's range assignor, each member's count of each topic after the others). A
 * member reads its zone from {@code client.rack}, or from {@value #ZONE_CONFIG} when
 * {@code client.rack} is empty (its FRESHNESS consumers read from the leaders); its
 * policy is LOCALITY when its {@code client.rack} is set. Supports the protocols of the
 * strategy it wraps: under the cooperative one, a partition that changes owner is revoked
 * in one rebalance and assigned in the next. The rule's work is bounded
 * ({@value #MAX_EDGES_CONFIG}, {@value #MAX_TIME_CONFIG}); past the bound, or should the
 * rule fail, the wrapped strategy's own assignment stands for that rebalance, and the
 * leading consumer logs why once. It registers in the {@link ZoneAwareAssignors} of
 * {@value #REGISTRY_CONFIG}, through which the application observes it; without one it
 * works alone, seen by nobody. Needs only kafka-clients.
 *
 * @author follower-fetch authors
 */
public final class ZoneAwareAssignor implements ConsumerPartitionAssignor, Configurable {

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

	/**
	 * The consumer setting that names the strategy the zone-aware assignor wraps, by class
	 * name, when it is not the one after it in {@code partition.assignment.strategy}.
	 */
	public static final String WRAPPED_CONFIG = "follower.fetch.assignment.wrapped";

	/**
	 * The consumer setting that bounds the memory of the rule: the most flow edges (about
	 * 72 bytes each) of one group of partitions assigned together; 2,000,000 by default.
	 */
	public static final String MAX_EDGES_CONFIG = "follower.fetch.assignment.max.edges";

	/**
	 * The consumer setting that bounds the time of the rule in one rebalance, in
	 * milliseconds; 10,000 by default.
	 */
	public static final String MAX_TIME_CONFIG = "follower.fetch.assignment.max.time.ms";

	/**
	 * The consumer setting that holds the {@link ZoneAwareAssignors} the assignor
	 * registers in: an object, not text, which the starter adds to the consumers it
	 * configures.
	 */
	public static final String REGISTRY_CONFIG = "follower.fetch.assignment.registry";

	/**
	 * How the leading consumer's log names a rebalance whose rule broke a guarantee of the
	 * wrapped strategy.
	 */
	static final String BROKEN_GUARANTEE = "the zone-aware rule's assignment would break a guarantee of";

	/**
	 * How the leading consumer's log names a rebalance whose rule failed.
	 */
	static final String RULE_FAILED = "the zone-aware rule failed";

	private static final Logger logger = LoggerFactory.getLogger(ZoneAwareAssignor.class);

	private @Nullable String zone;

	private Policy policy = Policy.FRESHNESS;

	private ConsumerPartitionAssignor inner = new RangeAssignor();

	private Balance balance = Balance.PER_TOPIC;

	private boolean sticky;

	private Budget budget = Budget.DEFAULT;

	private String groupId = "";

	private String clientId = "";

	private Duration metadataMaxAge = metadataMaxAge(null);

	private ZoneAwareAssignors assignors = new ZoneAwareAssignors();

	private volatile boolean chosen;

	private volatile int generation = -1;

	private volatile @Nullable Leadership pending;

	private volatile @Nullable Leadership leadership;

	private final AtomicBoolean realign = new AtomicBoolean();

	private final Set<String> fallbacksLogged = ConcurrentHashMap.newKeySet();

	private final AtomicLong fallbacks = new AtomicLong();

	@Override
	public void configure(Map<String, ?> configs) {
		String rack = text(configs.get(ConsumerConfig.CLIENT_RACK_CONFIG));
		this.policy = (rack != null) ? Policy.LOCALITY : Policy.FRESHNESS;
		// read whether it applies or not: Kafka logs a setting nobody read as not used
		String zoneSetting = text(configs.get(ZONE_CONFIG));
		this.zone = (rack != null) ? rack : zoneSetting;
		this.inner = wrapped(text(configs.get(WRAPPED_CONFIG)),
				strategies(configs.get(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)), configs);
		this.balance = (this.inner instanceof RangeAssignor) ? Balance.PER_TOPIC : Balance.TOTAL;
		this.sticky = this.inner instanceof StickyAssignor || this.inner instanceof CooperativeStickyAssignor;
		this.budget = new Budget(number(configs, MAX_EDGES_CONFIG, Budget.DEFAULT.maxGroupEdges()),
				Budget.DEFAULT.maxVisits(),
				Duration.ofMillis(number(configs, MAX_TIME_CONFIG, Budget.DEFAULT.time().toMillis())), 0);
		this.groupId = Objects.toString(configs.get(ConsumerConfig.GROUP_ID_CONFIG), "");
		this.clientId = Objects.toString(configs.get(ConsumerConfig.CLIENT_ID_CONFIG), "");
		this.metadataMaxAge = metadataMaxAge(configs.get(ConsumerConfig.METADATA_MAX_AGE_CONFIG));
		this.assignors = registry(configs.get(REGISTRY_CONFIG));
		if (!this.clientId.isEmpty()) {
			this.assignors.register(this.clientId, this);
		}
	}

	/**
	 * The registry {@value #REGISTRY_CONFIG} holds, else one of this assignor's own.
	 */
	private static ZoneAwareAssignors registry(@Nullable Object registry) {
		if (registry instanceof ZoneAwareAssignors shared) {
			return shared;
		}
		if (registry != null) {
			logger.warn("Ignoring " + REGISTRY_CONFIG + " of type " + registry.getClass().getName() + ": not a "
					+ ZoneAwareAssignors.class.getName() + " of this class loader; this consumer's zone-aware "
					+ "assignor works alone, unseen by the application's health and realignment");
		}
		return new ZoneAwareAssignors();
	}

	@Override
	public String name() {
		return NAME;
	}

	/**
	 * Both: under the cooperative protocol a partition that changes owner is withheld
	 * until its owner revoked it, whatever the wrapped strategy (range, say) would do.
	 */
	@Override
	public List<RebalanceProtocol> supportedProtocols() {
		return List.of(RebalanceProtocol.EAGER, RebalanceProtocol.COOPERATIVE);
	}

	@Override
	public short version() {
		return this.inner.version();
	}

	/**
	 * What this member sends when it joins; a leadership of the last rebalance it led that
	 * no assignment confirmed (its SyncGroup failed) is void from here on, and so is the
	 * group's choice of this assignor until the rebalance completes.
	 */
	@Override
	public ByteBuffer subscriptionUserData(Set<String> topics) {
		this.pending = null;
		this.chosen = false;
		return new MemberData(this.zone, this.policy, this.generation, this.inner.subscriptionUserData(topics))
			.encode();
	}

	@Override
	public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
		Map<String, Subscription> subscriptions = groupSubscription.groupSubscription();
		Map<String, Subscription> asSent = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> asSent.put(memberId,
				withUserData(subscription, wrappedUserData(subscription.userData()))));
		GroupAssignment wrapped = this.inner.assign(metadata, new GroupSubscription(asSent));
		Map<String, List<TopicPartition>> theirs = new HashMap<>();
		wrapped.groupAssignment().forEach((memberId, assignment) -> theirs.put(memberId, assignment.partitions()));
		Map<String, List<TopicPartition>> handed;
		boolean realigning = this.realign.getAndSet(false);
		try {
			handed = zoneAware(metadata, subscriptions, theirs, realigning);
		}
		catch (RuntimeException | StackOverflowError | OutOfMemoryError ex) {
			String reason = fallBack("error:" + ex.getClass().getName(), RULE_FAILED + " (" + ex + ")", ex);
			this.pending = new Leadership(this.groupId, this.clientId, -1, this.metadataMaxAge, this.balance, List.of(),
					reason, this.fallbacks.incrementAndGet(), false);
			handed = handedOver(theirs, subscriptions);
			if (handed == null) {
				return wrapped;
			}
		}
		Map<String, Assignment> assignments = new HashMap<>();
		handed.forEach((memberId, given) -> {
			Assignment ofWrapped = wrapped.groupAssignment().get(memberId);
			assignments.put(memberId, new Assignment(given, (ofWrapped != null) ? ofWrapped.userData() : null));
		});
		return new GroupAssignment(assignments);
	}

	/**
	 * The zone-aware assignment, from the wrapped strategy's: members and owned partitions
	 * read as Kafka's own assignors read them, the rule within its budget, the hand-over
	 * and the gate; where the rule is over budget or the gate finds a broken guarantee, the
	 * wrapped strategy's own assignment (made one every member can take) stands.
	 */
	private Map<String, List<TopicPartition>> zoneAware(Cluster metadata, Map<String, Subscription> subscriptions,
			Map<String, List<TopicPartition>> theirs, boolean realigning) {
		// one set per distinct subscription: members alike share it, and compare at once
		Map<List<String>, Set<String>> subscribed = new HashMap<>();
		Set<String> topics = new TreeSet<>();
		subscriptions.values().forEach((subscription) -> subscribed.computeIfAbsent(subscription.topics(), (list) -> {
			topics.addAll(list);
			return Set.copyOf(list);
		}));
		// without a member in a zone, the partitions' zones change nothing the rebalance gives or tells
		boolean zoned = subscriptions.values().stream().anyMatch((subscription) -> zone(subscription) != null);
		List<Partition> partitions = partitions(metadata, topics, this.assignors, zoned);
		PartitionIndex index = new PartitionIndex(partitions);
		List<Member> members = new ArrayList<>();
		Map<String, Set<TopicPartition>> owned = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> {
			Member member = member(memberId, subscription,
					Objects.requireNonNull(subscribed.get(subscription.topics())), index);
			members.add(member);
			owned.put(memberId, member.owned());
		});
		WrappedAssignment reference = WrappedAssignment.of(theirs, members, partitions, index);
		if (!reference.repairs().isEmpty() && this.fallbacksLogged.add("repaired")) {
			logger.warn("Consumer group '" + this.groupId + "': " + this.inner.name()
					+ "'s assignment could not be handed out as it was (" + reference.describe()
					+ "); those partitions go to the members subscribed to their topics with the fewest partitions. "
					+ "Logged once per group.");
		}
		Map<String, List<TopicPartition>> target = reference.assignment();
		Map<String, List<TopicPartition>> handed = null;
		String fallback = null;
		boolean settling = this.sticky && !realigning
				&& (revokes(reference.assignment(), members) || !sameTopics(members));
		// members all alike or without a zone: under TOTAL the rule hands back the reference as it is
		boolean movable = this.balance == Balance.PER_TOPIC || MemberClasses.zoned(members);
		if (!settling && movable) {
			try {
				Map<String, List<TopicPartition>> ruled = ZoneAwareAssignment.assign(members, partitions, this.balance,
						reference.assignment(), this.budget.startingNow(), !realigning);
				Map<String, List<TopicPartition>> handedOver = handOver(ruled, owned);
				AssignmentGate.Violation violation = AssignmentGate.check(members, partitions, this.balance,
						reference.assignment(), ruled, handedOver);
				if (violation != null) {
					throw new GateException(violation);
				}
				target = ruled;
				handed = handedOver;
			}
			catch (OverBudgetException ex) {
				fallback = fallBack("budget", "the zone-aware rule would exceed its budget (" + ex.getMessage() + "; "
						+ MAX_EDGES_CONFIG + ", " + MAX_TIME_CONFIG + ")", null);
			}
			catch (GateException ex) {
				fallback = fallBack("gate:" + ex.violation.kind(),
						BROKEN_GUARANTEE + " " + this.inner.name() + " ("
								+ ex.violation + ")", ex);
			}
		}
		if (handed == null) {
			handed = handOver(target, owned);
		}
		Map<String, List<TopicPartition>> given = handed;
		List<Member> led = members.stream()
			.map((member) -> new Member(member.id(), member.instance(), member.zone(), member.policy(),
					member.topics(), PartitionSet.ofDistinct(given.getOrDefault(member.id(), List.of()))))
			.toList();
		this.pending = new Leadership(this.groupId, this.clientId, -1, this.metadataMaxAge, this.balance, led,
				fallback, (fallback != null) ? this.fallbacks.incrementAndGet() : this.fallbacks.get(), settling);
		if (logger.isInfoEnabled()) {
			logger.info("Zone-aware assignment of group '" + this.groupId + "' over " + this.inner.name() + ": "
					+ summary(members, partitions, target, reference.assignment(), handed, fallback));
		}
		return handed;
	}

	/**
	 * {@link ZoneAwareAssignment#handOver}, the target as it is when nobody owns anything
	 * (every first rebalance, and every one under the eager protocol): its partitions are
	 * those of the metadata.
	 */
	private static Map<String, List<TopicPartition>> handOver(Map<String, List<TopicPartition>> target,
			Map<String, Set<TopicPartition>> owned) {
		if (owned.values().stream().allMatch(Set::isEmpty)) {
			Map<String, List<TopicPartition>> now = new TreeMap<>();
			target.forEach((member, partitions) -> now.put(member, List.copyOf(partitions)));
			return now;
		}
		return ZoneAwareAssignment.handOver(target, owned);
	}

	/**
	 * The wrapped strategy's own assignment as the cooperative protocol may hand it out
	 * when the zone-aware work failed: what another member still owns withheld (Kafka's
	 * consumer rejects an assignment that gives it away), or {@code null} should even that
	 * fail.
	 */
	private static @Nullable Map<String, List<TopicPartition>> handedOver(Map<String, List<TopicPartition>> theirs,
			Map<String, Subscription> subscriptions) {
		try {
			Map<String, List<TopicPartition>> owned = new HashMap<>();
			subscriptions.forEach((memberId, subscription) -> owned.put(memberId, subscription.ownedPartitions()));
			return ZoneAwareAssignment.handOver(theirs, owned);
		}
		catch (RuntimeException | StackOverflowError | OutOfMemoryError ex) {
			return null;
		}
	}

	/**
	 * Whether the wrapped strategy takes an owned partition from its owner: a sticky
	 * strategy that does is still settling on this ownership. The rule then changes
	 * nothing, and neither while the members' subscriptions differ (Kafka's sticky
	 * assignors then balance by a general algorithm that can undo, at every rebalance, a
	 * layout it did not choose): every revocation is the strategy's own, and the group
	 * settles in the rebalances the strategy needs alone. Once it revokes nothing, the
	 * rule places the partitions nobody owns, and the group is at rest.
	 */
	private static boolean revokes(Map<String, List<TopicPartition>> reference, List<Member> members) {
		for (Member member : members) {
			if (member.owned().isEmpty()) {
				continue;
			}
			List<TopicPartition> kept = reference.getOrDefault(member.id(), List.of());
			Set<TopicPartition> keeps = (kept.size() > 8) ? PartitionSet.copyOf(kept) : null;
			for (TopicPartition tp : member.owned()) {
				if (!((keeps != null) ? keeps.contains(tp) : kept.contains(tp))) {
					return true;
				}
			}
		}
		return false;
	}

	private static boolean sameTopics(List<Member> members) {
		Set<String> first = null;
		for (Member member : members) {
			if (first == null) {
				first = member.topics();
			}
			else if (!first.equals(member.topics())) {
				return false;
			}
		}
		return true;
	}

	/**
	 * A member as it sent its subscription: its zone and policy from the zone-aware user
	 * data, else from its rack id, a zone that is not a well-formed rack read as none;
	 * the partitions it owns among those of the metadata (a claim to any other, of a
	 * deleted or shrunk topic or numbered past it, changes nothing, as in Kafka's
	 * assignors).
	 */
	private static Member member(String memberId, Subscription subscription, Set<String> topics,
			PartitionIndex index) {
		Optional<MemberData> data = MemberData.decode(subscription.userData());
		String rackZone = rackZone(subscription);
		String zone = data.isPresent() ? data.get().zone() : rackZone;
		Policy policy = data.map(MemberData::policy).orElse((rackZone != null) ? Policy.LOCALITY : Policy.FRESHNESS);
		List<TopicPartition> owned = new ArrayList<>(subscription.ownedPartitions().size());
		for (TopicPartition tp : subscription.ownedPartitions()) {
			if (tp != null && index.contains(tp)) {
				owned.add(tp);
			}
		}
		return new Member(memberId, subscription.groupInstanceId().orElse(null), zone, policy, topics,
				PartitionSet.copyOf(owned));
	}

	/**
	 * The zone a member sent: in the zone-aware user data, else as its rack id.
	 */
	private static @Nullable String zone(Subscription subscription) {
		Optional<MemberData> data = MemberData.decode(subscription.userData());
		return data.isPresent() ? data.get().zone() : rackZone(subscription);
	}

	/**
	 * A member's rack id, a zone that is not a well-formed rack read as none.
	 */
	private static @Nullable String rackZone(Subscription subscription) {
		String rack = ClientRack.zoneOf(subscription.rackId().orElse(null));
		return ClientRack.isWellFormed(rack) ? rack : null;
	}

	private String summary(List<Member> members, List<Partition> partitions, Map<String, List<TopicPartition>> target,
			Map<String, List<TopicPartition>> reference, Map<String, List<TopicPartition>> handed,
			@Nullable String fallback) {
		Locality locality = ZoneAwareAssignment.locality(target, members, partitions);
		Locality theirs = (target != reference) ? ZoneAwareAssignment.locality(reference, members, partitions)
				: locality;
		int withheld = target.values().stream().mapToInt(List::size).sum()
				- handed.values().stream().mapToInt(List::size).sum();
		return members.size() + " members by zone " + zonesOf(members) + ", " + locality.partitions()
				+ " partitions: " + locality.leaderZone() + " to a member in their leader's zone ("
				+ this.inner.name() + " alone: " + theirs.leaderZone() + "), " + locality.zoneLocal()
				+ " read in-zone, " + withheld + " withheld until their owner revokes them"
				+ ((fallback != null) ? "; " + this.inner.name() + "'s own assignment: " + fallback : "");
	}

	/**
	 * Why the wrapped strategy's own assignment stands for this rebalance, logged at WARN
	 * once per group and kind of reason, with the stack trace where the reason is a
	 * defect to report.
	 */
	private String fallBack(String kind, String reason, @Nullable Throwable defect) {
		if (this.fallbacksLogged.add(kind)) {
			if (defect != null) {
				logger.warn("Consumer group '" + this.groupId + "' keeps " + this.inner.name()
						+ "'s own assignment for this rebalance: " + reason
						+ ". Logged once per group and reason; please report it with this stack trace.", defect);
			}
			else {
				logger.warn("Consumer group '" + this.groupId + "' keeps " + this.inner.name()
						+ "'s own assignment for this rebalance: " + reason + ". Logged once per group and reason.");
			}
		}
		return reason;
	}

	/**
	 * The rebalance completed; the consumer calls this only on the assignor its group
	 * chose.
	 */
	@Override
	public void onAssignment(@Nullable Assignment assignment, @Nullable ConsumerGroupMetadata metadata) {
		this.generation = (metadata != null) ? metadata.generationId() : -1;
		this.inner.onAssignment(assignment, metadata);
		Leadership led = this.pending;
		this.pending = null;
		this.leadership = (led != null) ? led.at(this.generation) : null;
		this.chosen = true;
	}

	/**
	 * What this member knows of its group from leading the last rebalance.
	 * @return the leadership, or {@code null} when another member led the last one
	 */
	@Nullable Leadership leadership() {
		return this.leadership;
	}

	/**
	 * The strategy this assignor wraps.
	 * @return the wrapped assignor
	 */
	ConsumerPartitionAssignor wrapped() {
		return this.inner;
	}

	/**
	 * Whether the group chose this assignor at its last rebalance: {@code false} from the
	 * moment the member joins again until the rebalance completes.
	 * @return whether the last rebalance completed on this assignor
	 */
	String groupId() {
		return this.groupId;
	}

	boolean chosen() {
		return this.chosen;
	}

	/**
	 * Let the next rebalance this member leads move owned partitions to members in their
	 * leader's zone.
	 */
	void realignNext() {
		this.realign.set(true);
	}

	/**
	 * The user data of the wrapped strategy inside what a member of a zone-aware group
	 * sent, as that strategy's own decoder reads it (tools that read a group's metadata
	 * need it); user data that is not the zone-aware assignor's, as it is.
	 * @param userData a subscription's user data, may be {@code null}
	 * @return the wrapped strategy's user data, or {@code null} for none
	 */
	public static @Nullable ByteBuffer wrappedUserData(@Nullable ByteBuffer userData) {
		Optional<MemberData> data = MemberData.decode(userData);
		return data.isPresent() ? data.get().inner() : userData;
	}

	/**
	 * The partitions of the subscribed topics as the consumer's metadata has them. A
	 * topic without metadata is not assigned, as Kafka's own assignors do. Each counts as
	 * led by its preferred replica (its first), where Kafka's leader rebalance keeps
	 * leadership: a broker restart moves the leadership away and back within minutes, and
	 * an assignment that followed it would revoke each of those partitions twice. The racks
	 * of brokers that are down come from the metadata the registry's assignors saw of them
	 * before; a preferred replica of no known rack leaves the partition to its current
	 * leader.
	 */
	static List<Partition> partitions(Cluster metadata, Collection<String> topics, ZoneAwareAssignors known) {
		return partitions(metadata, topics, known, true);
	}

	/**
	 * The partitions of the subscribed topics, with their zones where {@code zoned}, else
	 * without (the brokers' racks are remembered all the same).
	 */
	private static List<Partition> partitions(Cluster metadata, Collection<String> topics, ZoneAwareAssignors known,
			boolean zoned) {
		Map<Integer, String> racks = known.brokerRacks(metadata);
		if (!zoned) {
			List<Partition> partitions = new ArrayList<>();
			for (String topic : topics) {
				for (PartitionInfo info : metadata.partitionsForTopic(topic)) {
					partitions.add(new Partition(new TopicPartition(topic, info.partition()), null, Set.of()));
				}
			}
			return partitions;
		}
		Map<Integer, String> preferredZones = new HashMap<>();
		racks.forEach((id, rack) -> {
			String zone = ClientRack.zoneOf(rack);
			if (zone != null) {
				preferredZones.put(id, zone);
			}
		});
		Map<String, String> leaderZones = new HashMap<>();
		List<Partition> partitions = new ArrayList<>();
		// the zones of a set of in-sync replicas, once per set: a few sets serve every partition
		Map<Object, Set<String>> inSyncZones = new HashMap<>();
		for (String topic : topics) {
			for (PartitionInfo info : metadata.partitionsForTopic(topic)) {
				Node[] isr = info.inSyncReplicas();
				Set<String> inSync = Set.of();
				if (isr != null && isr.length > 0) {
					inSync = inSyncZones.computeIfAbsent(replicaIds(isr), (key) -> Arrays.stream(isr)
						.filter(Objects::nonNull)
						.map(Node::rack)
						.filter(ClientRack::names)
						.collect(Collectors.toUnmodifiableSet()));
				}
				Node leader = info.leader();
				String leaderRack = (leader != null) ? leader.rack() : null;
				Node[] replicas = info.replicas();
				int preferred = (replicas != null && replicas.length > 0 && replicas[0] != null) ? replicas[0].id() : -1;
				partitions.add(Partition.ledByPreferred(new TopicPartition(topic, info.partition()),
						preferredZones.get(preferred),
						(leaderRack != null) ? leaderZones.computeIfAbsent(leaderRack, ClientRack::zoneOf) : null,
						inSync));
			}
		}
		return partitions;
	}

	/**
	 * The ids of a set of replicas ({@code -1} for a missing one), in order, as a key: up
	 * to three ids of up to 20 bits in a {@code Long}, else a list. With the zones looked up
	 * once per broker, no list per partition took this method from about 0.27 s to 0.1 s of
	 * CPU on a million partitions.
	 */
	private static Object replicaIds(Node[] replicas) {
		long packed = replicas.length;
		for (Node node : replicas) {
			int id = (node != null) ? node.id() : -1;
			if (replicas.length > 3 || id < -1 || id >= (1 << 20) - 1) {
				return Arrays.stream(replicas).map((replica) -> (replica != null) ? replica.id() : -1).toList();
			}
			packed = (packed << 20) | (id + 1);
		}
		return packed;
	}

	/**
	 * The strategy {@value #WRAPPED_CONFIG} names, else the one after this one in the list,
	 * configured as the consumer configures its assignors; Kafka's range assignor when none
	 * follows.
	 */
	private static ConsumerPartitionAssignor wrapped(@Nullable String named, List<String> strategies,
			Map<String, ?> configs) {
		int own = strategies.indexOf(ZoneAwareAssignor.class.getName());
		List<String> after = strategies.subList(own + 1, strategies.size());
		String name = (named != null) ? named.trim() : after.isEmpty() ? RangeAssignor.class.getName() : after.get(0);
		@SuppressWarnings("unchecked")
		Map<String, Object> settings = (Map<String, Object>) configs;
		return ConsumerPartitionAssignor.getAssignorInstances(List.of(name), settings).get(0);
	}

	private static Subscription withUserData(Subscription subscription, @Nullable ByteBuffer userData) {
		Subscription copy = new Subscription(subscription.topics(), userData, subscription.ownedPartitions(),
				subscription.generationId().orElse(-1), subscription.rackId());
		copy.setGroupInstanceId(subscription.groupInstanceId());
		return copy;
	}

	private static Map<String, Long> zonesOf(List<Member> members) {
		return members.stream()
			.collect(Collectors.groupingBy((member) -> Objects.toString(member.zone(), "none"), TreeMap::new,
					Collectors.counting()));
	}

	private static long number(Map<String, ?> configs, String name, long defaultValue) {
		Object value = configs.get(name);
		if (value == null) {
			return defaultValue;
		}
		try {
			long number = Long.parseLong(value.toString().trim());
			if (number > 0) {
				return number;
			}
		}
		catch (NumberFormatException ex) {
			// named below
		}
		logger.warn("Ignoring " + name + "=" + value + ": not a positive whole number; the default " + defaultValue
				+ " applies");
		return defaultValue;
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
	 * The gate found a broken guarantee: the wrapped strategy's own assignment stands.
	 */
	private static final class GateException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		private final transient AssignmentGate.Violation violation;

		GateException(AssignmentGate.Violation violation) {
			super(violation.toString());
			this.violation = violation;
		}

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
	 * @param balance how the wrapped strategy keeps partitions per member even
	 * @param members the members, each with the partitions it was given as owned
	 * @param fallback why the wrapped strategy's own assignment stood, or {@code null}
	 * when the zone-aware rule assigned
	 * @param fallbacks how many of the rebalances this consumer led since it started kept
	 * the wrapped strategy's own assignment, this one included
	 * @param settling whether the sticky strategy it wraps was still settling (it took
	 * owned partitions from their owners, or the members' subscriptions differed), so its
	 * own assignment stood and the rule placed nothing: a realignment would be undone
	 */
	public record Leadership(String groupId, String clientId, int generation, Duration metadataMaxAge, Balance balance,
			List<Member> members, @Nullable String fallback, long fallbacks, boolean settling) {

		public Leadership {
			members = List.copyOf(members);
		}

		Leadership at(int generation) {
			return new Leadership(this.groupId, this.clientId, generation, this.metadataMaxAge, this.balance,
					this.members, this.fallback, this.fallbacks, this.settling);
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
