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
package dev.followerfetch.benchmark.assignment;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * One consumer group as its leader sees it in a rebalance: the cluster's metadata, the
 * leader's assignor and the subscriptions of the members, each built by the member's own
 * assignor configured as its consumer configures it. In an incremental case the members
 * own what the same assignor gave them in the group's previous rebalance, and got it
 * through {@code onAssignment}. The range family runs the eager protocol (Kafka's range
 * assignor supports no other, so a consumer that lists it never goes cooperative), in
 * which members report no owned partitions; the cooperative-sticky family runs the
 * cooperative one.
 *
 * @author follower-fetch authors
 */
final class AssignorGroup {

	static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	static final String GROUP_ID = "benchmark-group";

	private static final int NEXT_GENERATION = 1;

	private final Cluster cluster;

	private final ConsumerPartitionAssignor leader;

	private final GroupSubscription subscription;

	private final Map<String, Member> members;

	private final int partitions;

	private final List<ByteBuffer> userData = new ArrayList<>();

	private final List<Integer> positions = new ArrayList<>();

	private AssignorGroup(Cluster cluster, ConsumerPartitionAssignor leader, Map<String, Subscription> subscriptions,
			Map<String, Member> members) {
		this.cluster = cluster;
		this.leader = leader;
		this.subscription = new GroupSubscription(subscriptions);
		this.members = members;
		Set<String> topics = new HashSet<>();
		subscriptions.values().forEach((subscription) -> topics.addAll(subscription.topics()));
		this.partitions = topics.stream().mapToInt((topic) -> cluster.partitionsForTopic(topic).size()).sum();
		subscriptions.values().forEach((subscription) -> {
			ByteBuffer data = subscription.userData();
			if (data != null) {
				this.userData.add(data);
				this.positions.add(data.position());
			}
		});
	}

	/**
	 * The group of one case: {@code memberCount} members, as many in each zone (in an
	 * order unrelated to their ids), and {@code memberCount * partitionsToMemberRatio}
	 * partitions over {@code topicCount} topics (at least one per topic).
	 */
	static AssignorGroup of(AssignorBenchmark.AssignorType type, int memberCount, int partitionsToMemberRatio,
			int topicCount, AssignorBenchmark.SubscriptionModel model, AssignorBenchmark.Layout layout,
			AssignorBenchmark.Rebalance rebalance) {
		if (memberCount < 2 && rebalance != AssignorBenchmark.Rebalance.FIRST) {
			throw new IllegalArgumentException("A member can join or leave a group of at least two members");
		}
		List<String> topics = new ArrayList<>();
		for (int t = 0; t < topicCount; t++) {
			topics.add("topic-%04d".formatted(t));
		}
		Cluster cluster = cluster(topics, Math.max(1, memberCount * partitionsToMemberRatio / topicCount), layout);
		// as many members in each zone, in an order unrelated to their ids, as a consumer's member id is random
		List<Integer> zoneOf = new ArrayList<>();
		for (int i = 0; i < memberCount; i++) {
			zoneOf.add(i % ZONES.size());
		}
		Collections.shuffle(zoneOf, new Random(memberCount));
		int[] inZone = new int[ZONES.size()];
		List<Member> all = new ArrayList<>();
		for (int i = 0; i < memberCount; i++) {
			int zone = zoneOf.get(i);
			boolean locality = layout == AssignorBenchmark.Layout.RACKS
					|| (layout == AssignorBenchmark.Layout.THREE_ZONES && inZone[zone]++ % 2 == 0);
			all.add(new Member("member-%05d".formatted(i),
					(layout == AssignorBenchmark.Layout.NO_RACKS) ? null : ZONES.get(zone), locality,
					topicsOf(i, memberCount, topics, model)));
		}
		Map<String, ConsumerPartitionAssignor> assignors = new HashMap<>();
		all.forEach((member) -> assignors.put(member.id(), assignor(type, member)));
		ConsumerPartitionAssignor leader = assignors.get(all.get(0).id());

		Map<String, List<TopicPartition>> owned = new HashMap<>();
		if (rebalance != AssignorBenchmark.Rebalance.FIRST) {
			List<Member> before = (rebalance == AssignorBenchmark.Rebalance.MEMBER_JOINED)
					? all.subList(0, memberCount - 1) : all;
			GroupAssignment previous = leader.assign(cluster,
					new GroupSubscription(subscriptions(before, assignors, Map.of(), type.cooperative())));
			for (Member member : before) {
				Assignment assignment = previous.groupAssignment().get(member.id());
				assignors.get(member.id())
					.onAssignment(assignment,
							new ConsumerGroupMetadata(GROUP_ID, NEXT_GENERATION, member.id(), Optional.empty()));
				owned.put(member.id(), assignment.partitions());
			}
		}
		List<Member> now = (rebalance == AssignorBenchmark.Rebalance.MEMBER_LEFT) ? all.subList(0, memberCount - 1)
				: all;
		Map<String, Member> byId = new HashMap<>();
		now.forEach((member) -> byId.put(member.id(), member));
		Map<String, Subscription> subscriptions = subscriptions(now, assignors, owned, type.cooperative());
		return new AssignorGroup(cluster, leader, subscriptions, byId);
	}

