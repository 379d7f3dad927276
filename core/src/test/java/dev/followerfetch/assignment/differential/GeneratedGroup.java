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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * A consumer group and its life, generated from a seed: the application's
 * {@code partition.assignment.strategy}, and phases, each the group as it rebalances
 * after a change (members leaving, joining, restarting or resubscribing, topics created,
 * deleted, grown or recreated smaller, leaders moving). Sizes are biased to small groups,
 * where most defects show, and reach 50 members over 20 topics of up to 64 partitions.
 * The brokers stand in three zones, one sometimes without a rack, with rotating replicas;
 * leaders are sometimes not the preferred replica, or offline, and in-sync sets empty.
 * Members read with LOCALITY, FRESHNESS or neither, in known or unknown zones; subscribe
 * to equal, differing, disjoint or no topics, some to topics the metadata lacks; send the
 * user data of their own assignor, of the bare Kafka strategy, none, random bytes or
 * hostile look-alikes of the zone-aware one; and, now and then, claim partitions that are
 * stale, owned by another member or out of range, or rejoin with a stale or lost
 * generation.
 *
 * @param seed the seed it was generated from
 * @param strategy the application's {@code partition.assignment.strategy}, as a string,
 * a list of class names or a list of classes; {@code null} for Kafka's default
 * @param phases the group's phases, in order
 * @author follower-fetch authors
 */
record GeneratedGroup(long seed, @Nullable Object strategy, List<Phase> phases) {

	static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	GeneratedGroup {
		phases = List.copyOf(phases);
	}

	/**
	 * The group a seed describes; the same seed gives the same group.
	 * @param seed the seed
	 * @return the group
	 */
	static GeneratedGroup of(long seed) {
		return new Generator(seed).group();
	}

	/**
	 * How much there is to read in the group, to pick the smallest of those that fail.
	 * @return members and partitions, summed over the phases
	 */
	int size() {
		return this.phases.stream()
			.mapToInt((phase) -> phase.members().size() + phase.metadata().topics().stream()
				.mapToInt((topic) -> phase.metadata().partitionsForTopic(topic).size())
				.sum())
			.sum();
	}

	/**
	 * The group as a reader of a failure needs it.
	 * @return one line for the strategy, then each phase
	 */
	String describe() {
		StringBuilder text = new StringBuilder("strategy ").append(describe(this.strategy));
		for (int p = 0; p < this.phases.size(); p++) {
			Phase phase = this.phases.get(p);
			Cluster metadata = phase.metadata();
			text.append("\nphase ").append(p + 1)
				.append((phase.changeAfter() > 0) ? ", changed after " + phase.changeAfter() + " rebalance(s)" : "")
				.append("\n  brokers ")
				.append(metadata.nodes().stream().map((node) -> node.id() + "@" + node.rack()).toList())
				.append(", cluster ").append(metadata.clusterResource().clusterId())
				.append("\n  topics ");
			new TreeSet<>(metadata.topics()).forEach((topic) -> text.append(topic).append('[')
				.append(metadata.partitionsForTopic(topic).size()).append("] "));
			metadata.topics().stream().sorted().forEach((topic) -> metadata.partitionsForTopic(topic).stream()
				.filter((info) -> info.leader() == null || info.leader().isEmpty() || info.inSyncReplicas().length == 0
						|| info.replicas().length == 0 || info.leader().id() != info.replicas()[0].id())
				.forEach((info) -> text.append("\n    ").append(info.topic()).append('-').append(info.partition())
					.append(": leader ").append((info.leader() != null) ? info.leader().id() : "null")
					.append(", replicas ").append(ids(info.replicas()))
					.append(", isr ").append(ids(info.inSyncReplicas()))));
			phase.members().forEach((member) -> text.append("\n  ").append(member.describe()));
			phase.disturbances().forEach((disturbance) -> text.append("\n  ").append(disturbance));
		}
		return text.toString();
	}

	private static String describe(@Nullable Object strategy) {
		if (strategy == null) {
			return "unset (Kafka's default)";
		}
		List<?> entries = (strategy instanceof List<?> list) ? list : List.of(strategy);
		return entries.stream()
			.map((entry) -> (entry instanceof Class<?> type) ? type.getSimpleName() + ".class"
					: entry.toString().replace("org.apache.kafka.clients.consumer.", ""))
			.collect(Collectors.joining(", ", (strategy instanceof List<?>) ? "[" : "'",
					(strategy instanceof List<?>) ? "]" : "'"));
	}

