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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The assignor as Kafka's consumer drives it: configured from the consumer's settings,
 * its user data in the subscriptions, the consumer's metadata, the rebalance protocols.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignorTests {

	private static final List<Node> BROKERS = List.of(new Node(0, "localhost", 9092, "az-a"),
			new Node(1, "localhost", 9093, "az-b"), new Node(2, "localhost", 9094, "az-c"));

	private static final Cluster CLUSTER = cluster(6);

	@Test
	void aMemberWithAClientRackReadsWithLocalityInThatZone() {
		ZoneAwareAssignor assignor = configured(Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b"));
		assertThat(MemberData.decode(assignor.subscriptionUserData(Set.of("events"))))
			.hasValue(new MemberData("az-b", Policy.LOCALITY, -1, List.of()));
	}

	@Test
	void aMemberWithAnEmptyClientRackReadsWithFreshnessInTheZoneItIsGiven() {
		ZoneAwareAssignor assignor = configured(
				Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, "", ZoneAwareAssignor.ZONE_CONFIG, "az-c"));
		assertThat(MemberData.decode(assignor.subscriptionUserData(Set.of("events"))))
			.hasValue(new MemberData("az-c", Policy.FRESHNESS, -1, List.of()));
	}

	@Test
	void oneMemberPerZoneGetsThePartitionsLedInItsZone() {
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a", subscription(data("az-a", Policy.FRESHNESS), List.of()));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of()));
		subscriptions.put("member-c", subscription(data("az-c", Policy.FRESHNESS), List.of()));
		Map<String, Assignment> assignments = configured(Map.of()).assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(assignments.get("member-a").partitions()).containsExactly(tp(0), tp(3));
		assertThat(assignments.get("member-b").partitions()).containsExactly(tp(1), tp(4));
		assertThat(assignments.get("member-c").partitions()).containsExactly(tp(2), tp(5));
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
		assertThat(assignments.get("member-a").partitions()).containsExactly(tp(0), tp(3));
		assertThat(assignments.get("member-b").partitions()).containsExactly(tp(1), tp(4));
	}

	@Test
	void underTheCooperativeProtocolAPartitionThatChangesOwnerIsWithheldUntilTheNextRebalance() {
		Map<String, Subscription> subscriptions = new HashMap<>();
		// Kafka's range assignor gave member-a partitions 0-2 and member-b 3-5
		subscriptions.put("member-a", subscription(data("az-a", Policy.LOCALITY), List.of(tp(0), tp(1), tp(2))));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), List.of(tp(3), tp(4), tp(5))));
		subscriptions.put("member-c", subscription(data("az-c", Policy.LOCALITY), List.of()));
		ZoneAwareAssignor assignor = configured(Map.of());
		Map<String, Assignment> first = assignor.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(first.get("member-a").partitions()).containsExactly(tp(0));
		assertThat(first.get("member-b").partitions()).containsExactly(tp(4));
		assertThat(first.get("member-c").partitions()).isEmpty();
		assertNothingOwnedIsGivenToAnother(subscriptions, first);

		subscriptions.put("member-a", subscription(data("az-a", Policy.LOCALITY), first.get("member-a").partitions()));
		subscriptions.put("member-b", subscription(data("az-b", Policy.LOCALITY), first.get("member-b").partitions()));
		Map<String, Assignment> second = assignor.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(second.get("member-a").partitions()).containsExactly(tp(0), tp(3));
		assertThat(second.get("member-b").partitions()).containsExactly(tp(1), tp(4));
		assertThat(second.get("member-c").partitions()).containsExactly(tp(2), tp(5));
		assertNothingOwnedIsGivenToAnother(subscriptions, second);
	}

	@Test
	void underTheEagerProtocolTheLastAssignmentInTheUserDataKeepsPartitionsWhereMovingGainsNothing() {
		Cluster ledInAzC = cluster(4, 2);
		Map<String, Subscription> subscriptions = new HashMap<>();
		subscriptions.put("member-a",
				subscription(new MemberData("az-a", Policy.FRESHNESS, 7, List.of(tp(2), tp(3))), List.of()));
		subscriptions.put("member-b",
				subscription(new MemberData("az-b", Policy.FRESHNESS, 7, List.of(tp(0), tp(1))), List.of()));
		Map<String, Assignment> assignments = configured(Map.of()).assign(ledInAzC, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(assignments.get("member-a").partitions()).containsExactly(tp(2), tp(3));
		assertThat(assignments.get("member-b").partitions()).containsExactly(tp(0), tp(1));
	}

	@Test
	void theStrategyAfterTheAssignorDecidesTheBalance() {
		String own = ZoneAwareAssignor.class.getName();
		assertThat(balance(own + "," + RangeAssignor.class.getName())).isEqualTo(Balance.PER_TOPIC);
		assertThat(balance(own)).isEqualTo(Balance.PER_TOPIC);
		assertThat(balance(List.of(ZoneAwareAssignor.class, CooperativeStickyAssignor.class))).isEqualTo(Balance.TOTAL);
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
		assertThat(ZoneAwareAssignor.leaderships()).containsKey("leading-client");
		ZoneAwareAssignor.Leadership leadership = leader.leadership();
		assertThat(leadership.groupId()).isEqualTo("orders");
		assertThat(leadership.generation()).isEqualTo(12);
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
	void theSafetyNetForAFailingRuleGivesEveryPartitionOnceWithinOneOfEachOther() {
		List<ZoneAwareAssignment.Member> members = List.of(
				new ZoneAwareAssignment.Member("b", null, Policy.LOCALITY, Set.of("events"), Set.of()),
				new ZoneAwareAssignment.Member("a", null, Policy.LOCALITY, Set.of("events"), Set.of()));
		List<ZoneAwareAssignment.Partition> partitions = ZoneAwareAssignor.partitions(cluster(5), List.of("events"));
		assertThat(ZoneAwareAssignor.spread(members, partitions)).containsEntry("a", List.of(tp(0), tp(2), tp(4)))
			.containsEntry("b", List.of(tp(1), tp(3)));
	}

	private static Balance balance(Object strategies) {
		ZoneAwareAssignor assignor = configured(Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, strategies));
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

	private static ZoneAwareAssignor configured(Map<String, Object> settings) {
		ZoneAwareAssignor assignor = new ZoneAwareAssignor();
		assignor.configure(settings);
		return assignor;
	}

	private static MemberData data(String zone, Policy policy) {
		return new MemberData(zone, policy, -1, List.of());
	}

	private static Subscription subscription(MemberData data, List<TopicPartition> owned) {
		return new Subscription(List.of("events"), data.encode(), owned, 3,
				Optional.ofNullable((data.policy() == Policy.LOCALITY) ? data.zone() : null));
	}

	/**
	 * Partition p led by broker p % 3, every broker in sync.
	 */
	private static Cluster cluster(int partitions) {
		return cluster(partitions, -1);
	}

	private static Cluster cluster(int partitions, int leader) {
		List<PartitionInfo> infos = new ArrayList<>();
		Node[] all = BROKERS.toArray(Node[]::new);
		for (int p = 0; p < partitions; p++) {
			infos.add(new PartitionInfo("events", p, BROKERS.get((leader >= 0) ? leader : p % 3), all, all));
		}
		return new Cluster("id", BROKERS, infos, Set.of(), Set.of());
	}

	private static TopicPartition tp(int partition) {
		return new TopicPartition("events", partition);
	}

}
