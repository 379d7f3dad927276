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

import java.lang.reflect.Method;
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
	public void interceptTestTemplateMethod(Invocation<@Nullable Void> invocation,
			ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext) throws Throwable {
		try {
			invocation.proceed();
		}
		catch (OutOfMemoryError ex) {
			// what the test built is garbage once it unwinds
			throw new AssertionError("Out of memory with a heap of " + Runtime.getRuntime().maxMemory() / (1 << 20)
					+ " MB: " + ex.getMessage(), ex);
		}
	}

}
