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

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.policy.ConsumerKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;

/**
 * Tests for {@link HealthDetails}: the sections that could grow without bound stay
 * bounded, with a count of what they leave out, and a stale snapshot says why.
 *
 * @author follower-fetch authors
 */
class HealthDetailsTests {

	private static final Instant TAKEN_AT = Instant.parse("2026-12-01T00:00:00Z");

	@Test
	void consumersByClientIdAreListedUpToTheBoundThoseInADegradedConditionFirstAndTheRestCounted() {
		Map<String, ConsumerReads> others = new LinkedHashMap<>();
		for (int i = 0; i < HealthDetails.MAX_LISTED_CLIENTS + 30; i++) {
			String clientId = String.format("consumer-%03d", i);
			others.put(clientId, reads(ConsumerKind.OTHER, clientId, List.of()));
		}
		others.put("zz-uncovered", reads(ConsumerKind.OTHER, "zz-uncovered", List.of("t-0")));
		Map<String, ConsumerReads> shares = Map.of("share-1", reads(ConsumerKind.SHARE, "share-1", List.of()));
		Map<String, Object> details = HealthDetails.of(snapshot(FollowerFetchState.UNCOVERED,
				Map.of(ConsumerKind.OTHER, others, ConsumerKind.SHARE, shares), Map.of()));
		assertThat(details).extractingByKey("otherConsumers", MAP)
			.hasSize(HealthDetails.MAX_LISTED_CLIENTS)
			.containsKeys("zz-uncovered", "consumer-000", "consumer-098")
			.doesNotContainKeys("consumer-099", "consumer-129");
		assertThat(details).containsEntry("otherConsumersNotListed", 31)
			.doesNotContainKey("shareConsumersNotListed")
			.extractingByKey("shareConsumers", MAP)
			.containsOnlyKeys("share-1");
	}

	@Test
	void aSectionWithinTheBoundHasNoCountOfConsumersLeftOut() {
		Map<String, Object> details = HealthDetails.of(snapshot(FollowerFetchState.ACTIVE,
				Map.of(ConsumerKind.OTHER, Map.of("a", reads(ConsumerKind.OTHER, "a", List.of()))), Map.of()));
		assertThat(details).doesNotContainKey("otherConsumersNotListed")
			.extractingByKey("otherConsumers", MAP)
			.containsOnlyKeys("a");
	}

	@Test
	void aProducerFactorysTopicsLeftOutAreCounted() {
		ProducerWrites bounded = new ProducerWrites("kafkaProducerFactory", List.of("producer-1"), false, 10, 20,
				List.of("t-1", "t-2"), 6, 6, 18);
		ProducerWrites all = new ProducerWrites("other", List.of("producer-2"), false, 10, 20, List.of("t-1"), 3, 3);
		Map<String, Object> details = HealthDetails
			.of(snapshot(FollowerFetchState.ACTIVE, Map.of(), Map.of(bounded.name(), bounded, all.name(), all)));
		assertThat(details).extractingByKey("producers", MAP)
			.extractingByKey("kafkaProducerFactory", MAP)
			.containsEntry("topics", List.of("t-1", "t-2"))
			.containsEntry("topicsNotListed", 18);
		assertThat(details).extractingByKey("producers", MAP)
			.extractingByKey("other", MAP)
			.doesNotContainKey("topicsNotListed");
	}

	@Test
	void aStaleSnapshotShowsTheStateItHadItsLastRefreshErrorAndTheTimeItWasTaken() {
		FollowerFetchSnapshot stale = snapshot(FollowerFetchState.ACTIVE, Map.of(), Map.of())
			.stale(new FollowerFetchSnapshot.Stale(FollowerFetchState.ACTIVE, "OutOfMemoryError: Java heap space",
					null));
		Map<String, Object> details = HealthDetails.of(stale);
		assertThat(details).containsEntry("state", "STALE")
			.containsEntry("lastState", "ACTIVE")
			.containsEntry("lastRefreshError", "OutOfMemoryError: Java heap space")
			.containsEntry("updatedAt", TAKEN_AT.toString())
			.doesNotContainKey("refreshRunningSince")
			.containsKey("listeners");
		assertThat(details.keySet()).startsWith("state", "lastState", "lastRefreshError");
	}

	private static FollowerFetchSnapshot snapshot(FollowerFetchState state,
			Map<ConsumerKind, Map<String, ConsumerReads>> consumers, Map<String, ProducerWrites> producers) {
		return new FollowerFetchSnapshot(state, "az-b", "property", Set.of("az-a", "az-b", "az-c"), "rack-aware",
				consumers, List.of(), TAKEN_AT, producers);
	}

	private static ConsumerReads reads(ConsumerKind kind, String name, List<String> uncovered) {
		return new ConsumerReads(kind, name, (kind == ConsumerKind.SHARE) ? Policy.FRESHNESS : Policy.LOCALITY, 1, 1,
				0, 0, List.of(), 0, List.of(), List.of(), uncovered, List.of(), 0, 0, null, Map.of());
	}

}