	private static List<Integer> ids(Node[] nodes) {
		return Arrays.stream(nodes).map(Node::id).toList();
	}

	/**
	 * The group as it rebalances in one phase.
	 *
	 * @param metadata the leader's metadata
	 * @param members the members, in the order they joined (the first leads)
	 * @param disturbances what members claim on entering the phase beyond what they own
	 * @param changeAfter after how many rebalances the next phase's change comes, 0 for
	 * once the group converged
	 */
	record Phase(Cluster metadata, List<Consumer> members, List<Disturbance> disturbances, int changeAfter) {

		Phase {
			members = List.copyOf(members);
			disturbances = List.copyOf(disturbances);
		}

	}

	/**
	 * One member, as its application configures it and as it joins in a phase.
	 *
	 * @param memberId its member id
	 * @param instanceId its {@code group.instance.id}, or {@code null}
	 * @param clientRack its {@code client.rack} setting: {@code null} when unset, empty
	 * for FRESHNESS
	 * @param zone the zone the starter detected for it, or {@code null}
	 * @param userData what it sends as user data
	 * @param topics the topics it subscribes to in this phase
	 * @param random the bytes it sends as {@link UserData#RANDOM} user data
	 * @param hostile what it sends as {@link UserData#HOSTILE} user data
	 */
	record Consumer(String memberId, @Nullable String instanceId, @Nullable String clientRack, @Nullable String zone,
			UserData userData, List<String> topics, byte[] random, Hostile hostile) {

		Consumer {
			topics = List.copyOf(topics);
		}

		String describe() {
			String rack = (this.clientRack == null) ? "" : " client.rack='" + this.clientRack + "'";
			String zone = (this.zone == null) ? "" : " zone=" + this.zone;
			String data = switch (this.userData) {
				case RANDOM -> "RANDOM " + HexFormat.of().formatHex(this.random);
				case HOSTILE -> "HOSTILE " + this.hostile;
				default -> this.userData.name();
			};
			return this.memberId + ((this.instanceId != null) ? " (" + this.instanceId + ")" : "") + rack + zone
					+ " topics " + this.topics + " user data " + data;
		}

	}

	/**
	 * What a member sends as its subscription's user data.
	 */
	enum UserData {

		/**
		 * What its own assignor sends: the zone-aware one with the starter, else the
		 * application's first strategy.
		 */
		OWN,

		/**
		 * What the Kafka strategy the zone-aware assignor wraps would send alone.
		 */
		KAFKA,

		/**
		 * None.
		 */
		NONE,

		/**
		 * Random bytes.
		 */
		RANDOM,

		/**
		 * Bytes laid out as the zone-aware assignor's, with a zone that is no rack.
		 */
		HOSTILE

	}

	/**
	 * User data laid out as the zone-aware assignor's (version, zone, policy, generation,
	 * no version 1 assignment, the wrapped strategy's user data), with a hostile zone.
	 *
	 * @param version the version it claims
	 * @param zone the zone it claims
	 * @param policy the policy byte (0 LOCALITY, 1 FRESHNESS)
	 * @param generation the generation it claims
	 */
	record Hostile(short version, String zone, byte policy, int generation) {

		@Override
		public String toString() {
			String shown = this.zone.chars()
				.limit(24)
				.mapToObj((c) -> (c < 0x20 || c > 0x7e) ? String.format("\\u%04x", c) : String.valueOf((char) c))
				.collect(Collectors.joining());
			return "v" + this.version + " zone \"" + shown + "\"" + ((this.zone.length() > 24) ? "... ("
					+ this.zone.length() + " chars)" : "") + " policy " + this.policy + " generation " + this.generation;
		}

	}

	/**
	 * What a member claims, or which generation it rejoins with, on entering a phase.
	 *
	 * @param memberId the member
	 * @param kind what it does
	 * @param partitions the partitions it claims besides its own ({@link Kind#CLAIMS})
	 * @param from the member whose partitions it claims too ({@link Kind#COPIES})
	 * @param generations how many generations behind it rejoins
	 * ({@link Kind#STALE_GENERATION})
	 */
	record Disturbance(String memberId, Kind kind, List<TopicPartition> partitions, @Nullable String from,
			int generations) {

		Disturbance {
			partitions = List.copyOf(partitions);
		}

		@Override
		public String toString() {
			return this.memberId + " " + switch (this.kind) {
				case CLAIMS -> "also claims " + this.partitions;
				case COPIES -> "also claims what " + this.from + " owns";
				case STALE_GENERATION -> "rejoins " + this.generations + " generation(s) behind";
				case LOST_GENERATION -> "lost its generation and partitions";
			};
		}

		enum Kind {

			CLAIMS, COPIES, STALE_GENERATION, LOST_GENERATION

		}

	}

