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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;
import org.slf4j.LoggerFactory;

/**
 * Fails every test of the core in which the zone-aware assignor's gate found a guarantee
 * of the wrapped strategy broken, or the rule failed: in the project's own tests, Kafka's
 * assignor suites and the differential fuzzing among them, the rule's assignment is always
 * one the gate lets through. Registered for every test through the JUnit Platform's
 * extension auto-detection; a test of the fallback itself says so with
 * {@link TripsTheGate}.
 *
 * @author follower-fetch authors
 */
public final class GateNeverTrips implements BeforeEachCallback, AfterEachCallback {

	private static final String KEY = "appender";

	@Override
	public void beforeEach(ExtensionContext context) {
		Trips trips = new Trips();
		trips.start();
		assignorLogger().addAppender(trips);
		context.getStore(ExtensionContext.Namespace.create(GateNeverTrips.class)).put(KEY, trips);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		Trips trips = context.getStore(ExtensionContext.Namespace.create(GateNeverTrips.class)).remove(KEY, Trips.class);
		if (trips == null) {
			return;
		}
		assignorLogger().detachAppender(trips);
		trips.stop();
		boolean allowed = context.getTestMethod().map((method) -> method.isAnnotationPresent(TripsTheGate.class))
			.orElse(false) || context.getTestClass().map((type) -> type.isAnnotationPresent(TripsTheGate.class)).orElse(false);
		if (!trips.messages.isEmpty() && !allowed && context.getExecutionException().isEmpty()) {
			throw new AssertionFailedError("The zone-aware assignor fell back to the wrapped strategy's own assignment "
					+ "because its rule broke a guarantee or failed: " + trips.messages.get(0));
		}
	}

	private static Logger assignorLogger() {
		return (Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class);
	}

	/**
	 * Marks a test that trips the gate on purpose.
	 */
	@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
	@java.lang.annotation.Target({ java.lang.annotation.ElementType.METHOD, java.lang.annotation.ElementType.TYPE })
	public @interface TripsTheGate {

	}

	private static final class Trips extends AppenderBase<ILoggingEvent> {

		private final List<String> messages = new CopyOnWriteArrayList<>();

		@Override
		protected void append(ILoggingEvent event) {
			String message = event.getFormattedMessage();
			if (message.contains(ZoneAwareAssignor.BROKEN_GUARANTEE) || message.contains(ZoneAwareAssignor.RULE_FAILED)) {
				this.messages.add(message);
			}
		}

	}

}
