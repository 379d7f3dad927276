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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.observation.ClientMetrics.NodeTotal;
import dev.followerfetch.observation.ClusterView.Placement;
import dev.followerfetch.observation.ClusterView.Selector;
import dev.followerfetch.observation.ProducerMetricsReader.ProducerClient;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.observation.SnapshotBuilder.ClusterReading;
import dev.followerfetch.observation.SnapshotBuilder.Reading;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshots built from what a refresh read, with a clock the test moves and no cluster:
 * brokers 0, 1 and 2 in az-a, az-b and az-c, each leading one partition of {@code t}
 * replicated to all three, an application in az-b and a fallback grace of 500 ms.
 *
 * @author follower-fetch authors
 */
class SnapshotBuilderTests {

	private static final TopicPartition T0 = new TopicPartition("t", 0);

	private static final TopicPartition T1 = new TopicPartition("t", 1);

	private static final TopicPartition T2 = new TopicPartition("t", 2);

	private static final Selector RACK_AWARE = new Selector(
			"org.apache.kafka.common.replica.RackAwareReplicaSelector", true);

	private static final ClusterView VIEW = new ClusterView(Map.of(0, "az-a", 1, "az-b", 2, "az-c"),
			Map.of(0, RACK_AWARE, 1, RACK_AWARE, 2, RACK_AWARE), null,
			Map.of(T0, new Placement(0, List.of(0, 1, 2), Set.of(0, 1, 2)), T1,
					new Placement(1, List.of(1, 2, 0), Set.of(0, 1, 2)), T2,
					new Placement(2, List.of(2, 0, 1), Set.of(0, 1, 2))),
			Map.of(), Map.of(), Map.of());

	private static final Map<TopicPartition, Integer> FROM_LEADERS = Map.of(T0, -1, T1, -1, T2, -1);

	private static final Map<TopicPartition, Integer> IN_ZONE = Map.of(T0, 1, T1, -1, T2, 1);

	private final MovableClock clock = new MovableClock();

	private final SnapshotBuilder builder = new SnapshotBuilder(20, Duration.ofMillis(500), Policy.LOCALITY,
			this.clock);

	@Test
	void partitionsReadAcrossZonesAreAFallbackOnlyOnceTheClockHasPassedTheGrace() {
		FollowerFetchSnapshot first = build(listener("payments", FROM_LEADERS));
		assertThat(first.state()).isEqualTo(FollowerFetchState.ACTIVE);
		assertThat(first.listeners().get("payments").crossZonePartitions()).isEqualTo(2);
		assertThat(first.takenAt()).isEqualTo(this.clock.instant());
		this.clock.advance(Duration.ofMillis(499));
		assertThat(build(listener("payments", FROM_LEADERS)).state()).isEqualTo(FollowerFetchState.ACTIVE);
		this.clock.advance(Duration.ofMillis(1));
		FollowerFetchSnapshot beyond = build(listener("payments", FROM_LEADERS));
		assertThat(beyond.state()).isEqualTo(FollowerFetchState.FALLBACK);
		assertThat(beyond.listeners().get("payments").fallbackPartitions()).containsExactly("t-0", "t-2");
	}

	@Test
	void aPartitionThatIsReadInZoneAgainStartsItsGraceAfresh() {
		build(listener("payments", FROM_LEADERS));
		this.clock.advance(Duration.ofMillis(400));
		assertThat(build(listener("payments", IN_ZONE)).state()).isEqualTo(FollowerFetchState.ACTIVE);
		this.clock.advance(Duration.ofMillis(400));
		assertThat(build(listener("payments", FROM_LEADERS)).state()).isEqualTo(FollowerFetchState.ACTIVE);
		this.clock.advance(Duration.ofMillis(499));
		assertThat(build(listener("payments", FROM_LEADERS)).state()).isEqualTo(FollowerFetchState.ACTIVE);
		this.clock.advance(Duration.ofMillis(1));
		assertThat(build(listener("payments", FROM_LEADERS)).state()).isEqualTo(FollowerFetchState.FALLBACK);
	}

	@Test
	void eachConsumerAndEachPartitionHasItsOwnGrace() {
		build(listener("payments", Map.of(T0, -1, T1, -1, T2, 1)));
		this.clock.advance(Duration.ofMillis(300));
		build(listener("payments", FROM_LEADERS), listener("audit", FROM_LEADERS));
		this.clock.advance(Duration.ofMillis(200));
		FollowerFetchSnapshot snapshot = build(listener("payments", FROM_LEADERS), listener("audit", FROM_LEADERS));
		assertThat(snapshot.listeners().get("payments").fallbackPartitions()).containsExactly("t-0");
		assertThat(snapshot.listeners().get("audit").fallbackPartitions()).isEmpty();
		this.clock.advance(Duration.ofMillis(300));
		snapshot = build(listener("payments", FROM_LEADERS), listener("audit", FROM_LEADERS));
		assertThat(snapshot.listeners().get("payments").fallbackPartitions()).containsExactly("t-0", "t-2");
		assertThat(snapshot.listeners().get("audit").fallbackPartitions()).containsExactly("t-0", "t-2");
	}