	/**
	 * The generator: a working copy of the group that each phase changes, then snapshots.
	 */
	private static final class Generator {

		private final long seed;

		private final SplittableRandom random;

		private final List<Node> brokers = new ArrayList<>();

		private final @Nullable String clusterId;

		private final Map<String, List<Placement>> topics = new TreeMap<>();

		private final Set<String> gone = new TreeSet<>();

		private final List<Draft> members = new ArrayList<>();

		private final Style style;

		private int topicCount;

		private int memberCount;

		private int instanceCount;

		Generator(long seed) {
			this.seed = seed;
			this.random = new SplittableRandom(seed);
			int brokerCount = (this.random.nextInt(10) == 0) ? 1 + this.random.nextInt(2) : 3 + sized(0, 6);
			int firstId = this.random.nextBoolean() ? 0 : 1 + this.random.nextInt(200);
			int shift = this.random.nextInt(3);
			int rackless = (this.random.nextInt(7) == 0) ? this.random.nextInt(brokerCount) : -1;
			StringBuilder layout = new StringBuilder();
			for (int b = 0; b < brokerCount; b++) {
				String rack = (b == rackless) ? null : ZONES.get((b + shift) % 3);
				this.brokers.add(new Node(firstId + b, "broker-" + (firstId + b), 9092, rack));
				layout.append(firstId + b).append('=').append(rack).append(';');
			}
			// the assignor remembers brokers' racks per cluster id: one id per layout keeps every group's view its own
			this.clusterId = (this.random.nextInt(10) == 0) ? null : "differential-" + layout;
			this.style = Style.values()[this.random.nextInt(Style.values().length)];
		}

		GeneratedGroup group() {
			Object strategy = strategy();
			int initialTopics = sized(1, 20);
			for (int t = 0; t < initialTopics; t++) {
				createTopic();
			}
			int members = sized(1, 50);
			boolean statics = this.random.nextInt(4) == 0;
			for (int m = 0; m < members; m++) {
				this.members.add(newMember(statics && this.random.nextInt(5) != 0));
			}
			int phaseCount = this.random.nextBoolean() ? 1 : 1 + sized(1, 4);
			List<Phase> phases = new ArrayList<>();
			for (int p = 0; p < phaseCount; p++) {
				if (p > 0) {
					int changes = 1 + this.random.nextInt(3);
					for (int c = 0; c < changes; c++) {
						change(statics);
					}
				}
				int changeAfter = (p < phaseCount - 1 && this.random.nextInt(4) == 0) ? 1 + this.random.nextInt(2) : 0;
				phases.add(new Phase(cluster(), snapshot(), disturbances(), changeAfter));
			}
			return new GeneratedGroup(this.seed, strategy, phases);
		}

		private @Nullable Object strategy() {
			int pick = this.random.nextInt(100);
			List<Class<?>> classes = (pick < 25) ? List.of()
					: (pick < 37) ? List.of(RangeAssignor.class)
					: (pick < 49) ? List.of(RoundRobinAssignor.class)
					: (pick < 64) ? List.of(StickyAssignor.class)
					: (pick < 88) ? List.of(CooperativeStickyAssignor.class)
					: (pick < 96) ? List.of(RangeAssignor.class, CooperativeStickyAssignor.class)
					: List.of(CooperativeStickyAssignor.class, RangeAssignor.class);
			if (classes.isEmpty()) {
				return null;
			}
			int form = this.random.nextInt(20);
			if (form < 12) {
				String separator = (this.random.nextInt(4) == 0) ? " , " : ",";
				return classes.stream().map(Class::getName).collect(Collectors.joining(separator));
			}
			return (form < 17) ? classes : classes.stream().map(Class::getName).toList();
		}

		/**
		 * A number from {@code min} to {@code max}, small ones far more often.
		 */
		private int sized(int min, int max) {
			double u = this.random.nextDouble();
			return min + (int) Math.min(max - min, Math.floor(u * u * u * (max - min + 1)));
		}

