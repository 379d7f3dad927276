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

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.opentest4j.AssertionFailedError;
import org.slf4j.LoggerFactory;

/**
 * How Kafka's assignor suites run here. Kafka's tests of large groups (up to a million
 * partitions and two thousand members) need a large heap and a long time, so the build
 * skips them; {@code -Dkafka-assignor-tests.groups=large} runs only them (the
 * {@code kafka-assignor-large} profile of the core's pom does, with {@code -Xmx6g}) and
 * {@code -Dkafka-assignor-tests.groups=all} runs every test. One that runs out of memory
 * fails, and the next one runs. The suites run thousands of rebalances, so the leader's
 * INFO line about each is left out (its ERROR line, should the zone-aware rule fail,
 * stays).
 *
 * @author follower-fetch authors
 */
final class KafkaSuite implements ExecutionCondition, InvocationInterceptor, BeforeAllCallback, AfterAllCallback {

	static final String PROPERTY = "kafka-assignor-tests.groups";

	/**
	 * Kafka's large-group tests, by method name (AbstractStickyAssignorTest and
	 * StickyAssignorTest).
	 */
	static final Set<String> TESTS = Set.of("testLargeAssignmentAndGroupWithUniformSubscription",
			"testLargeAssignmentAndGroupWithNonEqualSubscription",
			"testAssignmentAndGroupWithNonEqualSubscriptionNotTimeout");

	/**
	 * Kafka's tests that assert its assignor's exact layout where, with zones, the
	 * zone-aware assignor rightly places partitions by their leaders' zones: held to
	 * {@link KafkaObjectives} instead when the group had zones.
	 */
	static final Set<String> LAYOUT_TESTS = Set.of(
			// RangeAssignorTest
			"testTwoConsumersTwoTopicsSixPartitions", "testStaticMemberRangeAssignmentPersistent",
			"testStaticMemberRangeAssignmentPersistentAfterMemberIdChanges",
			"testRackAwareStaticMemberRangeAssignmentPersistentAfterMemberIdChanges",
			"testTwoStaticConsumersTwoTopicsSixPartitions",
			"testOneStaticConsumerAndOneDynamicConsumerTwoTopicsSixPartitions",
			"testRackAwareAssignmentWithUniformSubscription", "testRackAwareAssignmentWithNonEqualSubscription",
			"testRackAwareAssignmentWithUniformPartitions",
			"testRackAwareAssignmentWithUniformPartitionsNonEqualSubscription",
			"testRackAwareAssignmentWithCoPartitioning", "testCoPartitionedAssignmentWithSameSubscription",
			// AbstractStickyAssignorTest, StickyAssignorTest, CooperativeStickyAssignorTest
			"testMultipleConsumersMixedTopicSubscriptions", "testAddRemoveTwoConsumersTwoTopics",
			"testAddRemoveConsumerOneTopic", "testAllConsumersAreUnderMinQuota", "testNoReassignmentOnCurrentMembers",
			"testSameSubscriptions", "testMaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers",
			"testAllConsumersReachExpectedQuotaAndAreConsideredFilled", "testConsumerOwningMinQuotaExpectedMaxQuota",
			"testEnsurePartitionsAssignedToHighestGeneration",
			"testOwnedPartitionsAreInvalidatedForConsumerWithNoGeneration",
			"testOwnedPartitionsAreInvalidatedForConsumerWithStaleGeneration",
			"testOwnedPartitionsAreInvalidatedForConsumerWithMultipleGeneration",
			"testPartitionsTransferringOwnershipIncludeThePartitionClaimedByMultipleConsumersInSameGeneration",
			"testAllConsumersHaveOwnedPartitionInvalidatedWhenClaimedByMultipleConsumersInSameGenerationWithEqualPartitionsPerConsumer",
			"testAllConsumersHaveOwnedPartitionInvalidatedWhenClaimedByMultipleConsumersInSameGenerationWithUnequalPartitionsPerConsumer");

	private static final Logger leaderLogger = (Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class);

	@Override
	public void beforeAll(ExtensionContext context) {
		leaderLogger.setLevel(Level.WARN);
	}

