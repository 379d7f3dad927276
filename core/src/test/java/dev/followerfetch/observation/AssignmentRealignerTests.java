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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Locality;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignor.Leadership;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.observation.ClusterView.Placement;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The realigner's timing and its one actor, with a clock the test moves and no cluster.
 *
 * @author follower-fetch authors
 */
class AssignmentRealignerTests {

	private static final TopicPartition T0 = new TopicPartition("t", 0);

	private static final TopicPartition T1 = new TopicPartition("t", 1);

	private static final Map<Integer, String> RACKS = Map.of(0, "az-a", 1, "az-b");

	private final MovableClock clock = new MovableClock();

	private final AtomicInteger rebalances = new AtomicInteger();

	private final Map<String, Leadership> leaderships = new HashMap<>();

	private final AssignmentRealigner realigner = new AssignmentRealigner(() -> this.leaderships,
			new AssignmentRealigner.Settings(true, Duration.ofSeconds(120), Duration.ofMinutes(10)), this.clock);

	@Test
	void anAssignmentThatMatchesTheLeadersIsLeftAlone() {
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		for (int refresh = 0; refresh < 10; refresh++) {
			this.realigner.check(List.of(subject("client-a")), (subject) -> view(0, 1));
			this.clock.advance(Duration.ofMinutes(1));
		}
		assertThat(this.rebalances).hasValue(0);
	}

	@Test
	void swappedLeadersRebalanceTheGroupOnceTheGraceHasPassedAndNotAgainWithinTheInterval() {
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		Map<String, Map<String, Object>> facts = this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		assertThat(facts.get("orders")).containsEntry("leaderZonePartitions", 0)
			.containsEntry("leaderZonePartitionsAllowed", 2)
			.containsEntry("membersByZone", Map.of("az-a", 1, "az-b", 1));
		this.clock.advance(Duration.ofMillis(119_999));
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		assertThat(this.rebalances).hasValue(0);
		checkAfter(Duration.ofMillis(1), leader, view(1, 0));
		assertThat(this.rebalances).hasValue(1);
		for (int refresh = 0; refresh < 9; refresh++) {
			checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		}
		assertThat(this.rebalances).as("within the interval").hasValue(1);
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		assertThat(this.rebalances).as("after the interval").hasValue(2);
		assertThat(this.realigner.rebalances("orders")).isEqualTo(2);
	}