		private void createTopic() {
			String topic = "t" + (++this.topicCount);
			this.topics.put(topic, layout((this.random.nextInt(3) == 0) ? sized(1, 64) : sized(1, 12)));
		}

		private List<Placement> layout(int partitions) {
			int replication = 1 + this.random.nextInt(Math.min(3, this.brokers.size()));
			int start = this.random.nextInt(this.brokers.size());
			List<Placement> placements = new ArrayList<>();
			for (int p = 0; p < partitions; p++) {
				int[] replicas = new int[replication];
				for (int r = 0; r < replication; r++) {
					replicas[r] = (start + p + r) % this.brokers.size();
				}
				placements.add(leadership(replicas));
			}
			return placements;
		}

		/**
		 * Who leads a partition and which replicas are in sync: mostly the preferred
		 * replica and all of them.
		 */
		private Placement leadership(int[] replicas) {
			int pick = this.random.nextInt(100);
			int[] isr = (pick < 88) ? replicas
					: (pick < 95) ? Arrays.copyOfRange(replicas, this.random.nextInt(replicas.length), replicas.length)
					: new int[0];
			int leader;
			if (isr.length == 0 || this.random.nextInt(25) == 0) {
				leader = this.random.nextBoolean() ? Placement.NULL_LEADER : Placement.NO_NODE_LEADER;
			}
			else {
				leader = (this.random.nextInt(10) == 0) ? isr[this.random.nextInt(isr.length)] : isr[0];
			}
			return new Placement(replicas, leader, isr);
		}

		private Draft newMember(boolean isStatic) {
			String memberId = "consumer-" + (++this.memberCount) + "-"
					+ HexFormat.of().toHexDigits(this.random.nextInt()).substring(0, 6);
			String instance = isStatic ? "instance-" + (++this.instanceCount) : null;
			Draft draft = new Draft(memberId, instance);
			String zone = (this.random.nextInt(12) == 0) ? List.of("az-d", "us-east-1z", "use1-az9").get(this.random.nextInt(3))
					: ZONES.get(this.random.nextInt(3));
			int placement = this.random.nextInt(100);
			if (placement < 45) {
				// LOCALITY; a properties file keeps a trailing blank, which Kafka trims from client.rack
				draft.clientRack = (this.random.nextInt(30) == 0) ? zone + " " : zone;
				draft.zone = this.random.nextBoolean() ? zone : null;
			}
			else if (placement < 80) {
				draft.clientRack = "";
				draft.zone = (this.random.nextInt(10) == 0) ? null : zone;
			}
			int data = this.random.nextInt(100);
			draft.userData = (data < 72) ? UserData.OWN : (data < 80) ? UserData.KAFKA : (data < 86) ? UserData.NONE
					: (data < 92) ? UserData.RANDOM : UserData.HOSTILE;
			subscribe(draft, this.members.isEmpty() ? null : this.members.get(0));
			return draft;
		}

		/**
		 * What a member subscribes to, by the group's style; a pattern subscriber's
		 * interest may name topics that do not exist yet, a pattern that matches nothing is
		 * an empty subscription, an explicit one may name a topic the metadata lacks.
		 */
		private void subscribe(Draft draft, @Nullable Draft first) {
			List<String> existing = new ArrayList<>(this.topics.keySet());
			draft.interest.clear();
			draft.pattern = this.random.nextInt(3) == 0;
			if (this.random.nextInt(12) == 0) {
				draft.pattern = true;
				draft.interest.add("nothing-matches");
				return;
			}
			switch (this.style) {
				case EQUAL -> {
					if (first != null && !first.interest.contains("nothing-matches")) {
						draft.interest.addAll(first.interest);
						draft.pattern = first.pattern;
					}
					else {
						draft.interest.addAll(existing.subList(0, 1 + this.random.nextInt(existing.size())));
					}
				}
				case DIFFERING -> existing.stream()
					.filter((topic) -> this.random.nextInt(2) == 0)
					.forEach(draft.interest::add);
				case DISJOINT -> draft.interest.add(existing.get(this.memberCount % existing.size()));
			}
			if (draft.interest.isEmpty()) {
				draft.interest.add(existing.get(this.random.nextInt(existing.size())));
			}
			if (draft.pattern && this.random.nextInt(3) == 0) {
				draft.interest.add("t" + (this.topicCount + 1));
			}
			if (!draft.pattern && this.random.nextInt(10) == 0) {
				draft.interest.add("missing-" + (1 + this.random.nextInt(2)));
			}
		}

