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
package dev.followerfetch.observation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.management.MBeanServerFactory;

import dev.followerfetch.Policy;
import dev.followerfetch.observation.ClientMetrics.NodeTotal;
import dev.followerfetch.observation.ClusterView.Placement;
import dev.followerfetch.observation.ClusterView.Selector;
import dev.followerfetch.observation.ConsumerMetricsReader.JmxConsumers;
import dev.followerfetch.observation.ReadLocalityJudge.Cluster;
import dev.followerfetch.observation.ReadLocalityJudge.Condition;
import dev.followerfetch.observation.ReadLocalityJudge.Grace;
import dev.followerfetch.observation.ReadLocalityJudge.Judged;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The judging of read locality from facts alone, without Kafka: brokers 0, 1 and 2 in
 * az-a, az-b and az-c, each leading one partition of {@code t} replicated to all three,
 * and an application in az-b.
 *
 * @author follower-fetch authors
 */
class ReadLocalityJudgeTests {

	private static final TopicPartition T0 = new TopicPartition("t", 0);

	private static final TopicPartition T1 = new TopicPartition("t", 1);

	private static final TopicPartition T2 = new TopicPartition("t", 2);

	private static final Selector RACK_AWARE = new Selector(
			"org.apache.kafka.common.replica.RackAwareReplicaSelector", true);

	private static final ClusterView VIEW = view(RACK_AWARE, Set.of(0, 1, 2));

	private final ReadLocalityJudge judge = new ReadLocalityJudge(20);