	@Test
	void bytesAreCountedByTheZoneOfTheBrokerTheyCameFromAndKeptAcrossRefreshes() {
		build(listener("payments", IN_ZONE, new NodeTotal(1, 1000, 1L), new NodeTotal(0, 300, 1L)));
		FollowerFetchSnapshot snapshot = build(
				listener("payments", IN_ZONE, new NodeTotal(1, 1500, 1L), new NodeTotal(0, 300, 1L)));
		assertThat(snapshot.listeners().get("payments").localBytes()).isEqualTo(1500);
		assertThat(snapshot.listeners().get("payments").remoteBytes()).isEqualTo(300);
		build(listener("payments", IN_ZONE, new NodeTotal(1, 200, 2L)));
		assertThat(this.builder.receivedBytes(ConsumerKind.LISTENER, "payments", true)).isEqualTo(1700);
		assertThat(this.builder.receivedBytes(ConsumerKind.LISTENER, "payments", false)).isEqualTo(300);
		assertThat(this.builder.receivedBytes(ConsumerKind.LISTENER, "audit", true)).isZero();
	}

	@Test
	void aConsumerNoLongerListedIsForgottenAndCountsFromZeroWhenItComesBack() {
		build(listener("payments", IN_ZONE, new NodeTotal(1, 1000, 1L)), listener("audit", IN_ZONE));
		assertThat(this.builder.lists(ConsumerKind.LISTENER, "payments")).isTrue();
		build(listener("audit", IN_ZONE));
		assertThat(this.builder.lists(ConsumerKind.LISTENER, "payments")).isFalse();
		assertThat(this.builder.lists(ConsumerKind.LISTENER, "audit")).isTrue();
		assertThat(this.builder.receivedBytes(ConsumerKind.LISTENER, "payments", true)).isZero();
		build(listener("payments", IN_ZONE, new NodeTotal(1, 400, 2L)));
		assertThat(this.builder.receivedBytes(ConsumerKind.LISTENER, "payments", true)).isEqualTo(400);
	}

	@Test
	void aConsumerStillListedWhileNoClusterAnswersIsNotForgotten() {
		build(listener("payments", IN_ZONE, new NodeTotal(1, 1000, 1L)));
		this.builder.build(new Reading("az-b", "property",
				List.of(new ClusterReading(null, null, List.of(listener("payments", FROM_LEADERS)), false)), List.of(),
				List.of(Problem.brokersUnreachable(null, "TimeoutException: timed out")), Map.of()));
		assertThat(this.builder.lists(ConsumerKind.LISTENER, "payments")).isTrue();
		assertThat(this.builder.receivedBytes(ConsumerKind.LISTENER, "payments", true)).isEqualTo(1000);
	}

	@Test
	void aProducerFactoryNoLongerListedIsForgottenAndCountsFromZeroWhenItComesBack() {
		ObservedProducer orders = new ObservedProducer("orders", false, List.of(new ProducerClient("producer-1",
				List.of(new NodeTotal(1, 1000, 1L), new NodeTotal(0, 300, 1L)), Map.of("t", 10.0))));
		ObservedProducer audit = new ObservedProducer("audit", false, List.of());
		FollowerFetchSnapshot snapshot = produce(orders, audit);
		assertThat(snapshot.producers().get("orders").topics()).containsExactly("t");
		assertThat(snapshot.producers().get("orders").partitions()).isEqualTo(3);
		assertThat(this.builder.listsProducer("orders")).isTrue();
		assertThat(this.builder.sentBytes("orders", true)).isEqualTo(1000);
		produce(audit);
		assertThat(this.builder.listsProducer("orders")).isFalse();
		assertThat(this.builder.listsProducer("audit")).isTrue();
		assertThat(this.builder.sentBytes("orders", true)).isZero();
	}

	@Test
	void aClusterThatNeverAnsweredLeavesTheApplicationStartingWithWhatWentWrong() {
		Problem timedOut = Problem.brokersUnreachable(null, "TimeoutException: timed out");
		Reading reading = new Reading("az-b", "property",
				List.of(new ClusterReading(null, null, List.of(listener("payments", FROM_LEADERS)), false)), List.of(),
				List.of(timedOut), Map.of());
		FollowerFetchSnapshot snapshot = this.builder.build(reading);
		assertThat(snapshot.state()).isEqualTo(FollowerFetchState.STARTING);
		assertThat(snapshot.problems()).containsExactly(timedOut);
		assertThat(snapshot.selector()).isEqualTo("unknown");
		assertThat(snapshot.listeners()).isEmpty();
	}

