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
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.observation.ProducerMetricsReader.ProducerClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ProducerTopics}: which of the topics a producer factory's producers
 * wrote to are listed and described at the brokers, refresh after refresh.
 *
 * @author follower-fetch authors
 */
class ProducerTopicsTests {

	private final ProducerTopics topics = new ProducerTopics();

	private Instant now = Instant.parse("2026-12-01T00:00:00Z");

	@Test
	void aProducerWithinTheBoundListsEveryTopic() {
		ObservedProducer producer = bound(3, producer("orders", client("producer-1", Map.of("a", 1.0, "b", 2.0))));
		assertThat(producer.topics()).containsExactly("a", "b");
		assertThat(producer.topicsNotListed()).isZero();
	}

	@Test
	void beyondTheBoundTheMostRecentlyWrittenTopicsAreListedAndTheRestCounted() {
		Map<String, Double> records = new LinkedHashMap<>();
		for (int i = 0; i < 30; i++) {
			records.put(String.format("topic-%02d", i), 10.0);
		}
		ObservedProducer first = bound(3, producer("orders", client("producer-1", records)));
		assertThat(first.topics()).as("all written at the first refresh: by name").containsExactly("topic-00", "topic-01",
				"topic-02");
		assertThat(first.topicsNotListed()).isEqualTo(27);
		this.now = this.now.plus(Duration.ofSeconds(30));
		records.put("topic-29", 11.0);
		records.put("topic-17", 12.0);
		ObservedProducer second = bound(3, producer("orders", client("producer-1", records)));
		assertThat(second.topics()).containsExactly("topic-00", "topic-17", "topic-29");
		assertThat(second.topicsNotListed()).isEqualTo(27);
		this.now = this.now.plus(Duration.ofSeconds(30));
		ObservedProducer third = bound(3, producer("orders", client("producer-1", records),
				client("producer-2", Map.of("topic-05", 1.0))));
		assertThat(third.topics()).as("a new client's first records are writes")
			.containsExactly("topic-05", "topic-17", "topic-29");
		assertThat(third.clients()).hasSize(2);
	}

	@Test
	void aClientThatClosesWritesNothingAndAProducerNoLongerListedIsForgotten() {
		ObservedProducer first = bound(1, producer("orders", client("producer-1", Map.of("a", 5.0)),
				client("producer-2", Map.of("b", 5.0))));
		assertThat(first.topics()).containsExactly("a");
		this.now = this.now.plus(Duration.ofSeconds(30));
		bound(1, producer("orders", client("producer-1", Map.of("a", 5.0, "b", 7.0))));
		this.now = this.now.plus(Duration.ofSeconds(30));
		assertThat(bound(1, producer("orders", client("producer-2", Map.of("a", 5.0, "b", 7.0)))).topics())
			.as("a client of another id: its records are new").containsExactly("a");
		this.now = this.now.plus(Duration.ofSeconds(30));
		assertThat(bound(1, producer("orders", client("producer-2", Map.of("a", 5.0, "b", 8.0)))).topics())
			.containsExactly("b");
		this.topics.bound(List.of(), this.now, 1);
		this.now = this.now.plus(Duration.ofSeconds(30));
		assertThat(bound(1, producer("orders", client("producer-2", Map.of("a", 5.0, "b", 8.0)))).topics())
			.as("forgotten, so both seen for the first time").containsExactly("a");
	}

	@Test
	void aBoundOfZeroListsNoTopic() {
		ObservedProducer producer = bound(0, producer("orders", client("producer-1", Map.of("a", 1.0))));
		assertThat(producer.topics()).isEmpty();
		assertThat(producer.topicsNotListed()).isEqualTo(1);
	}

	private ObservedProducer bound(int max, ObservedProducer producer) {
		List<ObservedProducer> bounded = this.topics.bound(List.of(producer), this.now, max);
		assertThat(bounded).singleElement().extracting(ObservedProducer::name).isEqualTo(producer.name());
		return bounded.get(0);
	}

	private static ObservedProducer producer(String name, ProducerClient... clients) {
		return new ObservedProducer(name, false, List.of(clients));
	}

	private static ProducerClient client(String clientId, Map<String, Double> records) {
		return new ProducerClient(clientId, List.of(), Map.copyOf(records));
	}

}