	/**
	 * What each member sends: a member that owns partitions had the previous generation,
	 * and reports them under the cooperative protocol only.
	 */
	private static Map<String, Subscription> subscriptions(List<Member> members,
			Map<String, ConsumerPartitionAssignor> assignors, Map<String, List<TopicPartition>> owned,
			boolean cooperative) {
		Map<String, Subscription> subscriptions = new HashMap<>();
		for (Member member : members) {
			ByteBuffer userData = assignors.get(member.id()).subscriptionUserData(new HashSet<>(member.topics()));
			List<TopicPartition> ownedNow = owned.get(member.id());
			subscriptions.put(member.id(),
					new Subscription(member.topics(), userData,
							(ownedNow != null && cooperative) ? ownedNow : List.of(),
							(ownedNow != null) ? NEXT_GENERATION : -1,
							member.locality() ? Optional.ofNullable(member.zone()) : Optional.empty()));
		}
		return subscriptions;
	}

	/**
	 * The member's assignor as its consumer creates it: Kafka's own unconfigured, the
	 * zone-aware one configured with the consumer's settings.
	 */
	private static ConsumerPartitionAssignor assignor(AssignorBenchmark.AssignorType type, Member member) {
		if (!type.zoneAware()) {
			return (type.inner() == RangeAssignor.class) ? new RangeAssignor() : new CooperativeStickyAssignor();
		}
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
				ZoneAwareAssignor.class.getName() + "," + type.inner().getName());
		config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP_ID);
		config.put(ConsumerConfig.CLIENT_ID_CONFIG, "consumer-" + GROUP_ID + "-" + member.id());
		config.put(ConsumerConfig.CLIENT_RACK_CONFIG, member.locality() ? member.zone() : "");
		if (!member.locality() && member.zone() != null) {
			config.put(ZoneAwareAssignor.ZONE_CONFIG, member.zone());
		}
		ZoneAwareAssignor assignor = new ZoneAwareAssignor();
		assignor.configure(config);
		return assignor;
	}

	/**
	 * Every topic to every member, or (heterogeneous) topics {@code i} and {@code i + 1}
	 * to member {@code i}, and, when there are more topics than members to read them, the
	 * unread rest to every member: Kafka's heterogeneous model.
	 */
	private static List<String> topicsOf(int member, int memberCount, List<String> topics,
			AssignorBenchmark.SubscriptionModel model) {
		if (model == AssignorBenchmark.SubscriptionModel.HOMOGENEOUS) {
			return topics;
		}
		Set<String> read = new LinkedHashSet<>();
		read.add(topics.get(member % topics.size()));
		read.add(topics.get((member + 1) % topics.size()));
		for (int t = memberCount + 1; t < topics.size(); t++) {
			read.add(topics.get(t));
		}
		return List.copyOf(read);
	}

	/**
	 * One broker per zone. RF=2 for Kafka's layouts (partition {@code p} of every topic
	 * on the brokers {@code p} and {@code p + 1}, led by the first), RF=3 with the leaders
	 * of each topic starting one zone further for {@link AssignorBenchmark.Layout#THREE_ZONES}.
	 */
	private static Cluster cluster(List<String> topics, int partitionsPerTopic, AssignorBenchmark.Layout layout) {
		List<Node> brokers = new ArrayList<>();
		for (int b = 0; b < ZONES.size(); b++) {
			brokers.add(new Node(b, "broker-" + b, 9092, ZONES.get(b)));
		}
		boolean threeZones = layout == AssignorBenchmark.Layout.THREE_ZONES;
		int replicationFactor = threeZones ? 3 : 2;
		List<PartitionInfo> infos = new ArrayList<>();
		for (int t = 0; t < topics.size(); t++) {
			for (int p = 0; p < partitionsPerTopic; p++) {
				int first = threeZones ? (t + p) : p;
				Node[] replicas = new Node[replicationFactor];
				for (int r = 0; r < replicationFactor; r++) {
					replicas[r] = brokers.get((first + r) % brokers.size());
				}
				infos.add(new PartitionInfo(topics.get(t), p, replicas[0], replicas, replicas.clone()));
			}
		}
		return new Cluster("benchmark-cluster", brokers, infos, Set.of(), Set.of());
	}

	Cluster cluster() {
		return this.cluster;
	}

	ConsumerPartitionAssignor leader() {
		return this.leader;
	}

	GroupSubscription subscription() {
		return this.subscription;
	}

	/**
	 * Put every user data buffer back where its member left it, for an assignor that
	 * reads it without duplicating: each call then sees what the first one saw.
	 */
	void rewind() {
		for (int i = 0; i < this.userData.size(); i++) {
			this.userData.get(i).position(this.positions.get(i));
		}
	}

	GroupAssignment assign() {
		rewind();
		return this.leader.assign(this.cluster, this.subscription);
	}

	/**
	 * What an assignment achieves, checked: no partition twice, none to a member that
	 * does not subscribe to its topic or is not in the group.
	 * @param assignment the leader's assignment
	 * @return its leader-zone share and the partitions it leaves unassigned
	 */
	Outcome outcome(GroupAssignment assignment) {
		Set<TopicPartition> seen = new HashSet<>();
		int inLeaderZone = 0;
		for (Map.Entry<String, Assignment> entry : assignment.groupAssignment().entrySet()) {
			Member member = this.members.get(entry.getKey());
			if (member == null) {
				throw new IllegalStateException("Assigned to " + entry.getKey() + ", not a member of the group");
			}
			for (TopicPartition tp : entry.getValue().partitions()) {
				if (!seen.add(tp)) {
					throw new IllegalStateException(tp + " assigned twice");
				}
				if (!member.topics().contains(tp.topic())) {
					throw new IllegalStateException(tp + " assigned to " + member.id() + ", not subscribed to it");
				}
				Node leader = this.cluster.leaderFor(tp);
				if (member.zone() != null && leader != null && member.zone().equals(leader.rack())) {
					inLeaderZone++;
				}
			}
		}
		boolean zoned = this.members.values().stream().anyMatch((member) -> member.zone() != null);
		return new Outcome(this.partitions, seen.size(), inLeaderZone, zoned);
	}

	/**
	 * A member of the group.
	 *
	 * @param id its member id
	 * @param zone the zone it runs in, or {@code null} (no rack)
	 * @param locality whether its {@code client.rack} is set (LOCALITY), else its zone is
	 * {@code follower.fetch.zone} (FRESHNESS)
	 * @param topics its subscription
	 */
	record Member(String id, @Nullable String zone, boolean locality, List<String> topics) {

	}

	/**
	 * What one assignment achieves.
	 *
	 * @param partitions the partitions of the subscribed topics
	 * @param assigned those the assignment hands out now (the cooperative protocol
	 * withholds those that change owner until their owner revokes them)
	 * @param inLeaderZone those handed to a member in the zone of their leader
	 * @param zoned whether any member has a zone
	 */
	record Outcome(int partitions, int assigned, int inLeaderZone, boolean zoned) {

		/**
		 * The leader-zone share of what is handed out.
		 * @return between 0 and 1, NaN when no member has a zone
		 */
		double share() {
			return (this.zoned && this.assigned > 0) ? this.inLeaderZone / (double) this.assigned : Double.NaN;
		}

		int pending() {
			return this.partitions - this.assigned;
		}

		@Override
		public String toString() {
			return "leader-zone share %s of %,d partitions handed out, %,d pending".formatted(
					Double.isNaN(share()) ? "n/a (no member has a zone)" : "%.4f".formatted(share()), this.assigned,
					pending());
		}

	}

}
