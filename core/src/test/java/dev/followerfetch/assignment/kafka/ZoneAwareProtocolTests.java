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

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocolTest;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ConsumerProtocolAssignment;
import org.apache.kafka.common.message.ConsumerProtocolSubscription;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka's {@code ConsumerProtocolTest} (the subscription and assignment every member
 * sends, in each version of the consumer protocol), and the zone-aware assignor through
 * each version: version 0 of the subscription carries neither rack id nor owned
 * partitions, so a member's zone, and under the eager protocol what it was given, reach
 * the leader in its user data alone.
 *
 * @author follower-fetch authors
 */
@ExtendWith(KafkaSuite.class)
class ZoneAwareProtocolTests extends ConsumerProtocolTest {

	private static final Node[] BROKERS = { new Node(0, "localhost", 9092, "az-a"), new Node(1, "localhost", 9093, "az-b"),
			new Node(2, "localhost", 9094, "az-c") };

	/**
	 * Partition 0 led in az-a, partition 1 in az-b, each with a replica in every zone.
	 */
	private static final Cluster CLUSTER = new Cluster("protocol", List.of(BROKERS),
			List.of(partition(0, BROKERS[0]), partition(1, BROKERS[1])), Set.of(), Set.of());

	static IntStream subscriptionVersions() {
		return IntStream.rangeClosed(ConsumerProtocolSubscription.LOWEST_SUPPORTED_VERSION,
				ConsumerProtocolSubscription.HIGHEST_SUPPORTED_VERSION);
	}

	static IntStream assignmentVersions() {
		return IntStream.rangeClosed(ConsumerProtocolAssignment.LOWEST_SUPPORTED_VERSION,
				ConsumerProtocolAssignment.HIGHEST_SUPPORTED_VERSION);
	}

	@ParameterizedTest
	@MethodSource("subscriptionVersions")
	void eachMembersZoneReachesTheLeaderInEverySubscriptionVersion(int version) {
		// member-1 reads with freshness in az-b (no client.rack), member-2 with locality in az-a: sorted by member
		// id alone, member-1 would get partition 0
		ZoneAwareAssignor freshness = member("member-1", null, "az-b", CooperativeStickyAssignor.class);
		ZoneAwareAssignor locality = member("member-2", "az-a", "az-a", CooperativeStickyAssignor.class);
		Map<String, Subscription> subscriptions = Map.of("member-1", sent(freshness, null, (short) version),
				"member-2", sent(locality, "az-a", (short) version));
		Map<String, Assignment> assignments = member("leader", null, null, CooperativeStickyAssignor.class)
			.assign(CLUSTER, new GroupSubscription(subscriptions))
			.groupAssignment();
		assertThat(assignments.get("member-1").partitions()).containsExactly(new TopicPartition("events", 1));
		assertThat(assignments.get("member-2").partitions()).containsExactly(new TopicPartition("events", 0));
	}

	@ParameterizedTest
	@MethodSource("assignmentVersions")
	void aMemberKeepsWhatItWasGivenInEveryAssignmentVersion(int version) {
		// two members in az-c, which only their assignments tell apart, with Kafka's eager sticky assignor after the
		// zone-aware one: an eager member sends no owned partitions, and version 0 of the subscription has none
		ZoneAwareAssignor first = member("member-1", "az-c", "az-c", StickyAssignor.class);
		ZoneAwareAssignor second = member("member-2", "az-c", "az-c", StickyAssignor.class);
		ZoneAwareAssignor leader = member("leader", null, null, StickyAssignor.class);
		Map<String, Assignment> before = leader.assign(CLUSTER, group(first, second)).groupAssignment();
		// each is given the other's partitions, in this version of the protocol
		received(first, "member-1", before.get("member-2"), (short) version);
		received(second, "member-2", before.get("member-1"), (short) version);
		Map<String, Assignment> after = leader.assign(CLUSTER, group(first, second)).groupAssignment();
		assertThat(after.get("member-1").partitions()).isEqualTo(before.get("member-2").partitions()).isNotEmpty();
		assertThat(after.get("member-2").partitions()).isEqualTo(before.get("member-1").partitions()).isNotEmpty();
	}

	private static ZoneAwareAssignor member(String clientId, @Nullable String clientRack, @Nullable String zone,
			Class<? extends ConsumerPartitionAssignor> inner) {
		ZoneAwareAssignor assignor = new ZoneAwareAssignor();
		assignor.configure(StarterGroup.config(clientId, clientRack, zone, inner));
		return assignor;
	}

	/**
	 * The subscription as the leader reads it after the member sent it in this version.
	 */
	private static Subscription sent(ZoneAwareAssignor member, @Nullable String clientRack, short version) {
		ByteBuffer userData = member.subscriptionUserData(Set.of("events"));
		Subscription subscription = new Subscription(List.of("events"), userData, List.of(), -1,
				Optional.ofNullable(clientRack));
		return ConsumerProtocol.deserializeSubscription(ConsumerProtocol.serializeSubscription(subscription, version));
	}

	private static GroupSubscription group(ZoneAwareAssignor first, ZoneAwareAssignor second) {
		short version = ConsumerProtocolSubscription.LOWEST_SUPPORTED_VERSION;
		return new GroupSubscription(
				Map.of("member-1", sent(first, "az-c", version), "member-2", sent(second, "az-c", version)));
	}

	@SuppressWarnings("removal") // Kafka 4.3 deprecates the only constructor that carries a generation
	private static void received(ZoneAwareAssignor member, String memberId, Assignment assignment, short version) {
		member.onAssignment(ConsumerProtocol.deserializeAssignment(ConsumerProtocol.serializeAssignment(assignment, version)),
				new ConsumerGroupMetadata(StarterGroup.GROUP, 1, memberId, Optional.empty()));
	}

	private static PartitionInfo partition(int partition, Node leader) {
		Node[] replicas = { leader, BROKERS[(leader.id() + 1) % 3], BROKERS[(leader.id() + 2) % 3] };
		return new PartitionInfo("events", partition, leader, replicas, replicas);
	}

}