	@Test
	void aRealignmentWhoseRebalanceStillAssignedBelowTheLeadersIsFollowedOnceAfterTheGraceThenWaitsTheInterval() {
		this.leaderships.put("client-a", leadership(7, Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		checkAfter(Duration.ofMinutes(2), leader, view(1, 0));
		assertThat(this.rebalances).hasValue(1);
		// the rebalance it asked for came, but its leader's metadata still had the old leaders
		this.leaderships.put("client-a", leadership(8, Set.of(T0), Set.of(T1)));
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		assertThat(this.rebalances).as("within the grace").hasValue(1);
		checkAfter(Duration.ofMinutes(2), leader, view(1, 0));
		assertThat(this.rebalances).as("the follow-up").hasValue(2);
		this.leaderships.put("client-a", leadership(9, Set.of(T0), Set.of(T1)));
		for (int refresh = 0; refresh < 6; refresh++) {
			checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		}
		assertThat(this.rebalances).as("one follow-up at most, then the interval").hasValue(2);
		checkAfter(Duration.ofMinutes(5), leader, view(1, 0));
		assertThat(this.rebalances).as("after the interval").hasValue(3);
	}

	@Test
	void aRealignmentThatAlignedTheGroupLeavesNoFollowUpForALaterMove() {
		this.leaderships.put("client-a", leadership(7, Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		checkAfter(Duration.ofMinutes(2), leader, view(1, 0));
		assertThat(this.rebalances).hasValue(1);
		this.leaderships.put("client-a", leadership(8, Set.of(T1), Set.of(T0)));
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		// the leaders move back: below again, within the interval, with no follow-up left
		for (int refresh = 0; refresh < 5; refresh++) {
			checkAfter(Duration.ofMinutes(1), leader, view(0, 1));
		}
		assertThat(this.rebalances).hasValue(1);
	}

	@Test
	void aGroupWhoseLeaderMayStillHaveMetadataFromBeforeTheMoveWaitsUntilItHasExpired() {
		this.leaderships.put("client-a", leadership(7, Duration.ofMinutes(5), Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		checkAfter(Duration.ofMinutes(2), leader, view(1, 0));
		checkAfter(Duration.ofMillis(179_999), leader, view(1, 0));
		assertThat(this.rebalances).as("past the grace, within metadata.max.age.ms").hasValue(0);
		checkAfter(Duration.ofMillis(1), leader, view(1, 0));
		assertThat(this.rebalances).hasValue(1);
		this.leaderships.put("client-a", leadership(8, Duration.ofMinutes(5), Set.of(T0), Set.of(T1)));
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		checkAfter(Duration.ofMillis(299_999), leader, view(1, 0));
		assertThat(this.rebalances).as("a follow-up waits as long").hasValue(1);
		checkAfter(Duration.ofMillis(1), leader, view(1, 0));
		assertThat(this.rebalances).hasValue(2);
	}

	@Test
	void leadersThatMoveBackWithinTheGraceCauseNoRebalance() {
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		checkAfter(Duration.ofSeconds(100), leader, view(0, 1));
		checkAfter(Duration.ofSeconds(100), leader, view(1, 0));
		checkAfter(Duration.ofSeconds(100), leader, view(1, 0));
		assertThat(this.rebalances).as("the grace starts again after they moved back").hasValue(0);
	}

	@Test
	void leadersThatABrokerRestartMovedAwayFromTheirPreferredReplicaCauseNoRebalance() {
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		// both preferred leaders restarted in turn: each partition is led by the other broker
		ClusterView away = view(1, 0, 0, 1);
		Map<String, Map<String, Object>> facts = this.realigner.check(List.of(leader), (subject) -> away);
		assertThat(facts.get("orders")).containsEntry("leaderZonePartitions", 2);
		for (int refresh = 0; refresh < 30; refresh++) {
			checkAfter(Duration.ofMinutes(1), leader, away);
		}
		assertThat(this.rebalances).hasValue(0);
	}

	@Test
	void aReassignmentThatMovesThePreferredReplicasIsFollowedAfterTheGrace() {
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		ClusterView moved = view(0, 1, 1, 0);
		this.realigner.check(List.of(leader), (subject) -> moved);
		checkAfter(Duration.ofMillis(119_999), leader, moved);
		assertThat(this.rebalances).as("within the grace, the leaders not yet moved").hasValue(0);
		checkAfter(Duration.ofMillis(1), leader, moved);
		assertThat(this.rebalances).hasValue(1);
	}

	@Test
	void onlyTheInstanceWhoseConsumerLedTheLastRebalanceActs() {
		this.leaderships.put("client-elsewhere", leadership(Set.of(T0), Set.of(T1)));
		for (int refresh = 0; refresh < 5; refresh++) {
			Map<String, Map<String, Object>> facts = this.realigner.check(List.of(subject("client-a")),
					(subject) -> view(1, 0));
			assertThat(facts).isEmpty();
			this.clock.advance(Duration.ofMinutes(5));
		}
		assertThat(this.rebalances).hasValue(0);
	}

	@Test
	void aViewWithoutTheGroupsTopicsDecidesNothing() {
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		for (int refresh = 0; refresh < 5; refresh++) {
			this.realigner.check(List.of(subject("client-a")), (subject) -> ClusterView.UNKNOWN);
			this.clock.advance(Duration.ofMinutes(5));
		}
		assertThat(this.rebalances).hasValue(0);
	}

	@Test
	void whenRealignmentIsOffTheFactsAreStillShown() {
		AssignmentRealigner off = new AssignmentRealigner(() -> this.leaderships,
				new AssignmentRealigner.Settings(false, Duration.ZERO, Duration.ZERO), this.clock);
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		assertThat(off.check(List.of(subject("client-a")), (subject) -> view(1, 0))).containsKey("orders");
		this.clock.advance(Duration.ofHours(1));
		off.check(List.of(subject("client-a")), (subject) -> view(1, 0));
		assertThat(this.rebalances).hasValue(0);
	}

	@Test
	void aGroupWhoseLastRebalanceFellBackIsNeverRebalancedAndItsFactsSayWhy() {
		String reason = "the zone-aware rule would exceed its budget (a group of its partitions needs 5 flow edges, "
				+ "more than 1)";
		this.leaderships.put("client-a", leadership("orders", "client-a", 7, Set.of(T0), Set.of(T1), reason, 1));
		Subject leader = subject("client-a");
		Map<String, Map<String, Object>> facts = this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		assertThat(facts.get("orders")).containsEntry("leaderZonePartitions", 0)
			.containsEntry("zoneAwareFallback", reason)
			.doesNotContainKeys("leaderZonePartitionsAllowed", "nextRealignment");
		for (int refresh = 0; refresh < 24 * 60; refresh++) {
			checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		}
		assertThat(this.rebalances).as("a day below, every rebalance falling back").hasValue(0);
		// a rebalance that assigned by the rule again: the grace starts then
		this.leaderships.put("client-a", leadership("orders", "client-a", 8, Set.of(T0), Set.of(T1), null, 1));
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		checkAfter(Duration.ofMillis(119_999), leader, view(1, 0));
		assertThat(this.rebalances).hasValue(0);
		checkAfter(Duration.ofMillis(1), leader, view(1, 0));
		assertThat(this.rebalances).hasValue(1);
	}

	@Test
	void aGroupWhoseStickyStrategyWasStillSettlingIsNotRebalanced() {
		Leadership below = leadership("orders", "client-a", 7, Set.of(T0), Set.of(T1), null, 0);
		this.leaderships.put("client-a", new Leadership(below.groupId(), below.clientId(), below.generation(),
				below.metadataMaxAge(), below.balance(), below.members(), null, 0, true));
		Subject leader = subject("client-a");
		assertThat(this.realigner.check(List.of(leader), (subject) -> view(1, 0)).get("orders"))
			.containsEntry("stickySettling", true)
			.doesNotContainKeys("leaderZonePartitionsAllowed", "nextRealignment");
		for (int refresh = 0; refresh < 60; refresh++) {
			checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		}
		assertThat(this.rebalances).as("an hour below while the strategy settles").hasValue(0);
	}

	@Test
	void realignmentsThatDoNotRaiseTheCountBackOffTheIntervalThenTwiceThenFourTimes() {
		this.leaderships.put("client-a", leadership(7, Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		checkAfter(Duration.ofMinutes(2), leader, view(1, 0));
		assertThat(this.rebalances).as("the realignment").hasValue(1);
		this.leaderships.put("client-a", leadership(8, Set.of(T0), Set.of(T1)));
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		checkAfter(Duration.ofMinutes(2), leader, view(1, 0));
		assertThat(this.rebalances).as("its follow-up").hasValue(2);
		// each rebalance that comes assigns as before: the count never rises
		this.leaderships.put("client-a", leadership(9, Set.of(T0), Set.of(T1)));
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		checkAfter(Duration.ofMillis(539_999), leader, view(1, 0));
		assertThat(this.rebalances).as("within the interval").hasValue(2);
		checkAfter(Duration.ofMillis(1), leader, view(1, 0));
		assertThat(this.rebalances).as("after the interval").hasValue(3);
		this.leaderships.put("client-a", leadership(10, Set.of(T0), Set.of(T1)));
		Map<String, Map<String, Object>> facts = checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		assertThat(facts.get("orders")).containsEntry("realignBackoff", "PT20M")
			.containsEntry("nextRealignment", "2026-12-01T00:35:00Z");
		checkAfter(Duration.ofMillis(1_139_999), leader, view(1, 0));
		assertThat(this.rebalances).as("within twice the interval").hasValue(3);
		checkAfter(Duration.ofMillis(1), leader, view(1, 0));
		assertThat(this.rebalances).as("after twice the interval").hasValue(4);
		this.leaderships.put("client-a", leadership(11, Set.of(T0), Set.of(T1)));
		facts = checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		assertThat(facts.get("orders")).containsEntry("realignBackoff", "PT40M");
		checkAfter(Duration.ofMillis(2_339_999), leader, view(1, 0));
		assertThat(this.rebalances).as("within four times the interval").hasValue(4);
		checkAfter(Duration.ofMillis(1), leader, view(1, 0));
		assertThat(this.rebalances).as("after four times the interval").hasValue(5);
		assertThat(this.realigner.rebalances("orders")).isEqualTo(5);
	}

	@Test
	void theBackOffEndsWhenTheGroupIsNoLongerBelow() {
		this.leaderships.put("client-a", leadership(7, Set.of(T0), Set.of(T1)));
		Subject leader = subject("client-a");
		int generation = 7;
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		for (int minute = 0; minute < 200 && this.rebalances.get() < 5; minute++) {
			int before = this.rebalances.get();
			checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
			if (this.rebalances.get() > before) {
				this.leaderships.put("client-a", leadership(++generation, Set.of(T0), Set.of(T1)));
			}
		}
		Map<String, Map<String, Object>> facts = checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		assertThat(facts.get("orders")).containsEntry("realignBackoff", "PT1H20M");
		// the leaders move back, then away again
		facts = checkAfter(Duration.ofMinutes(1), leader, view(0, 1));
		assertThat(facts.get("orders")).doesNotContainKeys("realignBackoff", "nextRealignment");
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		checkAfter(Duration.ofMinutes(6), leader, view(1, 0));
		assertThat(this.rebalances).as("within the interval of the last").hasValue(5);
		checkAfter(Duration.ofMinutes(1), leader, view(1, 0));
		assertThat(this.rebalances).as("the interval, no longer backed off").hasValue(6);
	}

	@Test
	void twoGroupsBelowAtOnceAreRebalancedAtTwoRefreshes() {
		AtomicInteger payments = new AtomicInteger();
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		this.leaderships.put("client-p", leadership("payments", "client-p", 4, Set.of(T0), Set.of(T1), null, 0));
		List<Subject> leaders = List.of(subject("client-a"), subject("payments", "client-p", payments));
		this.realigner.check(leaders, (subject) -> view(1, 0));
		this.clock.advance(Duration.ofMinutes(2));
		this.realigner.check(leaders, (subject) -> view(1, 0));
		assertThat(this.rebalances.get() + payments.get()).as("one group at the first refresh past the grace")
			.isEqualTo(1);
		this.clock.advance(Duration.ofSeconds(30));
		this.realigner.check(leaders, (subject) -> view(1, 0));
		assertThat(this.rebalances).hasValue(1);
		assertThat(payments).hasValue(1);
	}

	@Test
	void aJitterDelaysTheFirstRealignmentByUpToAQuarterOfTheGraceAndLaterOnesOfTheInterval() {
		// its nextDouble() is 0.5: an eighth of the grace, 15 s, then of the interval, 75 s
		RandomGenerator half = new RandomGenerator() {

			@Override
			public long nextLong() {
				return 0;
			}

			@Override
			public double nextDouble() {
				return 0.5;
			}

		};
		AssignmentRealigner jittered = new AssignmentRealigner(() -> this.leaderships,
				new AssignmentRealigner.Settings(true, Duration.ofSeconds(120), Duration.ofMinutes(10)), this.clock,
				half);
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		List<Subject> leader = List.of(subject("client-a"));
		jittered.check(leader, (subject) -> view(1, 0));
		this.clock.advance(Duration.ofMillis(134_999));
		jittered.check(leader, (subject) -> view(1, 0));
		assertThat(this.rebalances).as("within the grace and the jitter").hasValue(0);
		this.clock.advance(Duration.ofMillis(1));
		jittered.check(leader, (subject) -> view(1, 0));
		assertThat(this.rebalances).hasValue(1);
		for (int refresh = 0; refresh < 10; refresh++) {
			this.clock.advance(Duration.ofMinutes(1));
			jittered.check(leader, (subject) -> view(1, 0));
		}
		this.clock.advance(Duration.ofMillis(74_999));
		jittered.check(leader, (subject) -> view(1, 0));
		assertThat(this.rebalances).as("within the interval and the jitter").hasValue(1);
		this.clock.advance(Duration.ofMillis(1));
		jittered.check(leader, (subject) -> view(1, 0));
		assertThat(this.rebalances).hasValue(2);
	}

	@Test
	void theRuleRunsAgainOnlyWhenARebalanceOrALeadersMoveChangedItsInput() {
		AtomicInteger calls = new AtomicInteger();
		AssignmentRealigner counting = new AssignmentRealigner(() -> this.leaderships,
				new AssignmentRealigner.Settings(true, Duration.ofSeconds(120), Duration.ofMinutes(10)), this.clock,
				() -> 0L, (leadership, partitions) -> {
					calls.incrementAndGet();
					return new Locality(2, 2, 2);
				});
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		List<Subject> leader = List.of(subject("client-a"));
		for (int refresh = 0; refresh < 5; refresh++) {
			counting.check(leader, (subject) -> view(0, 1));
		}
		assertThat(calls).as("five refreshes of one input").hasValue(1);
		counting.check(leader, (subject) -> view(1, 0));
		assertThat(calls).as("after the leaders moved").hasValue(2);
		this.leaderships.put("client-a", leadership(8, Set.of(T0), Set.of(T1)));
		counting.check(leader, (subject) -> view(1, 0));
		assertThat(calls).as("after a rebalance").hasValue(3);
	}

	@Test
	void aRuleThatFailsSkipsItsGroupWithoutEscapingTheCheck() {
		AtomicInteger payments = new AtomicInteger();
		List<Throwable> failures = List.of(new IllegalArgumentException("a bug"), new StackOverflowError(),
				new OutOfMemoryError("Java heap space"));
		AtomicInteger calls = new AtomicInteger();
		AssignmentRealigner failing = new AssignmentRealigner(() -> this.leaderships,
				new AssignmentRealigner.Settings(true, Duration.ofSeconds(120), Duration.ofMinutes(10)), this.clock,
				() -> 0L, (leadership, partitions) -> {
					if (leadership.groupId().equals("orders")) {
						Throwable failure = failures.get(calls.getAndIncrement() % failures.size());
						if (failure instanceof Error error) {
							throw error;
						}
						throw (RuntimeException) failure;
					}
					return new Locality(2, 2, 2);
				});
		this.leaderships.put("client-a", leadership(Set.of(T0), Set.of(T1)));
		this.leaderships.put("client-p", leadership("payments", "client-p", 4, Set.of(T0), Set.of(T1), null, 0));
		List<Subject> leaders = List.of(subject("client-a"), subject("payments", "client-p", payments));
		for (int refresh = 0; refresh < 6; refresh++) {
			// the leaders of orders move at every refresh: a new input, so its rule runs (and fails) again
			ClusterView moved = (refresh % 2 == 0) ? view(1, 0) : view(0, 1);
			Map<String, Map<String, Object>> facts = failing.check(leaders,
					(subject) -> subject.consumer().name().equals("payments") ? view(1, 0) : moved);
			assertThat(facts).containsOnlyKeys("payments");
			this.clock.advance(Duration.ofMinutes(1));
		}
		assertThat(calls).hasValue(6);
		failing.check(leaders, (subject) -> view(0, 1));
		assertThat(calls).as("not rerun on the input it failed on").hasValue(6);
		assertThat(this.rebalances).hasValue(0);
		assertThat(payments).as("the other group").hasValue(1);
	}

	@Test
	void fallbacksAreCountedByGroupFromTheLargestCountSeenOfEachClient() {
		Subject leader = subject("client-a");
		this.leaderships.put("client-a", leadership("orders", "client-a", 7, Set.of(T0), Set.of(T1), "budget", 2));
		this.leaderships.put("client-b", leadership("orders", "client-b", 3, Set.of(T0), Set.of(T1), null, 1));
		this.leaderships.put("client-p", leadership("payments", "client-p", 4, Set.of(T0), Set.of(T1), null, 0));
		this.realigner.check(List.of(leader), (subject) -> view(1, 0));
		assertThat(this.realigner.fallbacks("orders")).isEqualTo(3);
		assertThat(this.realigner.fallbacks("payments")).isZero();
		assertThat(this.realigner.fallbackGroups()).containsExactly("orders", "payments");
		// client-b no longer leads, client-a's consumer restarted and counts from zero again
		this.leaderships.remove("client-b");
		this.leaderships.put("client-a", leadership("orders", "client-a", 1, Set.of(T0), Set.of(T1), null, 0));
		this.realigner.countFallbacks();
		assertThat(this.realigner.fallbacks("orders")).isEqualTo(3);
		this.leaderships.put("client-a", leadership("orders", "client-a", 2, Set.of(T0), Set.of(T1), "budget", 4));
		this.realigner.countFallbacks();
		assertThat(this.realigner.fallbacks("orders")).isEqualTo(5);
	}

	@Test
	void theFallbacksOfClientsPastTheBoundStayInTheirGroupsCount() {
		this.leaderships.put("client-0", leadership("orders", "client-0", 1, Set.of(T0), Set.of(T1), "budget", 5));
		this.realigner.countFallbacks();
		this.leaderships.clear();
		for (int client = 1; client <= AssignmentRealigner.MAX_COUNTED_CLIENTS; client++) {
			this.leaderships.put("client-" + client,
					leadership("orders", "client-" + client, 1, Set.of(T0), Set.of(T1), null, 1));
		}
		this.realigner.countFallbacks();
		assertThat(this.realigner.fallbacks("orders")).isEqualTo(5 + AssignmentRealigner.MAX_COUNTED_CLIENTS);
		this.realigner.countFallbacks();
		assertThat(this.realigner.fallbacks("orders")).as("counted once")
			.isEqualTo(5 + AssignmentRealigner.MAX_COUNTED_CLIENTS);
	}

	@Test
	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	void aRealignerOfARegistryReadsTheGroupsItsAssignorsLedAndLetsTheLeaderMoveOwnedPartitions() {
		ZoneAwareAssignors assignors = new ZoneAwareAssignors();
		ZoneAwareAssignor leader = zoneAware(assignors, "client-a", "az-a");
		ZoneAwareAssignor member = zoneAware(assignors, "client-b", "az-b");
		Map<String, Assignment> first = leader
			.assign(cluster(0, 1), new GroupSubscription(Map.of("member-a", joins(leader, "az-a", List.of()), "member-b",
					joins(member, "az-b", List.of()))))
			.groupAssignment();
		leader.onAssignment(first.get("member-a"), new ConsumerGroupMetadata("orders", 7, "member-a", Optional.empty()));
		assertThat(assignors.leaderships()).containsOnlyKeys("client-a");
		// the leaders swapped zones: cooperative-sticky keeps what each member owns
		Map<String, Subscription> owning = Map.of("member-a", joins(leader, "az-a", List.of(T0)), "member-b",
				joins(member, "az-b", List.of(T1)));
		assertThat(leader.assign(cluster(1, 0), new GroupSubscription(owning)).groupAssignment().get("member-a")
			.partitions()).containsExactly(T0);

		AssignmentRealigner realigner = new AssignmentRealigner(assignors,
				new AssignmentRealigner.Settings(true, Duration.ofSeconds(120), Duration.ofMinutes(10)), this.clock,
				() -> 0L);
		realigner.check(List.of(subject("client-a")), (subject) -> view(1, 0));
		this.clock.advance(Duration.ofMinutes(2));
		realigner.check(List.of(subject("client-a")), (subject) -> view(1, 0));
		assertThat(this.rebalances).hasValue(1);
		assertThat(leader.assign(cluster(1, 0), new GroupSubscription(owning)).groupAssignment().get("member-a")
			.partitions()).as("revoked, for member-b in its leader's zone").isEmpty();
	}

	private Subject subject(String clientId) {
		return subject("orders", clientId, this.rebalances);
	}

	private static ZoneAwareAssignor zoneAware(ZoneAwareAssignors assignors, String clientId, String rack) {
		ZoneAwareAssignor assignor = new ZoneAwareAssignor();
		assignor.configure(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, clientId, ConsumerConfig.GROUP_ID_CONFIG, "orders",
				ConsumerConfig.CLIENT_RACK_CONFIG, rack, ConsumerConfig.METADATA_MAX_AGE_CONFIG, "30000",
				ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
				ZoneAwareAssignor.class.getName() + "," + CooperativeStickyAssignor.class.getName(),
				ZoneAwareAssignor.REGISTRY_CONFIG, assignors));
		return assignor;
	}

	private static Subscription joins(ZoneAwareAssignor assignor, String rack, List<TopicPartition> owned) {
		return new Subscription(List.of("t"), assignor.subscriptionUserData(Set.of("t")), owned, 7, Optional.of(rack));
	}

	/**
	 * Topic t in the metadata of a consumer, its partitions led by the given brokers (0 in
	 * az-a, 1 in az-b), their preferred replicas.
	 */
	private static Cluster cluster(int leaderOfT0, int leaderOfT1) {
		List<Node> brokers = List.of(new Node(0, "localhost", 9092, "az-a"), new Node(1, "localhost", 9093, "az-b"));
		Node[] t0 = { brokers.get(leaderOfT0), brokers.get(1 - leaderOfT0) };
		Node[] t1 = { brokers.get(leaderOfT1), brokers.get(1 - leaderOfT1) };
		return new Cluster("cluster", brokers,
				List.of(new PartitionInfo("t", 0, t0[0], t0, t0), new PartitionInfo("t", 1, t1[0], t1, t1)), Set.of(),
				Set.of());
	}

	/**
	 * The listener of one group, named after it.
	 */
	private static Subject subject(String group, String clientId, AtomicInteger rebalances) {
		ObservedConsumer consumer = new ObservedConsumer(ConsumerKind.LISTENER, group, Policy.FRESHNESS,
				Map.of("group.id", group), List.of(T0), Map::of, Map.of(), rebalances::incrementAndGet);
		return new Subject(consumer, true, List.of(T0),
				List.of(new ClientMetrics(clientId, Map.of(), Set.of(), List.of())));
	}

	/**
	 * A group of a FRESHNESS member in az-a and one in az-b, one partition each.
	 */
	private static Leadership leadership(Set<TopicPartition> ofA, Set<TopicPartition> ofB) {
		return leadership(7, ofA, ofB);
	}

	private static Leadership leadership(int generation, Set<TopicPartition> ofA, Set<TopicPartition> ofB) {
		return leadership(generation, Duration.ofSeconds(30), ofA, ofB);
	}

	private static Leadership leadership(int generation, Duration metadataMaxAge, Set<TopicPartition> ofA,
			Set<TopicPartition> ofB) {
		return leadership("orders", "client-a", generation, metadataMaxAge, ofA, ofB, null, 0);
	}

	private static Leadership leadership(String group, String clientId, int generation, Set<TopicPartition> ofA,
			Set<TopicPartition> ofB, @Nullable String fallback, long fallbacks) {
		return leadership(group, clientId, generation, Duration.ofSeconds(30), ofA, ofB, fallback, fallbacks);
	}

	private static Leadership leadership(String group, String clientId, int generation, Duration metadataMaxAge,
			Set<TopicPartition> ofA, Set<TopicPartition> ofB, @Nullable String fallback, long fallbacks) {
		return new Leadership(group, clientId, generation, metadataMaxAge, Balance.PER_TOPIC,
				List.of(new Member("member-a", "az-a", Policy.FRESHNESS, Set.of("t"), ofA),
						new Member("member-b", "az-b", Policy.FRESHNESS, Set.of("t"), ofB)),
				fallback, fallbacks, false);
	}

	/**
	 * Partitions t-0 and t-1 led by the given brokers (0 in az-a, 1 in az-b), their
	 * preferred replicas: where a reassignment and an election put the leaders.
	 */
	private static ClusterView view(int leaderOfT0, int leaderOfT1) {
		return view(leaderOfT0, leaderOfT1, leaderOfT0, leaderOfT1);
	}

	/**
	 * Partitions t-0 and t-1 led by the given brokers, and preferring the given ones:
	 * where they differ, a broker restart moved the leader away.
	 */
	private static ClusterView view(int leaderOfT0, int leaderOfT1, int preferredOfT0, int preferredOfT1) {
		return new ClusterView(RACKS, Map.of(), null,
				Map.of(T0, new Placement(leaderOfT0, List.of(preferredOfT0, 1 - preferredOfT0), Set.of(0, 1)), T1,
						new Placement(leaderOfT1, List.of(preferredOfT1, 1 - preferredOfT1), Set.of(0, 1))),
				Map.of());
	}

	private Map<String, Map<String, Object>> checkAfter(Duration elapsed, Subject leader, ClusterView view) {
		this.clock.advance(elapsed);
		return this.realigner.check(List.of(leader), (subject) -> view);
	}

}
