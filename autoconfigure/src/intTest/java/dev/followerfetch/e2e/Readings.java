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
package dev.followerfetch.e2e;

import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.awaitility.core.ConditionFactory;

/**
 * Waits for one reading (a health answer, a snapshot, a group's facts) that passes every
 * assertion a test makes on it. The health and the meters show the monitor's last
 * snapshot, refreshed in the background: one that meets a condition on some fields may
 * predate what the test asserts on others (a partition without its first fetch answer is
 * counted neither in nor out of the zone yet), so a test asserts on the reading it waited
 * for, and only once every assertion holds for that same reading.
 *
 * @author follower-fetch authors
 */
final class Readings {

	private Readings() {
	}

	/**
	 * Take readings until one passes the assertions, and return it.
	 * @param <T> the type of a reading
	 * @param await how long and how often to try, from {@code Awaitility.await()}
	 * @param read takes one reading
	 * @param assertions the assertions, all on that one reading
	 * @return the first reading that passed them
	 */
	static <T> T awaitReading(ConditionFactory await, Callable<T> read, Consumer<? super T> assertions) {
		AtomicReference<T> passed = new AtomicReference<>();
		await.untilAsserted(() -> {
			T reading = read.call();
			assertions.accept(reading);
			passed.set(reading);
		});
		return passed.get();
	}

}
