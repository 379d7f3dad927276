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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.followerfetch.assignment.ZoneAwareAssignment;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.differential.Differential.Measured;
import dev.followerfetch.assignment.differential.GeneratedGroup.Consumer;
import dev.followerfetch.assignment.differential.GeneratedGroup.Disturbance;
import dev.followerfetch.assignment.differential.GeneratedGroup.Hostile;
import dev.followerfetch.assignment.differential.GeneratedGroup.Phase;
import dev.followerfetch.assignment.differential.GeneratedGroup.UserData;
import dev.followerfetch.assignment.differential.Rebalances.Wire;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The zone-aware assignor against Kafka's own assignors, on generated consumer groups
 * ({@link GeneratedGroup}, {@link Differential}): what Kafka's strategies and coordinator
 * guarantee a group, it keeps, whatever the members send. Every build runs
 * {@value #DEFAULT_GROUPS} groups on all cores; {@code -Dfollower-fetch.fuzz.groups=N}
 * runs N, {@code -Dfollower-fetch.fuzz.seed=S} runs the one group of seed S and prints
 * its rebalances. The named tests are defects the generated groups found.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignorDifferentialTests {

	static final int DEFAULT_GROUPS = 12_000;

	private static final String GROUPS_PROPERTY = "follower-fetch.fuzz.groups";

	private static final String SEED_PROPERTY = "follower-fetch.fuzz.seed";

	private static final String REPRODUCE = "./mvnw -pl core test -Dtest=ZoneAwareAssignorDifferentialTests"
			+ "#generatedGroupsGetFromTheZoneAwareAssignorWhatKafkasOwnAssignorsGuaranteeThem -D" + SEED_PROPERTY
			+ "=";

	private static final Map<Logger, Level> levels = new HashMap<>();

	private static final List<Node> BROKERS = List.of(new Node(0, "broker-0", 9092, "az-a"),
			new Node(1, "broker-1", 9092, "az-b"), new Node(2, "broker-2", 9092, "az-c"));

	/**
	 * The zone-aware assignor logs every rebalance it leads, and Kafka's sticky assignors
	 * what they make of odd input: thousands of groups would drown the build's output.
	 * The assignor's warnings still reach the appenders of its own logger (the core's
	 * tests watch it for a rule that failed), not the console.
	 */
	@BeforeAll
	static void quiet() {
		Logger assignor = (Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class);
		Logger kafka = (Logger) LoggerFactory.getLogger("org.apache.kafka");
		levels.put(assignor, assignor.getLevel());
		levels.put(kafka, kafka.getLevel());
		assignor.setLevel(Level.WARN);
		assignor.setAdditive(false);
		kafka.setLevel(Level.OFF);
	}

	@AfterAll
	static void restore() {
		levels.forEach(Logger::setLevel);
		((Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class)).setAdditive(true);
	}

	@Test
	void generatedGroupsGetFromTheZoneAwareAssignorWhatKafkasOwnAssignorsGuaranteeThem() throws InterruptedException {
		Long seed = Long.getLong(SEED_PROPERTY);
		long first = (seed != null) ? seed : 1;
		long last = (seed != null) ? seed : Integer.getInteger(GROUPS_PROPERTY, DEFAULT_GROUPS);
		long start = System.nanoTime();
		Campaign campaign = new Campaign(first, last, (seed != null) ? System.out : null).run();
		System.out.println(campaign.summary((System.nanoTime() - start) / 1e9));
		if (!campaign.failing().isEmpty()) {
			fail(campaign.report(REPRODUCE));
		}
	}

	/**
	 * Three members in three zones, one of them subscribed to nothing yet (a pattern that
	 * matches no topic), the other two to t1 (5 partitions) and t2 (2): every partition
	 * goes to a subscriber, as Kafka's sticky assignors assign them all on the same input.
	 * The leader reads the subscriptions in the order of a hash map of member ids, where
	 * the empty one, consumer-3, comes first: Kafka 4.1's sticky assignors then give it
	 * partitions, which it cannot take.
	 */
	@ParameterizedTest
	@ValueSource(classes = { CooperativeStickyAssignor.class, StickyAssignor.class })
	void aMemberSubscribedToNothingLeavesNoPartitionUnassignedThatKafkasOwnAssignorAssigns(Class<?> strategy) {
		Cluster metadata = cluster(Map.of("t1", 5, "t2", 2));
		Phase phase = new Phase(metadata, List.of(member("consumer-1", "az-a", List.of("t1", "t2")),
				member("consumer-2", "az-b", List.of("t1", "t2")), member("consumer-3", "az-c", List.of())),
				List.of(), 0);
		Rebalances group = new Rebalances(ConsumerSetup.withStarter(strategy.getName()), "nothing");
		Both both = Both.assign(group, phase);
		GroupAssignment kafka = both.kafka();
		GroupAssignment zoneAware = both.zoneAware();
		assertThat(Differential.assigned(kafka)).hasSize(7);
		assertThat(Differential.assigned(zoneAware)).as("what the zone-aware assignor assigns, %s",
				zoneAware.groupAssignment()).containsExactlyInAnyOrderElementsOf(Differential.assigned(kafka));
		assertThat(zoneAware.groupAssignment().get("consumer-3").partitions()).isEmpty();
		assertThat(Differential.run(new GeneratedGroup(0, strategy.getName(), List.of(phase)), null).findings())
			.isEmpty();
	}

	/**
	 * A member that claims to own a partition far out of range (a corrupt or forged
	 * subscription) costs the assignment no more than it costs Kafka's cooperative-sticky
	 * assignor, and changes nothing of which partitions of the metadata are assigned
	 * (Kafka's hands the claimed one back to its claimant; no partition the metadata lacks
	 * is the zone-aware assignor's to give).
	 */
	@ParameterizedTest
	@ValueSource(ints = { Integer.MAX_VALUE, Integer.MAX_VALUE - 2, 100_000_000, -1, Integer.MIN_VALUE })
	void aPartitionClaimedFarOutOfRangeCostsAndChangesNoMoreThanWithKafkasOwnAssignor(int partition) {
		Cluster metadata = cluster(Map.of("t1", 6));
		TopicPartition claimed = new TopicPartition("t1", partition);
		Phase phase = new Phase(metadata, List.of(member("consumer-1", "az-a", List.of("t1")),
				member("consumer-2", "az-b", List.of("t1")), member("consumer-3", "az-c", List.of("t1"))),
				List.of(new Disturbance("consumer-2", Disturbance.Kind.CLAIMS, List.of(claimed), null, 0)), 0);
		Rebalances group = new Rebalances(ConsumerSetup.withStarter(CooperativeStickyAssignor.class.getName()),
				"out-of-range");
		group.enter(phase);
		Wire wire = group.join();
		Measured<GroupAssignment> kafka = Differential.measure(() -> group.setup()
			.wrapped(group.leaderConfig())
			.assign(metadata, Differential.unwrapped(wire.received())));
		Measured<GroupAssignment> zoneAware = Differential
			.measure(() -> group.leader().assign(metadata, wire.received()));
		assertThat(kafka.failure()).isNull();
		assertThat(zoneAware.failure()).as("what assign() threw with %s claimed", claimed).isNull();
		assertThat(Differential.assigned(zoneAware.value()))
			.containsExactlyInAnyOrderElementsOf(Differential.existing(metadata, Differential.assigned(kafka.value())));
		assertThat(zoneAware.bytes()).as("bytes allocated, Kafka's assignor %d", kafka.bytes())
			.isLessThan(Math.max(Differential.HEAVY_FACTOR * kafka.bytes(), 32L << 20));
	}

	/**
	 * A member whose user data names a zone that is no rack (far too long, control
	 * characters inside, blanks, other scripts): the leader keeps no such zone for it, as
	 * the leader's log and the application's health would show it, and assigns what
	 * Kafka's assignor assigns on the same input.
	 */
	@ParameterizedTest
	@MethodSource("zonesThatAreNoRacks")
	void aZoneInUserDataThatIsNoRackIsNotKeptAndTheAssignmentIsKafkasOnTheSameInput(String zone) {
		Cluster metadata = cluster(Map.of("t1", 6));
		Consumer hostile = new Consumer("consumer-2", null, "az-b", "az-b", UserData.HOSTILE, List.of("t1"),
				new byte[0], new Hostile((short) 2, zone, (byte) 0, 3));
		Phase phase = new Phase(metadata, List.of(member("consumer-1", "az-a", List.of("t1")), hostile,
				member("consumer-3", "az-c", List.of("t1"))), List.of(), 0);
		Rebalances group = new Rebalances(ConsumerSetup.withStarter(CooperativeStickyAssignor.class.getName()),
				"hostile");
		Both both = Both.assign(group, phase);
		GroupAssignment kafka = both.kafka();
		GroupAssignment zoneAware = both.zoneAware();
		group.sync(both.wire(), zoneAware);
		assertThat(Differential.assigned(zoneAware)).containsExactlyInAnyOrderElementsOf(Differential.assigned(kafka));
		String kept = group.setup()
			.assignors()
			.leaderships()
			.get(group.leaderClientId())
			.members()
			.stream()
			.filter((member) -> member.id().equals("consumer-2"))
			.map(ZoneAwareAssignment.Member::zone)
			.filter(Objects::nonNull)
			.findFirst()
			.orElse(null);
		assertThat(kept == null || Differential.isRack(kept)).as("the zone the leader keeps for consumer-2: %s",
				(kept != null) ? Differential.quote(kept) : null).isTrue();
	}

	static Stream<String> zonesThatAreNoRacks() {
		return Stream.of("x".repeat(32_767), "x".repeat(129), "az-a\n2026-01-01 00:00:00.000 ERROR forged log line",
				"az-a\u0000b", "\u001b[31maz-b", "", "   ", "az-a az-b", "zone\u202eevil", "ζώνη-α");
	}

	private static Consumer member(String memberId, String rack, List<String> topics) {
		return new Consumer(memberId, null, rack, rack, UserData.OWN, topics, new byte[0],
				new Hostile((short) 2, rack, (byte) 0, -1));
	}

	/**
	 * Partition p of each topic led by broker p % 3, its preferred replica, every broker
	 * in sync.
	 */
	private static Cluster cluster(Map<String, Integer> topics) {
		List<PartitionInfo> infos = new ArrayList<>();
		new TreeMap<>(topics).forEach((topic, partitions) -> {
			for (int p = 0; p < partitions; p++) {
				Node[] replicas = { BROKERS.get(p % 3), BROKERS.get((p + 1) % 3), BROKERS.get((p + 2) % 3) };
				infos.add(new PartitionInfo(topic, p, replicas[0], replicas, replicas));
			}
		});
		return new Cluster("differential-named", BROKERS, infos, Set.of(), Set.of());
	}

	/**
	 * One join of a group, assigned by Kafka's wrapped strategy and by the zone-aware
	 * leader on the same wire input.
	 */
	private record Both(Wire wire, GroupAssignment kafka, GroupAssignment zoneAware) {

		static Both assign(Rebalances group, Phase phase) {
			group.enter(phase);
			Wire wire = group.join();
			Cluster metadata = group.metadata();
			GroupAssignment kafka = group.setup()
				.wrapped(group.leaderConfig())
				.assign(metadata, Differential.unwrapped(wire.received()));
			return new Both(wire, kafka, group.leader().assign(metadata, wire.received()));
		}

	}

}