	@Test
	void aShareConsumerReadingDoesNotEndTheStartOfListenersThatHaveNotFetchedYet() {
		ClusterView withShareGroup = new ClusterView(VIEW.brokerRacks(), VIEW.selectors(), null, VIEW.partitions(),
				Map.of(), Map.of(), Map.of(),
				Map.of("share-1", new ClusterView.ShareMember(Set.of("workers"), Set.of(T0, T1, T2))));
		ObservedConsumer waiting = new ObservedConsumer(ConsumerKind.LISTENER, "payments", Policy.LOCALITY, Map.of(),
				Set.of(T0, T1, T2), Map::of, Map.of());
		Subject notFetched = new Subject(waiting, true, waiting.assigned(),
				List.of(new ClientMetrics("payments-0", Map.of(), Set.of(), List.of())));
		Subject share = ShareConsumers.assigned(ShareConsumers.found(new ClientMetrics("share-1", Map.of(), Set.of(),
				List.of(new NodeTotal(0, 1500, 1L)))), withShareGroup);
		FollowerFetchSnapshot snapshot = this.builder.build(new Reading("az-b", "property",
				List.of(new ClusterReading(null, withShareGroup, List.of(notFetched, share), false)), List.of(),
				List.of(), Map.of()));
		assertThat(snapshot.state()).isEqualTo(FollowerFetchState.STARTING);
	}

	@Test
	void withoutARackAndWithoutAnswersLocalityConsumersMakeItNoRack() {
		Reading reading = new Reading(null, null,
				List.of(new ClusterReading(null, null, List.of(listener("payments", FROM_LEADERS)), false)), List.of(),
				List.of(), Map.of());
		assertThat(this.builder.build(reading).state()).isEqualTo(FollowerFetchState.NO_RACK);
	}

	@Test
	void theGroupAssignmentOfAGroupThisInstanceLeadsIsInItsListenersDetails() {
		Map<String, Object> group = Map.of("members", 3);
		Reading reading = new Reading("az-b", "property",
				List.of(new ClusterReading(null, VIEW, List.of(listener("payments", IN_ZONE)), false)), List.of(),
				List.of(), Map.of("payments", group));
		assertThat(this.builder.build(reading).listeners().get("payments").details())
			.containsEntry(AssignmentRealigner.GROUP_ASSIGNMENT, group);
	}

	@Test
	void severalClustersHaveTheirSelectorsDescribedByName() {
		ClusterView leaderOnly = new ClusterView(Map.of(0, "az-a"), Map.of(0, new Selector(null, false)), null,
				Map.of(), Map.of(), Map.of(), Map.of());
		Reading reading = new Reading("az-b", "property",
				List.of(new ClusterReading(null, VIEW, List.of(listener("payments", IN_ZONE)), false),
						new ClusterReading("orders", leaderOnly, List.of(), false)),
				List.of(), List.of(), Map.of());
		FollowerFetchSnapshot snapshot = this.builder.build(reading);
		assertThat(snapshot.selector()).isEqualTo(
				"KafkaAdmin: org.apache.kafka.common.replica.RackAwareReplicaSelector on brokers [0, 1, 2] | orders: "
						+ "default (LeaderSelector) on brokers [0]");
		assertThat(snapshot.brokerRacks()).containsExactly("az-a", "az-b", "az-c");
	}

	private FollowerFetchSnapshot produce(ObservedProducer... producers) {
		return this.builder.build(new Reading("az-b", "property", List.of(new ClusterReading(null, VIEW, List.of(), true)),
				List.of(producers), List.of(), Map.of()));
	}

	private FollowerFetchSnapshot build(Subject... subjects) {
		return this.builder.build(new Reading("az-b", "property",
				List.of(new ClusterReading(null, VIEW, List.of(subjects), false)), List.of(), List.of(), Map.of()));
	}

	private static Subject listener(String name, Map<TopicPartition, Integer> readReplicas, NodeTotal... received) {
		ClientMetrics client = new ClientMetrics(name + "-0", readReplicas, readReplicas.keySet(), List.of(received));
		ObservedConsumer consumer = new ObservedConsumer(ConsumerKind.LISTENER, name, Policy.LOCALITY, Map.of(),
				readReplicas.keySet(), Map::of, Map.of());
		return new Subject(consumer, true, consumer.assigned(), List.of(client));
	}

}