		private void change(boolean statics) {
			int pick = this.random.nextInt(100);
			if (pick < 16 && this.members.size() > 1) {
				this.members.remove(this.random.nextInt(this.members.size()));
			}
			else if (pick < 32 && this.members.size() < 50) {
				this.members.add(newMember(statics && this.random.nextBoolean()));
			}
			else if (pick < 44) {
				// a restart: a new member id, the same group.instance.id for a static member, nothing owned
				int index = this.random.nextInt(this.members.size());
				Draft restarted = this.members.remove(index);
				Draft next = newMember(false);
				next.instance = restarted.instance;
				next.clientRack = restarted.clientRack;
				next.zone = restarted.zone;
				next.userData = restarted.userData;
				next.interest.clear();
				next.interest.addAll(restarted.interest);
				next.pattern = restarted.pattern;
				this.members.add(next);
			}
			else if (pick < 58) {
				Draft draft = this.members.get(this.random.nextInt(this.members.size()));
				subscribe(draft, (this.random.nextBoolean()) ? this.members.get(0) : null);
			}
			else if (pick < 68 && this.topicCount < 24) {
				createTopic();
				String created = "t" + this.topicCount;
				this.members.stream()
					.filter((draft) -> !draft.pattern && this.random.nextInt(3) == 0)
					.forEach((draft) -> draft.interest.add(created));
			}
			else if (pick < 76 && this.topics.size() > 1) {
				String deleted = List.copyOf(this.topics.keySet()).get(this.random.nextInt(this.topics.size()));
				this.topics.remove(deleted);
				this.gone.add(deleted);
			}
			else if (pick < 82) {
				String topic = List.copyOf(this.topics.keySet()).get(this.random.nextInt(this.topics.size()));
				List<Placement> grown = new ArrayList<>(this.topics.get(topic));
				grown.addAll(layout(1 + this.random.nextInt(8)));
				this.topics.put(topic, grown.subList(0, Math.min(64, grown.size())));
			}
			else if (pick < 90) {
				// deleted and created again with fewer partitions: what members own of it is stale
				String topic = List.copyOf(this.topics.keySet()).get(this.random.nextInt(this.topics.size()));
				int before = this.topics.get(topic).size();
				this.topics.put(topic, layout((before > 1) ? 1 + this.random.nextInt(before - 1) : 1));
			}
			else {
				this.topics.replaceAll((topic, placements) -> placements.stream()
					.map((placement) -> (this.random.nextInt(4) == 0) ? leadership(placement.replicas()) : placement)
					.toList());
			}
		}

		private List<Disturbance> disturbances() {
			List<Disturbance> disturbances = new ArrayList<>();
			if (this.random.nextInt(100) >= 35) {
				return disturbances;
			}
			int count = 1 + this.random.nextInt(2);
			for (int d = 0; d < count; d++) {
				Draft member = this.members.get(this.random.nextInt(this.members.size()));
				int pick = this.random.nextInt(100);
				if (pick < 55) {
					List<TopicPartition> claims = new ArrayList<>();
					int n = 1 + this.random.nextInt(3);
					for (int c = 0; c < n; c++) {
						claims.add(claim());
					}
					disturbances.add(new Disturbance(member.memberId, Disturbance.Kind.CLAIMS, claims, null, 0));
				}
				else if (pick < 72 && this.members.size() > 1) {
					Draft other = this.members.get(this.random.nextInt(this.members.size()));
					if (other != member) {
						disturbances.add(new Disturbance(member.memberId, Disturbance.Kind.COPIES, List.of(),
								other.memberId, 0));
					}
				}
				else if (pick < 88) {
					disturbances.add(new Disturbance(member.memberId, Disturbance.Kind.STALE_GENERATION, List.of(), null,
							1 + this.random.nextInt(3)));
				}
				else {
					disturbances.add(new Disturbance(member.memberId, Disturbance.Kind.LOST_GENERATION, List.of(), null, 0));
				}
			}
			return disturbances;
		}