	@Override
	public void afterAll(ExtensionContext context) {
		leaderLogger.setLevel(null);
	}

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		Optional<Method> method = context.getTestMethod();
		if (method.isEmpty()) {
			return ConditionEvaluationResult.enabled("a class");
		}
		boolean large = TESTS.contains(method.get().getName());
		String groups = System.getProperty(PROPERTY, "");
		if (groups.equals("all") || large == groups.equals("large")) {
			return ConditionEvaluationResult.enabled(large ? "a large group" : "a small group");
		}
		return large ? ConditionEvaluationResult.disabled("a large group: run with -P kafka-assignor-large")
				: ConditionEvaluationResult.disabled("a small group: " + PROPERTY + "=" + groups);
	}

	@Override
	public void interceptTestMethod(Invocation<@Nullable Void> invocation,
			ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext) throws Throwable {
		run(invocation, invocationContext);
	}

	@Override
	public void interceptTestTemplateMethod(Invocation<@Nullable Void> invocation,
			ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext) throws Throwable {
		run(invocation, invocationContext);
	}

	/**
	 * Run one of Kafka's tests, then hold every rebalance it made to Kafka's objectives
	 * ({@link KafkaObjectives}). Where the test asserts its assignor's exact layout and
	 * the groups had zones to place partitions by, the objectives are what the test is held
	 * to ({@link #LAYOUT_TESTS}); any other failure stands.
	 */
	private static void run(Invocation<@Nullable Void> invocation, ReflectiveInvocationContext<Method> context)
			throws Throwable {
		AssertionFailedError layout = null;
		try {
			invocation.proceed();
		}
		catch (OutOfMemoryError ex) {
			// what the test built is garbage once it unwinds
			throw new AssertionError("Out of memory with a heap of " + Runtime.getRuntime().maxMemory() / (1 << 20)
					+ " MB: " + ex.getMessage(), ex);
		}
		catch (AssertionFailedError ex) {
			if (!LAYOUT_TESTS.contains(context.getExecutable().getName())) {
				throw ex;
			}
			layout = ex;
		}
		StarterGroup group = group(context.getTarget().orElse(null));
		// Kafka's large-group tests check validity and balance themselves, within a time limit that running
		// Kafka's assignor again on a million partitions would eat into
		if (group == null || TESTS.contains(context.getExecutable().getName())
				|| "kafka".equals(System.getProperty("kafka-assignor-tests.delegate"))) {
			if (layout != null) {
				throw layout;
			}
			return;
		}
		if (layout != null && group.led().stream().noneMatch(KafkaSuite::zoned)) {
			throw layout;
		}
		KafkaObjectives.Totals totals;
		try {
			totals = KafkaObjectives.verify(group);
		}
		catch (AssertionError ex) {
			if (layout != null) {
				ex.addSuppressed(layout);
			}
			throw ex;
		}
		if (layout != null) {
			System.out.printf("%s: Kafka's layout differs, its objectives hold over %d rebalances: %d partitions in "
					+ "their leader's zone (Kafka's assignor: %d), %d with a replica in their reader's rack (%d)%n",
					context.getExecutable().getName(), totals.rebalances(), totals.leaderZone(),
					totals.kafkaLeaderZone(), totals.rack(), totals.kafkaRack());
		}
	}

	/**
	 * Whether a rebalance had zones to place partitions by: members with a rack, and
	 * leaders with one.
	 */
	private static boolean zoned(KafkaObjectives.Rebalance rebalance) {
		boolean members = rebalance.subscriptions().values().stream().anyMatch((s) -> s.rackId().isPresent());
		boolean leaders = rebalance.partitionsPerTopic()
			.values()
			.stream()
			.flatMap(List::stream)
			.anyMatch((info) -> info.leader() != null && info.leader().hasRack());
		return members && leaders;
	}

	/**
	 * The group the test's assignor leads, from the field Kafka's test keeps it in.
	 */
	static @Nullable StarterGroup group(@Nullable Object test) {
		for (Class<?> type = (test != null) ? test.getClass() : null; type != null; type = type.getSuperclass()) {
			try {
				Field field = type.getDeclaredField("assignor");
				field.setAccessible(true);
				if (field.get(test) instanceof LeadsGroup adapter) {
					return adapter.group();
				}
			}
			catch (NoSuchFieldException ex) {
				// a class without the field
			}
			catch (IllegalAccessException ex) {
				throw new IllegalStateException(ex);
			}
		}
		return null;
	}

}