	@Test
	void aConsumerNoSourceAccountsForReadingLeadersAcrossZonesIsUncoveredWithNoClientRack() {
		Judged judged = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, leaders()), VIEW, true);
		assertThat(judged.summary().uncoveredPartitions()).containsExactly("t-0", "t-2");
		assertThat(judged.summary().fallbackPartitions()).isEmpty();
		assertThat(judged.summary().details()).containsEntry("clientRack", "none");
		assertThat(state(judged)).isEqualTo(FollowerFetchState.UNCOVERED);
	}

	@Test
	void aLocalityListenerReadingAcrossZonesIsAFallbackNotUncovered() {
		Judged judged = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, leaders()), VIEW, true);
		assertThat(judged.summary().fallbackPartitions()).containsExactly("t-0", "t-2");
		assertThat(judged.summary().uncoveredPartitions()).isEmpty();
		assertThat(judged.summary().details()).doesNotContainKey("clientRack");
		assertThat(state(judged)).isEqualTo(FollowerFetchState.FALLBACK);
	}

	@Test
	void aDeclaredFreshnessConsumerReadingLeadersIsNeitherFallbackNorUncovered() {
		Judged judged = judge(subject(ConsumerKind.OTHER, Policy.FRESHNESS, true, leaders()), VIEW, true);
		assertThat(judged.summary().uncoveredPartitions()).isEmpty();
		assertThat(judged.summary().crossZonePartitions()).isEqualTo(2);
		assertThat(state(judged)).isEqualTo(FollowerFetchState.ACTIVE);
	}

	@Test
	void crossZoneReadsWithinTheGraceAreNotUncovered() {
		Judged judged = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, leaders()), VIEW, false);
		assertThat(judged.summary().uncoveredPartitions()).isEmpty();
		assertThat(state(judged)).isEqualTo(FollowerFetchState.ACTIVE);
	}

	@Test
	void aConsumerReadingFromInZoneFollowersHasThatRackAndIsActive() {
		Map<TopicPartition, Integer> replicas = Map.of(T0, 1, T1, -1, T2, 1);
		Judged judged = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, replicas), VIEW, true);
		assertThat(judged.summary().zoneLocalPartitions()).isEqualTo(3);
		assertThat(judged.summary().details()).containsEntry("clientRack", "az-b");
		assertThat(state(judged)).isEqualTo(FollowerFetchState.ACTIVE);
	}

	@Test
	void aConsumerReadingFollowersOfAnotherZoneHasThatZonesRackAndIsUncovered() {
		Map<TopicPartition, Integer> replicas = Map.of(T0, -1, T1, 0, T2, 0);
		Judged judged = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, replicas), VIEW, true);
		assertThat(judged.summary().details()).containsEntry("clientRack", "az-a");
		assertThat(judged.summary().uncoveredPartitions()).containsExactly("t-0", "t-1", "t-2");
	}

	@Test
	void aConsumerReadingOnlyTheLeaderOfItsOwnZoneHasAnUnknownRack() {
		assertThat(ReadLocalityJudge.inferClientRack(Map.of(T1, -1), Set.of(T1), VIEW)).isEqualTo("unknown");
	}

	@Test
	void withoutRackAwareSelectorsNoRackIsInferred() {
		ClusterView view = view(new Selector(null, false), Set.of(0, 1, 2));
		assertThat(ReadLocalityJudge.inferClientRack(leaders(), leaders().keySet(), view)).isEqualTo("unknown");
		Judged judged = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, leaders()), view, true);
		assertThat(ReadLocalityJudge.state("az-b", List.of(new Cluster(view, List.of(judged))), Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.SELECTOR_DISABLED);
	}

	@Test
	void aRackNoBrokerHasIsReportedBeforeUncoveredConsumers() {
		Judged judged = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, leaders()), VIEW, true);
		assertThat(ReadLocalityJudge.state("az-x", List.of(new Cluster(VIEW, List.of(judged))), Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.RACK_MISMATCH);
	}

	@Test
	void anApplicationWhoseConsumersAreAllFreshnessIsNotDegradedByItsRackOrTheSelectors() {
		Judged freshness = judge(subject(ConsumerKind.LISTENER, Policy.FRESHNESS, true, leaders()), VIEW, true);
		ClusterView leaderSelectors = view(new Selector(null, false), Set.of(0, 1, 2));
		Judged onLeaderSelectors = judge(subject(ConsumerKind.LISTENER, Policy.FRESHNESS, true, leaders()),
				leaderSelectors, true);
		assertThat(ReadLocalityJudge.state(null, List.of(new Cluster(VIEW, List.of(freshness))), Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.ACTIVE);
		assertThat(ReadLocalityJudge.state("az-x", List.of(new Cluster(VIEW, List.of(freshness))), Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.ACTIVE);
		assertThat(ReadLocalityJudge.state("az-b", List.of(new Cluster(leaderSelectors, List.of(onLeaderSelectors))),
				Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.ACTIVE);
	}

	@Test
	void oneLocalityConsumerAmongFreshnessOnesMakesTheRackMatter() {
		Judged freshness = judge(subject(ConsumerKind.LISTENER, Policy.FRESHNESS, true, leaders()), VIEW, true);
		Judged locality = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of()), VIEW, true);
		assertThat(ReadLocalityJudge.state(null, List.of(new Cluster(VIEW, List.of(freshness, locality))),
				Policy.FRESHNESS))
			.isEqualTo(FollowerFetchState.NO_RACK);
	}

	@Test
	void withoutAnyConsumerYetTheDefaultPolicyDecidesWhetherTheRackMatters() {
		List<Cluster> noConsumer = List.of(new Cluster(VIEW, List.of()));
		assertThat(ReadLocalityJudge.state(null, noConsumer, Policy.LOCALITY)).isEqualTo(FollowerFetchState.NO_RACK);
		assertThat(ReadLocalityJudge.state("az-x", noConsumer, Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.RACK_MISMATCH);
		assertThat(ReadLocalityJudge.state(null, noConsumer, Policy.FRESHNESS)).isEqualTo(FollowerFetchState.ACTIVE);
		assertThat(ReadLocalityJudge.readsWithLocality(List.of(), Policy.FRESHNESS)).isFalse();
		assertThat(ReadLocalityJudge.readsWithLocality(List.of(Policy.FRESHNESS, Policy.LOCALITY), Policy.FRESHNESS))
			.isTrue();
	}

	@Test
	void aSecondClusterWithoutThisZoneGivesItsConsumerPlacementGapsNotARackMismatch() {
		ClusterView withoutAzB = new ClusterView(Map.of(0, "az-a", 2, "az-c"), Map.of(0, RACK_AWARE, 2, RACK_AWARE),
				null, Map.of(T0, new Placement(0, List.of(0, 2), Set.of(0, 2))), Map.of());
		Judged here = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 1, T1, -1, T2, 1)), VIEW,
				true);
		Judged there = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, -1)), withoutAzB, true);
		assertThat(there.summary().placementGaps()).containsExactly("t-0");
		assertThat(ReadLocalityJudge.state("az-b",
				List.of(new Cluster(VIEW, List.of(here)), new Cluster(withoutAzB, List.of(there))), Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.PARTIAL);
	}

	@Test
	void theRackOfAClusterReadOnlyWithFreshnessDoesNotMatchItForTheLocalityConsumersOfAnother() {
		ClusterView withoutAzB = new ClusterView(Map.of(0, "az-a", 2, "az-c"), Map.of(0, RACK_AWARE, 2, RACK_AWARE),
				null, Map.of(T0, new Placement(0, List.of(0, 2), Set.of(0, 2))), Map.of());
		Judged freshness = judge(subject(ConsumerKind.LISTENER, Policy.FRESHNESS, true, leaders()), VIEW, true);
		Judged locality = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, -1)), withoutAzB,
				true);
		assertThat(ReadLocalityJudge.state("az-b",
				List.of(new Cluster(VIEW, List.of(freshness)), new Cluster(withoutAzB, List.of(locality))),
				Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.RACK_MISMATCH);
	}

	@Test
	void aClusterReadOnlyWithFreshnessMayRunTheDefaultSelector() {
		ClusterView leaderSelectors = view(new Selector(null, false), Set.of(0, 1, 2));
		Judged locality = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 1, T1, -1, T2, 1)),
				VIEW, true);
		Judged freshness = judge(subject(ConsumerKind.LISTENER, Policy.FRESHNESS, true, leaders()), leaderSelectors,
				true);
		assertThat(ReadLocalityJudge.state("az-b",
				List.of(new Cluster(VIEW, List.of(locality)), new Cluster(leaderSelectors, List.of(freshness))),
				Policy.LOCALITY))
			.isEqualTo(FollowerFetchState.ACTIVE);
	}

	@Test
	void partitionsWhoseInZoneReplicaThisApplicationCannotReachAreUnreachableOnceTheirOwnGraceIsOver() {
		ClusterView azBSilent = view(RACK_AWARE, Set.of(0, 1, 2), Set.of(1));
		Map<TopicPartition, Integer> inZone = Map.of(T0, 1, T1, -1, T2, 1);
		Subject analytics = subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, inZone);
		Judged beyond = judge(analytics, azBSilent, (condition, tp) -> condition == Condition.UNREACHABLE);
		assertThat(beyond.summary().unreachablePartitions()).containsExactly("t-0", "t-1", "t-2");
		assertThat(state(beyond)).isEqualTo(FollowerFetchState.UNREACHABLE);
		Judged otherGraceOver = judge(analytics, azBSilent, (condition, tp) -> condition != Condition.UNREACHABLE);
		assertThat(otherGraceOver.summary().unreachablePartitions()).isEmpty();
		assertThat(state(otherGraceOver)).isEqualTo(FollowerFetchState.ACTIVE);
	}

	@Test
	void aConsumerSentBackAndForthBetweenAnUnreachableFollowerAndItsLeaderIsUnreachable() {
		Judged clearedAfterAFailedFetch = judge(
				subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, -1, T2, -1)),
				view(RACK_AWARE, Set.of(0, 1, 2), Set.of(1)), true);
		assertThat(clearedAfterAFailedFetch.summary().unreachablePartitions()).containsExactly("t-0", "t-2");
	}

	@Test
	void withTwoBrokersInTheZoneOnlyTheOneTheConsumerIsSentToOrBothMakeAPartitionUnreachable() {
		ClusterView twoInAzB = new ClusterView(Map.of(0, "az-a", 1, "az-b", 3, "az-b"),
				Map.of(0, RACK_AWARE, 1, RACK_AWARE, 3, RACK_AWARE), null,
				Map.of(T0, new Placement(0, List.of(0, 1, 3), Set.of(0, 1, 3))), Map.of(), Map.of(1, "no answer"));
		assertThat(judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 3)), twoInAzB, true)
			.summary()
			.unreachablePartitions()).isEmpty();
		assertThat(judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 1)), twoInAzB, true)
			.summary()
			.unreachablePartitions()).containsExactly("t-0");
	}

	@Test
	void anUnreachableBrokerOfAnotherZoneOrOutOfTheIsrOrReadByFreshnessOrUnconfiguredConsumersIsNoUnreachablePartition() {
		Judged otherZone = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 1, T1, -1, T2, 1)),
				view(RACK_AWARE, Set.of(0, 1, 2), Set.of(0, 2)), true);
		assertThat(otherZone.summary().unreachablePartitions()).isEmpty();
		Judged outOfIsr = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, -1)),
				view(RACK_AWARE, Set.of(0, 2), Set.of(1)), true);
		assertThat(outOfIsr.summary().unreachablePartitions()).isEmpty();
		Judged freshness = judge(subject(ConsumerKind.LISTENER, Policy.FRESHNESS, true, leaders()),
				view(RACK_AWARE, Set.of(0, 1, 2), Set.of(1)), true);
		assertThat(freshness.summary().unreachablePartitions()).isEmpty();
		Judged unconfigured = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, leaders()),
				view(RACK_AWARE, Set.of(0, 1, 2), Set.of(1)), true);
		assertThat(unconfigured.summary().unreachablePartitions()).isEmpty();
	}

	@Test
	void unreachableComesBeforeLaggingAndNoRackIsInferredWhileABrokerIsUnreachable() {
		ClusterView t0OutOfSyncInZone = view(RACK_AWARE, Set.of(0, 2));
		Judged lagging = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 1, T1, -1, T2, 1)),
				t0OutOfSyncInZone, true);
		Judged unreachable = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T1, -1)),
				view(RACK_AWARE, Set.of(0, 1, 2), Set.of(1)), true);
		assertThat(state(lagging, unreachable)).isEqualTo(FollowerFetchState.UNREACHABLE);
		Judged other = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, Map.of(T0, 1, T1, -1, T2, 1)),
				view(RACK_AWARE, Set.of(0, 1, 2), Set.of(2)), true);
		assertThat(other.summary().details()).containsEntry(ReadLocalityJudge.CLIENT_RACK, "unknown");
	}

	@Test
	void laggingComesBeforeFallbackWhichComesBeforeUncoveredWhichComesBeforePartial() {
		Judged uncovered = judge(subject(ConsumerKind.OTHER, Policy.LOCALITY, false, leaders()), VIEW, true);
		Judged fallback = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, leaders()), VIEW, true);
		ClusterView t0OutOfSyncInZone = view(RACK_AWARE, Set.of(0, 2));
		Judged lagging = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 1, T1, -1, T2, 1)),
				t0OutOfSyncInZone, true);
		Judged gap = judge(subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, -1, T1, -1, T2, 1)),
				t0OutOfSyncInZone, true);
		assertThat(lagging.summary().laggingPartitions()).containsExactly("t-0");
		assertThat(gap.summary().placementGaps()).containsExactly("t-0");
		assertThat(gap.summary().fallbackPartitions()).isEmpty();
		assertThat(state(lagging, fallback, uncovered, gap)).isEqualTo(FollowerFetchState.LAGGING);
		assertThat(state(fallback, uncovered, gap)).isEqualTo(FollowerFetchState.FALLBACK);
		assertThat(state(uncovered, gap)).isEqualTo(FollowerFetchState.UNCOVERED);
	}

	@Test
	void bytesReadFromJmxAreCountedOnceAndAgainAfterTheClientRestarts() {
		ZoneBytes<String> bytes = new ZoneBytes<>();
		assertThat(bytes.count("other:x", List.of(client(1000, 1L)), VIEW, "az-b").local()).isEqualTo(1000);
		assertThat(bytes.count("other:x", List.of(client(1500, 1L)), VIEW, "az-b").local()).isEqualTo(1500);
		assertThat(bytes.count("other:x", List.of(client(1500, 1L)), VIEW, "az-b").local()).isEqualTo(1500);
		assertThat(bytes.count("other:x", List.of(client(2000, 2L)), VIEW, "az-b").local()).isEqualTo(3500);
		assertThat(bytes.count("other:x", List.of(client(100, null)), VIEW, "az-b").local()).isEqualTo(3600);
		assertThat(bytes.count("other:x", List.of(client(50, null)), VIEW, "az-b").local()).isEqualTo(3650);
	}

	@Test
	void whenJmxCannotBeReadTheProblemsSaySo() {
		ConsumerMetricsReader reader = new ConsumerMetricsReader(() -> {
			throw new SecurityException("no MBean server for you");
		});
		List<Problem> problems = new ArrayList<>();
		assertThat(others(reader).find(List.of(), problems)).isEmpty();
		assertThat(problems).singleElement()
			.extracting(Problem::message)
			.asString()
			.startsWith("consumer metrics cannot be read from JMX")
			.endsWith("consumers the application builds itself are not observed");
	}

	@Test
	void whenTheKnownConsumersAreNotInJmxTheProblemsSaySoOnce() {
		ConsumerMetricsReader reader = new ConsumerMetricsReader(MBeanServerFactory::newMBeanServer);
		JmxConsumers empty = reader.fromJmx(Set.of());
		assertThat(empty.clients()).isEmpty();
		List<Problem> problems = new ArrayList<>();
		Subject known = subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, leaders());
		others(reader).find(List.of(known, known), problems);
		assertThat(problems).extracting(Problem::kind).containsExactly(Problem.Kind.NOT_IN_JMX);
	}

	private static OtherConsumers others(ConsumerMetricsReader reader) {
		return new OtherConsumers(reader, List::of,
				(clientId) -> new ConsumerPolicy(ConsumerKind.OTHER, clientId, Policy.LOCALITY, Origin.DEFAULT));
	}

	@Test
	void zoneLocalPartitionsReadFromTheirLeaderAreCountedApartFromThoseReadFromAFollower() {
		Subject subject = subject(ConsumerKind.LISTENER, Policy.LOCALITY, true, Map.of(T0, 1, T1, -1, T2, -1));
		ConsumerReads reads = judge(subject, VIEW, false).summary();
		assertThat(reads.zoneLocalPartitions()).isEqualTo(2);
		assertThat(reads.zoneLocalLeaderPartitions()).isEqualTo(1);
		assertThat(reads.crossZonePartitions()).isEqualTo(1);
	}

	@Test
	void theAssignmentInEffectIsTheOneTheBrokersDescribeForTheConsumersGroup() {
		assertThat(assignment(Map.of("group.id", "g"), new ClusterView.GroupAssignor(false, "follower-fetch-zone-aware")))
			.isEqualTo("zone-aware");
		assertThat(assignment(Map.of("group.id", "g"), new ClusterView.GroupAssignor(false, "range"))).isEqualTo("range");
		assertThat(assignment(Map.of("group.id", "g"), new ClusterView.GroupAssignor(true, "uniform")))
			.isEqualTo("broker");
		assertThat(assignment(Map.of("group.id", "g", "group.protocol", "consumer"), null)).isEqualTo("broker");
		assertThat(assignment(Map.of("group.id", "g"), null)).isNull();
		assertThat(assignment(Map.of("group.id", "g"), new ClusterView.GroupAssignor(false, ""))).isNull();
		assertThat(assignment(Map.of("application.id", "g"), new ClusterView.GroupAssignor(false, "stream")))
			.isEqualTo("stream");
	}

	private static String assignment(Map<String, Object> config, ClusterView.GroupAssignor group) {
		ObservedConsumer consumer = new ObservedConsumer(ConsumerKind.LISTENER, "c", Policy.LOCALITY, config, List.of(),
				Map::of, Map.of());
		ClusterView view = new ClusterView(Map.of(), Map.of(), null, Map.of(), Map.of(), Map.of(),
				(group != null) ? Map.of("g", group) : Map.of());
		return ReadLocalityJudge.assignment(consumer, view);
	}

	private Judged judge(Subject subject, ClusterView view, boolean beyondGrace) {
		return judge(subject, view, (condition, tp) -> beyondGrace);
	}

	private Judged judge(Subject subject, ClusterView view, Grace grace) {
		return this.judge.judge(subject, view, "az-b", grace, new ZoneBytes<String>().count("x", List.of(), view, "az-b"));
	}

	private static FollowerFetchState state(Judged... judged) {
		return ReadLocalityJudge.state("az-b", List.of(new Cluster(VIEW, List.of(judged))), Policy.LOCALITY);
	}

	private static Map<TopicPartition, Integer> leaders() {
		return Map.of(T0, -1, T1, -1, T2, -1);
	}

	private static Subject subject(ConsumerKind kind, Policy policy, boolean declared,
			Map<TopicPartition, Integer> readReplicas) {
		ClientMetrics client = new ClientMetrics("client-1", readReplicas, readReplicas.keySet(), List.of());
		ObservedConsumer consumer = new ObservedConsumer(kind, "c", policy, Map.of(), readReplicas.keySet(), Map::of,
				Map.of());
		return new Subject(consumer, declared, consumer.assigned(), List.of(client));
	}

	private static ClientMetrics client(double total, Object counter) {
		return new ClientMetrics("client-1", Map.of(), Set.of(), List.of(new NodeTotal(1, total, counter)));
	}

	private static ClusterView view(Selector selector, Set<Integer> isrOfT0) {
		return view(selector, isrOfT0, Set.of());
	}

	private static ClusterView view(Selector selector, Set<Integer> isrOfT0, Set<Integer> unreachable) {
		return new ClusterView(Map.of(0, "az-a", 1, "az-b", 2, "az-c"), Map.of(0, selector, 1, selector, 2, selector),
				null, Map.of(T0, new Placement(0, List.of(0, 1, 2), isrOfT0), T1,
						new Placement(1, List.of(1, 2, 0), Set.of(0, 1, 2)), T2,
						new Placement(2, List.of(2, 0, 1), Set.of(0, 1, 2))),
				Map.of(), unreachable.stream().collect(Collectors.toMap((broker) -> broker, (broker) -> "no answer")));
	}

}