		/**
		 * A partition a member may claim: one that exists (another member may own it),
		 * one past its topic's end or of a deleted topic (stale), or one far out of range.
		 */
		private TopicPartition claim() {
			List<String> existing = List.copyOf(this.topics.keySet());
			String topic = existing.get(this.random.nextInt(existing.size()));
			int count = this.topics.get(topic).size();
			int pick = this.random.nextInt(100);
			if (pick < 30) {
				return new TopicPartition(topic, this.random.nextInt(count));
			}
			if (pick < 50) {
				return new TopicPartition(topic, count + this.random.nextInt(3));
			}
			if (pick < 60) {
				String deleted = this.gone.isEmpty() ? "deleted-1" : List.copyOf(this.gone).get(this.random.nextInt(this.gone.size()));
				return new TopicPartition(deleted, this.random.nextInt(8));
			}
			int far = this.random.nextInt(100);
			int partition = (far < 20) ? -1 : (far < 30) ? Integer.MIN_VALUE : (far < 55) ? Integer.MAX_VALUE
					: (far < 70) ? Integer.MAX_VALUE - 2 : (far < 75) ? 100_000_000 : (far < 85) ? 1_000_000 : 65_536;
			return new TopicPartition(topic, partition);
		}

		private Cluster cluster() {
			List<PartitionInfo> infos = new ArrayList<>();
			this.topics.forEach((topic, placements) -> {
				for (int p = 0; p < placements.size(); p++) {
					Placement placement = placements.get(p);
					Node leader = switch (placement.leader()) {
						case Placement.NULL_LEADER -> null;
						case Placement.NO_NODE_LEADER -> Node.noNode();
						default -> this.brokers.get(placement.leader());
					};
					infos.add(new PartitionInfo(topic, p, leader, nodes(placement.replicas()), nodes(placement.isr())));
				}
			});
			return new Cluster(this.clusterId, this.brokers, infos, Set.of(), Set.of());
		}

		private Node[] nodes(int[] indexes) {
			return Arrays.stream(indexes).mapToObj(this.brokers::get).toArray(Node[]::new);
		}

		private List<Consumer> snapshot() {
			List<Consumer> consumers = new ArrayList<>();
			for (Draft draft : this.members) {
				List<String> topics = draft.interest.stream()
					.filter((topic) -> !draft.pattern || this.topics.containsKey(topic))
					.sorted()
					.toList();
				byte[] random = new byte[this.random.nextInt(48)];
				this.random.nextBytes(random);
				if (random.length >= 2 && this.random.nextBoolean()) {
					// looks like a version of the zone-aware assignor's user data
					random[0] = 0;
					random[1] = (byte) (1 + this.random.nextInt(2));
				}
				consumers.add(new Consumer(draft.memberId, draft.instance, draft.clientRack, draft.zone, draft.userData,
						topics, random, hostile()));
			}
			return consumers;
		}

		private Hostile hostile() {
			String zone = switch (this.random.nextInt(12)) {
				case 0 -> "x".repeat(129);
				case 1 -> "x".repeat(32_767);
				case 2 -> "az-a\n2026-01-01 00:00:00.000 ERROR forged log line";
				case 3 -> "az-a\u0000";
				case 4 -> "\u001b[31maz-b";
				case 5 -> "";
				case 6 -> "   ";
				case 7 -> " az-b";
				case 8 -> "az-a az-b";
				case 9 -> "az-c\u202e";
				case 10 -> "ζώνη-α";
				default -> "az-a\r\n";
			};
			short version = (short) ((this.random.nextInt(8) == 0) ? 1 : (this.random.nextInt(8) == 0) ? 0x7fff : 2);
			return new Hostile(version, zone, (byte) this.random.nextInt(2), this.random.nextInt(8) - 1);
		}

		/**
		 * How a group's members choose their topics.
		 */
		private enum Style {

			EQUAL, DIFFERING, DISJOINT

		}

		/**
		 * A member as the generator changes it.
		 */
		private static final class Draft {

			final String memberId;

			@Nullable String instance;

			@Nullable String clientRack;

			@Nullable String zone;

			UserData userData = UserData.OWN;

			final Set<String> interest = new LinkedHashSet<>();

			boolean pattern;

			Draft(String memberId, @Nullable String instance) {
				this.memberId = memberId;
				this.instance = instance;
			}

		}

		/**
		 * A partition's replicas, leader and in-sync replicas, as indexes of the brokers.
		 */
		private record Placement(int[] replicas, int leader, int[] isr) {

			static final int NULL_LEADER = -1;

			static final int NO_NODE_LEADER = -2;

		}

	}

}
