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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import dev.followerfetch.observation.ProducerMetricsReader.ProducerClient;

/**
 * Which topics of each producer factory the monitor lists and describes at the brokers: a
 * producer's metrics keep every topic it ever wrote to, so at most a bound of them, the
 * most recently written first (a topic is written at a refresh that sees its record count
 * change, or sees it for the first time), then by name. Remembers only the topics and
 * producers the last refresh listed.
 *
 * @author follower-fetch authors
 */
final class ProducerTopics {

	private Map<String, Map<ClientTopic, Double>> records = Map.of();

	private Map<String, Map<String, Instant>> written = Map.of();

	/**
	 * The producer factories with their topics bounded.
	 * @param producers the producer factories, each with every topic its producers wrote to
	 * @param now the time of this refresh
	 * @param max how many topics each lists at most
	 * @return the producer factories, in the same order, each listing at most {@code max}
	 * topics
	 */
	synchronized List<ObservedProducer> bound(List<ObservedProducer> producers, Instant now, int max) {
		Map<String, Map<ClientTopic, Double>> records = new HashMap<>();
		Map<String, Map<String, Instant>> written = new HashMap<>();
		List<ObservedProducer> bounded = new ArrayList<>(producers.size());
		for (ObservedProducer producer : producers) {
			Map<ClientTopic, Double> before = this.records.getOrDefault(producer.name(), Map.of());
			Map<String, Instant> writtenBefore = this.written.getOrDefault(producer.name(), Map.of());
			Map<ClientTopic, Double> counts = records.computeIfAbsent(producer.name(), (name) -> new HashMap<>());
			Map<String, Instant> lastWritten = written.computeIfAbsent(producer.name(), (name) -> new HashMap<>());
			for (ProducerClient client : producer.clients()) {
				client.topicRecords().forEach((topic, count) -> {
					ClientTopic key = new ClientTopic(client.clientId(), topic);
					counts.put(key, count);
					Instant known = writtenBefore.get(topic);
					Instant at = (known == null || !Objects.equals(before.get(key), count)) ? now : known;
					lastWritten.merge(topic, at, (one, other) -> one.isAfter(other) ? one : other);
				});
			}
			if (producer.topics().size() <= max) {
				bounded.add(producer);
				continue;
			}
			Set<String> listed = producer.topics()
				.stream()
				.sorted(Comparator
					.comparing((String topic) -> lastWritten.getOrDefault(topic, Instant.MIN), Comparator.reverseOrder())
					.thenComparing(Comparator.naturalOrder()))
				.limit(max)
				.collect(Collectors.toSet());
			bounded.add(producer.listing(listed));
		}
		this.records = records;
		this.written = written;
		return bounded;
	}

	/**
	 * One topic of one producer client.
	 *
	 * @param clientId the client's id
	 * @param topic the topic
	 */
	private record ClientTopic(String clientId, String topic) {

	}

}
