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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The assignor as Kafka's consumer drives it: configured from the consumer's settings,
 * its user data in the subscriptions, the consumer's metadata, the rebalance protocols,
 * and the strategy it wraps.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignorTests {

	private static final List<Node> BROKERS = List.of(new Node(0, "localhost", 9092, "az-a"),
			new Node(1, "localhost", 9093, "az-b"), new Node(2, "localhost", 9094, "az-c"));

	private static final Cluster CLUSTER = cluster(6);

	private static final String ZONE_AWARE = ZoneAwareAssignor.class.getName();

	private final ZoneAwareAssignors assignors = new ZoneAwareAssignors();

	@Test
	void aMemberWithAClientRackReadsWithLocalityInThatZone() {
		ZoneAwareAssignor assignor = configured(Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b"));
		assertThat(MemberData.decode(assignor.subscriptionUserData(Set.of("events"))))
			.hasValue(new MemberData("az-b", Policy.LOCALITY, -1, null));
	}

	@Test
	void aMemberWithAnEmptyClientRackReadsWithFreshnessInTheZoneItIsGiven() {
		ZoneAwareAssignor assignor = configured(
				Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, "", ZoneAwareAssignor.ZONE_CONFIG, "az-c"));
		assertThat(MemberData.decode(assignor.subscriptionUserData(Set.of("events"))))
			.hasValue(new MemberData("az-c", Policy.FRESHNESS, -1, null));
	}

	@Test
	void theStrategyAfterItIsTheOneItWrapsAndDecidesItsBalance() {
		assertThat(configured(Map.of()).wrapped()).isInstanceOf(RangeAssignor.class);
		ZoneAwareAssignor range = configured(strategies(ZONE_AWARE, RangeAssignor.class.getName(),
				CooperativeStickyAssignor.class.getName()));
		assertThat(range.wrapped()).isInstanceOf(RangeAssignor.class);
		assertThat(balance(range)).isEqualTo(Balance.PER_TOPIC);
		ZoneAwareAssignor cooperative = configured(Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
				List.of(ZoneAwareAssignor.class, CooperativeStickyAssignor.class)));
		assertThat(cooperative.wrapped()).isInstanceOf(CooperativeStickyAssignor.class);
		assertThat(balance(cooperative)).isEqualTo(Balance.TOTAL);
		assertThat(configured(strategies(ZONE_AWARE, RoundRobinAssignor.class.getName())).wrapped())
			.isInstanceOf(RoundRobinAssignor.class);
	}

	@Test
	void theStrategyItWrapsCanBeNamedApartFromTheListAndEveryStrategyCooperatesBehindIt() {
		Map<String, Object> settings = new HashMap<>(strategies(ZONE_AWARE, CooperativeStickyAssignor.class.getName()));
		settings.put(ZoneAwareAssignor.WRAPPED_CONFIG, RangeAssignor.class.getName());
		ZoneAwareAssignor range = configured(settings);
		assertThat(range.wrapped()).isInstanceOf(RangeAssignor.class);
		assertThat(balance(range)).isEqualTo(Balance.PER_TOPIC);
		// a partition that changes owner is withheld until its owner revoked it, whatever the wrapped strategy does
		assertThat(range.supportedProtocols()).containsExactly(RebalanceProtocol.EAGER, RebalanceProtocol.COOPERATIVE);
	}

	@Test
	void theWrappedStrategyGetsItsOwnUserDataBackFromEveryMember() {
		ZoneAwareAssignor member = configured(strategies(ZONE_AWARE, CooperativeStickyAssignor.class.getName()));
		member.onAssignment(new Assignment(List.of(tp(0))), metadata(7));
		ByteBuffer sent = member.subscriptionUserData(Set.of("events"));
		CooperativeStickyAssignor kafka = new CooperativeStickyAssignor();
		kafka.onAssignment(new Assignment(List.of(tp(0))), metadata(7));
		assertThat(ZoneAwareAssignor.wrappedUserData(sent)).isEqualTo(kafka.subscriptionUserData(Set.of("events")));
	}

	@Test
	void oneMemberPerZoneGetsThePartitionsLedInItsZone() {
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a", subscription(data("az-a", Policy.FRESHNESS), List.of()));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of()));
		subscriptions.put("member-c", subscription(data("az-c", Policy.FRESHNESS), List.of()));
		Map<String, Assignment> assignments = configured(Map.of()).assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(assignments.get("member-a").partitions()).containsExactlyInAnyOrder(tp(0), tp(3));
		assertThat(assignments.get("member-b").partitions()).containsExactlyInAnyOrder(tp(1), tp(4));
		assertThat(assignments.get("member-c").partitions()).containsExactlyInAnyOrder(tp(2), tp(5));
	}

	@Test
	void aPartitionCountsAsLedByItsPreferredReplicaWhileABrokerRestartMovedItsLeader() {
		// the racks of the brokers, seen before broker 0 went down
		assertThat(ZoneAwareAssignor.partitions(new Cluster("restarting", BROKERS, List.of(), Set.of(), Set.of()),
				List.of("events"), this.assignors)).isEmpty();
		assertThat(ZoneAwareAssignor.partitions(withoutBroker0("restarting"), List.of("events"), this.assignors))
			.extracting((partition) -> partition.partition().partition() + "@" + partition.leaderZone())
			.containsExactlyInAnyOrder("0@az-a", "1@az-b", "2@az-c", "3@az-a", "4@az-b", "5@az-c");
		assertThat(ZoneAwareAssignor.partitions(withoutBroker0("unseen"), List.of("events"), this.assignors))
			.as("a preferred replica of no known rack leaves the partition to its leader")
			.extracting((partition) -> partition.partition().partition() + "@" + partition.leaderZone())
			.containsExactlyInAnyOrder("0@az-b", "1@az-b", "2@az-c", "3@az-b", "4@az-b", "5@az-c");
	}

	@Test
	void aMemberWithoutUserDataIsPlacedByItsRackId() {
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a", new Subscription(List.of("events"), null, List.of(), -1, Optional.of("az-a")));
		subscriptions.put("member-b", new Subscription(List.of("events"), ByteBuffer.wrap(new byte[] { 9 }), List.of(),
				-1, Optional.of("az-b")));
		subscriptions.put("member-c", subscription(data("az-c", Policy.LOCALITY), List.of()));
		Map<String, Assignment> assignments = configured(Map.of()).assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(assignments.get("member-a").partitions()).containsExactlyInAnyOrder(tp(0), tp(3));
		assertThat(assignments.get("member-b").partitions()).containsExactlyInAnyOrder(tp(1), tp(4));
	}

	@Test
	void underTheCooperativeProtocolMembersKeepWhatTheyOwnInTheirZoneFirstAndAMovedPartitionWaitsForTheNextRebalance() {
		Map<String, Subscription> subscriptions = new HashMap<>();
		// the members own what Kafka's range assignor gave them: member-a 0-2, member-b 3-5
		subscriptions.put("member-a", subscription(data("az-a", Policy.LOCALITY), List.of(tp(0), tp(1), tp(2))));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of(tp(3), tp(4), tp(5))));
		subscriptions.put("member-c", subscription(data("az-c", Policy.LOCALITY), List.of()));
		ZoneAwareAssignor assignor = configured(strategies(ZONE_AWARE, CooperativeStickyAssignor.class.getName()));
		Map<String, Assignment> first = assignor.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertNothingOwnedIsGivenToAnother(subscriptions, first);
		// cooperative-sticky keeps two of each, the first it finds; the zone-aware rule keeps the one in the zone first
		assertThat(first.get("member-a").partitions()).containsExactlyInAnyOrder(tp(0), tp(1));
		assertThat(first.get("member-b").partitions()).containsExactlyInAnyOrder(tp(3), tp(4));
		assertThat(first.get("member-c").partitions()).isEmpty();

		subscriptions.put("member-a", subscription(data("az-a", Policy.LOCALITY), first.get("member-a").partitions()));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), first.get("member-b").partitions()));
		Map<String, Assignment> second = assignor.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertNothingOwnedIsGivenToAnother(subscriptions, second);
		assertThat(second.get("member-a").partitions()).containsExactlyInAnyOrder(tp(0), tp(1));
		assertThat(second.get("member-b").partitions()).containsExactlyInAnyOrder(tp(3), tp(4));
		assertThat(second.get("member-c").partitions()).containsExactlyInAnyOrder(tp(2), tp(5));
	}

	@Test
	void aRealignmentMovesOwnedPartitionsToTheirLeadersZoneOnceAndTheRebalanceAfterItCompletesTheMove() {
		ZoneAwareAssignor assignor = configured(Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
				ZONE_AWARE + "," + CooperativeStickyAssignor.class.getName(), ConsumerConfig.CLIENT_ID_CONFIG,
				"realigning-client"));
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a", subscription(data("az-a", Policy.LOCALITY), List.of(tp(0), tp(1))));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of(tp(3), tp(4))));
		subscriptions.put("member-c", subscription(data("az-c", Policy.LOCALITY), List.of(tp(2), tp(5))));
		Map<String, Assignment> kept = assignor.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(kept.get("member-a").partitions()).containsExactlyInAnyOrder(tp(0), tp(1));

		assertThat(this.assignors.realignNext("realigning-client")).isTrue();
		Map<String, Assignment> realigned = assignor.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertNothingOwnedIsGivenToAnother(subscriptions, realigned);
		assertThat(realigned.get("member-a").partitions()).containsExactly(tp(0));
		assertThat(realigned.get("member-b").partitions()).containsExactly(tp(4));

		subscriptions.put("member-a", subscription(data("az-a", Policy.LOCALITY), List.of(tp(0))));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of(tp(4))));
		Map<String, Assignment> after = assignor.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(after.get("member-a").partitions()).containsExactlyInAnyOrder(tp(0), tp(3));
		assertThat(after.get("member-b").partitions()).containsExactlyInAnyOrder(tp(1), tp(4));
		assertThat(after.get("member-c").partitions()).containsExactlyInAnyOrder(tp(2), tp(5));
	}

	@Test
	void aRuleOverItsBudgetLeavesTheWrappedStrategysAssignmentLogsWhyOnceAndSaysSoInItsLeadership() {
		ZoneAwareAssignor leader = configured(Map.of(ZoneAwareAssignor.MAX_EDGES_CONFIG, "4",
				ConsumerConfig.CLIENT_ID_CONFIG, "budget-client", ConsumerConfig.GROUP_ID_CONFIG, "orders"));
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a", subscription(data("az-a", Policy.FRESHNESS), List.of()));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of()));
		subscriptions.put("member-c", subscription(data("az-c", Policy.FRESHNESS), List.of()));
		ListAppender<ILoggingEvent> log = capture();
		try {
			Map<String, Assignment> first = leader.assign(CLUSTER, new GroupSubscription(subscriptions))
				.groupAssignment();
			leader.assign(CLUSTER, new GroupSubscription(subscriptions));
			// range's own layout: member-a 0-1, member-b 2-3, member-c 4-5
			assertThat(first.get("member-a").partitions()).containsExactly(tp(0), tp(1));
			assertThat(first.get("member-c").partitions()).containsExactly(tp(4), tp(5));
			assertThat(log.list).filteredOn((event) -> event.getLevel().toString().equals("WARN"))
				.singleElement()
				.satisfies((event) -> assertThat(event.getFormattedMessage()).contains(
						"Consumer group 'orders' keeps range's own assignment for this rebalance",
						"more than 4", ZoneAwareAssignor.MAX_EDGES_CONFIG));
			leader.onAssignment(first.get("member-a"), metadata(4));
			assertThat(leader.leadership().fallback()).contains("budget");
		}
		finally {
			release(log);
		}
	}

	@Test
	void aMemberGivenNoAssignmentKeepsItsWrappedStrategyWhole() {
		ZoneAwareAssignor member = configured(strategies(ZONE_AWARE, CooperativeStickyAssignor.class.getName()));
		member.onAssignment(null, metadata(5));
		assertThat(MemberData.decode(member.subscriptionUserData(Set.of("events"))).orElseThrow().generation())
			.isEqualTo(5);
	}

	@Test
	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	void theMemberThatLedTheRebalanceKeepsWhatItKnowsOfTheGroupAtItsGeneration() {
		ZoneAwareAssignor leader = configured(
				Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "leading-client", ConsumerConfig.GROUP_ID_CONFIG, "orders"));
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a", subscription(data("az-a", Policy.LOCALITY), List.of()));
		subscriptions.put("member-b", subscription(data("az-b", Policy.FRESHNESS), List.of()));
		Map<String, Assignment> assignments = leader.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(leader.leadership()).isNull();
		leader.onAssignment(assignments.get("member-a"), new ConsumerGroupMetadata("orders", 12, "member-a", Optional.empty()));
		assertThat(this.assignors.leaderships()).containsKey("leading-client");
		ZoneAwareAssignor.Leadership leadership = leader.leadership();
		assertThat(leadership.groupId()).isEqualTo("orders");
		assertThat(leadership.generation()).isEqualTo(12);
		assertThat(leadership.fallback()).isNull();
		assertThat(leadership.metadataMaxAge()).as("Kafka's default metadata.max.age.ms")
			.isEqualTo(Duration.ofMinutes(5));
		assertThat(leadership.assignment().get("member-b")).containsExactlyInAnyOrderElementsOf(
				assignments.get("member-b").partitions());
		leader.onAssignment(assignments.get("member-a"), new ConsumerGroupMetadata("orders", 13, "member-a", Optional.empty()));
		assertThat(leader.leadership()).as("another member led generation 13").isNull();
	}

	@Test
	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	void theLeadershipSaysHowOldTheLeadingConsumersMetadataCanBe() {
		ZoneAwareAssignor leader = configured(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "aged-client",
				ConsumerConfig.METADATA_MAX_AGE_CONFIG, "30000"));
		Map<String, Subscription> subscriptions = Map.of("member-a", subscription(data("az-a", Policy.LOCALITY), List.of()));
		Map<String, Assignment> assignments = leader.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		leader.onAssignment(assignments.get("member-a"), new ConsumerGroupMetadata("orders", 3, "member-a", Optional.empty()));
		assertThat(leader.leadership().metadataMaxAge()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void aMemberSubscribedToNothingGetsNothingAndEveryPartitionKafkasStickyAssignorsPlaceGoesToASubscriber() {
		Cluster twoTopics = twoTopics(5, 2);
		for (Class<?> strategy : List.of(CooperativeStickyAssignor.class, StickyAssignor.class)) {
			// Kafka's sticky assignors judge every subscription equal when the empty one is read first
			Map<String, Subscription> subscriptions = new LinkedHashMap<>();
			subscriptions.put("m0", new Subscription(List.of(), data("az-a", Policy.LOCALITY).encode(), List.of(), -1,
					Optional.of("az-a")));
			subscriptions.put("m1", new Subscription(List.of("t1", "t2"), data("az-b", Policy.LOCALITY).encode(),
					List.of(), -1, Optional.of("az-b")));
			subscriptions.put("m2", new Subscription(List.of("t1", "t2"), data("az-c", Policy.LOCALITY).encode(),
					List.of(), -1, Optional.of("az-c")));
			Map<String, Assignment> kafka = kafka(strategy, twoTopics, subscriptions);
			assertThat(kafka.get("m0").partitions()).as("Kafka's %s", strategy.getSimpleName()).isNotEmpty();
			Map<String, Assignment> assignments = configured(strategies(ZONE_AWARE, strategy.getName()))
				.assign(twoTopics, new GroupSubscription(subscriptions))
				.groupAssignment();
			assertThat(assignments.get("m0").partitions()).isEmpty();
			assertThat(assignments.values().stream().flatMap((assignment) -> assignment.partitions().stream()))
				.doesNotHaveDuplicates()
				.containsExactlyInAnyOrderElementsOf(
						kafka.values().stream().flatMap((assignment) -> assignment.partitions().stream()).toList());
		}
	}

	@Test
	void ownedPartitionsNumberedPastTheirTopicOrOfNoSubscribedTopicChangeNothing() {
		ZoneAwareAssignor assignor = configured(strategies(ZONE_AWARE, CooperativeStickyAssignor.class.getName()));
		Map<String, Subscription> honest = new HashMap<>();
		honest.put("member-a", subscription(data("az-a", Policy.LOCALITY), List.of(tp(0), tp(1))));
		honest.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of(tp(2), tp(3))));
		honest.put("member-c", subscription(data("az-c", Policy.LOCALITY), List.of(tp(4), tp(5))));
		Map<String, Assignment> expected = assignor.assign(CLUSTER, new GroupSubscription(honest)).groupAssignment();
		Map<String, Subscription> claiming = new HashMap<>(honest);
		claiming.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of(tp(2), tp(3), tp(Integer.MAX_VALUE),
				tp(Integer.MAX_VALUE - 2), tp(100_000_000), tp(6), new TopicPartition("deleted", 0))));
		Map<String, Assignment> kafka = kafka(CooperativeStickyAssignor.class, CLUSTER, claiming);
		Map<String, Assignment> assignments = assignor.assign(CLUSTER, new GroupSubscription(claiming))
			.groupAssignment();
		assertThat(kafka.values().stream().mapToInt((assignment) -> assignment.partitions().size()).sum()).isEqualTo(6);
		assertThat(assignments).hasSameSizeAs(expected);
		expected.forEach((member, assignment) -> assertThat(assignments.get(member).partitions())
			.containsExactlyInAnyOrderElementsOf(assignment.partitions()));
	}

	@Test
	void aZoneThatIsNoWellFormedRackIsReadAsNone() {
		ZoneAwareAssignor leader = configured(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "zones-client"));
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a", subscription(data("az-a\n\u0000" + "x".repeat(30_000), Policy.LOCALITY), List.of()));
		subscriptions.put("member-b", new Subscription(List.of("events"), null, List.of(), -1, Optional.of("az b")));
		subscriptions.put("member-c", subscription(data("az-c", Policy.LOCALITY), List.of()));
		Map<String, Assignment> assignments = leader.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		leader.onAssignment(assignments.get("member-c"), metadata(2, "member-c"));
		assertThat(leader.leadership().members()).extracting(Member::id, Member::zone)
			.containsExactlyInAnyOrder(tuple("member-a", null), tuple("member-b", null), tuple("member-c", "az-c"));
	}

	@Test
	void aLeadershipThatNoAssignmentConfirmedIsVoidOnceTheMemberJoinsAgain() {
		ZoneAwareAssignor leader = configured(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "failed-sync-client"));
		Map<String, Subscription> subscriptions = Map.of("member-a", subscription(data("az-a", Policy.LOCALITY), List.of()),
				"member-b", subscription(data("az-b", Policy.LOCALITY), List.of()));
		Map<String, Assignment> assignments = leader.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		// its SyncGroup failed: it joins again, and another member leads the next generation
		leader.subscriptionUserData(Set.of("events"));
		leader.onAssignment(assignments.get("member-a"), metadata(8, "member-a"));
		assertThat(leader.leadership()).isNull();
		assertThat(this.assignors.leaderships()).doesNotContainKey("failed-sync-client");
	}

	@Test
	@GateNeverTrips.TripsTheGate
	void aRuleThatFailsLeavesTheWrappedStrategysOwnAssignmentAndSaysWhyInItsLeadership() {
		ZoneAwareAssignor leader = configured(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "failing-client"));
		// a partition numbered below 0, which no broker sends: the rule's tables refuse it
		Cluster corrupt = new Cluster("id", BROKERS,
				List.of(new PartitionInfo("events", -1, BROKERS.get(0), preferring(0), preferring(0)),
						new PartitionInfo("events", 0, BROKERS.get(1), preferring(1), preferring(1))),
				Set.of(), Set.of());
		Map<String, Subscription> subscriptions = Map.of("member-a", subscription(data("az-a", Policy.LOCALITY), List.of()),
				"member-b", subscription(data("az-b", Policy.LOCALITY), List.of()));
		Map<String, Assignment> kafka = kafka(RangeAssignor.class, corrupt, subscriptions);
		Map<String, Assignment> assignments = leader.assign(corrupt, new GroupSubscription(subscriptions))
			.groupAssignment();
		kafka.forEach((member, assignment) -> assertThat(assignments.get(member).partitions())
			.containsExactlyElementsOf(assignment.partitions()));
		leader.onAssignment(assignments.get("member-a"), metadata(3, "member-a"));
		assertThat(leader.leadership().fallback()).startsWith(ZoneAwareAssignor.RULE_FAILED);
		assertThat(leader.leadership().fallbacks()).isEqualTo(1);
	}

	private static Map<String, Assignment> kafka(Class<?> strategy, Cluster cluster,
			Map<String, Subscription> subscriptions) {
		ConsumerPartitionAssignor kafka = ConsumerPartitionAssignor
			.getAssignorInstances(List.of(strategy.getName()), Map.of())
			.get(0);
		Map<String, Subscription> asSent = new LinkedHashMap<>();
		subscriptions.forEach((member, subscription) -> asSent.put(member,
				new Subscription(subscription.topics(), ZoneAwareAssignor.wrappedUserData(subscription.userData()),
						subscription.ownedPartitions(), subscription.generationId().orElse(-1), subscription.rackId())));
		return kafka.assign(cluster, new GroupSubscription(asSent)).groupAssignment();
	}

	private static Cluster twoTopics(int first, int second) {
		List<PartitionInfo> infos = new ArrayList<>();
		for (int p = 0; p < first + second; p++) {
			Node[] replicas = preferring(p % 3);
			infos.add(new PartitionInfo((p < first) ? "t1" : "t2", (p < first) ? p : p - first, replicas[0], replicas,
					replicas));
		}
		return new Cluster("id", BROKERS, infos, Set.of(), Set.of());
	}

	private static Balance balance(ZoneAwareAssignor assignor) {
		Map<String, Subscription> subscriptions = new HashMap<>();
		Cluster twoTopics = new Cluster("id", BROKERS,
				List.of(new PartitionInfo("t1", 0, BROKERS.get(0), BROKERS.toArray(Node[]::new), BROKERS.toArray(Node[]::new)),
						new PartitionInfo("t2", 0, BROKERS.get(0), BROKERS.toArray(Node[]::new), BROKERS.toArray(Node[]::new))),
				Set.of(), Set.of());
		subscriptions.put("member-a", new Subscription(List.of("t1", "t2"), data("az-a", Policy.LOCALITY).encode()));
		subscriptions.put("member-b", new Subscription(List.of("t1", "t2"), data("az-b", Policy.LOCALITY).encode()));
		Map<String, Assignment> assignments = assignor.assign(twoTopics, new GroupSubscription(subscriptions))
			.groupAssignment();
		// both partitions are led in az-a: per topic, member-a gets both; across topics, one each
		return (assignments.get("member-a").partitions().size() == 2) ? Balance.PER_TOPIC : Balance.TOTAL;
	}

	private static void assertNothingOwnedIsGivenToAnother(Map<String, Subscription> subscriptions,
			Map<String, Assignment> assignments) {
		assignments.forEach((member, assignment) -> assignment.partitions()
			.forEach((tp) -> subscriptions.forEach((other, subscription) -> {
				if (!other.equals(member)) {
					assertThat(subscription.ownedPartitions()).as("%s given to %s", tp, member).doesNotContain(tp);
				}
			})));
	}

	private static ListAppender<ILoggingEvent> capture() {
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		((Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class)).addAppender(appender);
		return appender;
	}

	private static void release(ListAppender<ILoggingEvent> appender) {
		((Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class)).detachAppender(appender);
	}

	private static ConsumerGroupMetadata metadata(int generation) {
		return metadata(generation, "member-a");
	}

	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	private static ConsumerGroupMetadata metadata(int generation, String memberId) {
		return new ConsumerGroupMetadata("orders", generation, memberId, Optional.empty());
	}

	private static Map<String, Object> strategies(String... names) {
		return Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, String.join(",", names));
	}

	private ZoneAwareAssignor configured(Map<String, Object> settings) {
		Map<String, Object> registered = new HashMap<>(settings);
		registered.put(ZoneAwareAssignor.REGISTRY_CONFIG, this.assignors);
		ZoneAwareAssignor assignor = new ZoneAwareAssignor();
		assignor.configure(registered);
		return assignor;
	}

	private static MemberData data(String zone, Policy policy) {
		return new MemberData(zone, policy, -1, null);
	}

	private static Subscription subscription(MemberData data, List<TopicPartition> owned) {
		return new Subscription(List.of("events"), data.encode(), owned, 3,
				Optional.ofNullable((data.policy() == Policy.LOCALITY) ? data.zone() : null));
	}

	/**
	 * Partition p led by broker p % 3, its preferred replica, every broker in sync.
	 */
	private static Cluster cluster(int partitions) {
		List<PartitionInfo> infos = new ArrayList<>();
		for (int p = 0; p < partitions; p++) {
			Node[] replicas = preferring(p % 3);
			infos.add(new PartitionInfo("events", p, replicas[0], replicas, replicas));
		}
		return new Cluster("id", BROKERS, infos, Set.of(), Set.of());
	}

	/**
	 * Six partitions as {@link #cluster(int)} has them while broker 0 is down: its metadata
	 * carries no rack and broker 1 leads the partitions it prefers.
	 */
	private static Cluster withoutBroker0(String clusterId) {
		Node down = new Node(0, "", -1);
		List<PartitionInfo> infos = new ArrayList<>();
		for (int p = 0; p < 6; p++) {
			Node[] replicas = preferring(p % 3);
			Node[] known = Arrays.stream(replicas).map((node) -> (node.id() == 0) ? down : node).toArray(Node[]::new);
			Node[] inSync = Arrays.stream(replicas).filter((node) -> node.id() != 0).toArray(Node[]::new);
			infos.add(new PartitionInfo("events", p, (p % 3 == 0) ? BROKERS.get(1) : replicas[0], known, inSync));
		}
		return new Cluster(clusterId, List.of(BROKERS.get(1), BROKERS.get(2)), infos, Set.of(), Set.of());
	}

	/**
	 * Every broker, the given one first.
	 */
	private static Node[] preferring(int broker) {
		return new Node[] { BROKERS.get(broker), BROKERS.get((broker + 1) % 3), BROKERS.get((broker + 2) % 3) };
	}

	private static TopicPartition tp(int partition) {
		return new TopicPartition("events", partition);
	}

}
