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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

import dev.followerfetch.BootApis;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reads the {@code followerFetch} health details of an application under test while it
 * waits for a state, and remembers every state it saw.
 *
 * @author follower-fetch authors
 */
final class HealthWatch {

	private final ConfigurableApplicationContext context;

	private final Duration timeout;

	private final List<String> seen = new ArrayList<>();

	HealthWatch(ConfigurableApplicationContext context, Duration timeout) {
		this.context = context;
		this.timeout = timeout;
	}

	/**
	 * Wait for the state with details of the analytics listener that satisfy a condition.
	 * @param state the state
	 * @param analytics the condition on the analytics listener's details
	 * @return the health details that met both
	 */
	Map<String, Object> awaitState(String state, Predicate<Map<String, Object>> analytics) {
		return await("followerFetch state " + state).atMost(this.timeout)
			.pollInterval(Duration.ofMillis(50))
			.until(this::details, (details) -> state.equals(details.get("state"))
					&& analytics.test(listener(details, "analytics")));
	}

	/**
	 * Wait for the state with health details that pass every assertion, all in that one
	 * reading: a snapshot can be in the state, and meet a condition on some fields, before
	 * the fields asserted next are true.
	 * @param state the state
	 * @param details the assertions on the whole health details
	 * @return the health details that passed them
	 */
	Map<String, Object> awaitAsserted(String state, Consumer<Map<String, Object>> details) {
		return Readings.awaitReading(await("followerFetch state " + state).atMost(this.timeout)
			.pollInterval(Duration.ofMillis(50)), this::details, (reading) -> {
				assertThat(reading).containsEntry("state", state);
				details.accept(reading);
			});
	}

	private Map<String, Object> details() {
		Map<String, Object> details = BootApis.health(this.context).details();
		String state = String.valueOf(details.get("state"));
		if (this.seen.isEmpty() || !this.seen.get(this.seen.size() - 1).equals(state)) {
			this.seen.add(state);
		}
		return details;
	}

	/**
	 * The states seen, each change once, in order.
	 * @return the states
	 */
	List<String> seen() {
		return List.copyOf(this.seen);
	}

	/**
	 * One listener's part of the health details.
	 * @param details the health details
	 * @param id the listener id
	 * @return its details, or {@code null} when the details list no such listener
	 */
	@SuppressWarnings("unchecked")
	static Map<String, Object> listener(Map<String, Object> details, String id) {
		Map<String, Object> listeners = (Map<String, Object>) details.get("listeners");
		return (listeners != null) ? (Map<String, Object>) listeners.get(id) : null;
	}

	/**
	 * The details of a health response.
	 * @param health the parsed health response
	 * @return its details
	 */
	@SuppressWarnings("unchecked")
	static Map<String, Object> details(Map<String, Object> health) {
		return (Map<String, Object>) health.get("details");
	}

	/**
	 * Whether a consumer's health details count these partitions in and out of the zone.
	 * @param reads the consumer's details, or {@code null}
	 * @param zoneLocal the expected in-zone partitions
	 * @param crossZone the expected cross-zone partitions
	 * @return whether they match
	 */
	static boolean reads(Map<String, Object> reads, int zoneLocal, int crossZone) {
		return reads != null && Integer.valueOf(zoneLocal).equals(reads.get("zoneLocalPartitions"))
				&& Integer.valueOf(crossZone).equals(reads.get("crossZonePartitions"));
	}

	/**
	 * Bytes one consumer received from this zone or others, as its meter says.
	 * @param registry the meter registry
	 * @param name the listener id, application id or binding name
	 * @param kind the meter's kind tag
	 * @param zone {@code local} or {@code remote}
	 * @return the bytes, 0 before the meter exists
	 */
	static double bytes(MeterRegistry registry, String name, String kind, String zone) {
		FunctionCounter counter = registry.find("follower.fetch.bytes")
			.tags("listener", name, "kind", kind, "zone", zone)
			.functionCounter();
		return (counter != null) ? counter.count() : 0;
	}

}
