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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;

/**
 * What the brokers said in one refresh: their racks, whether they run a rack-aware
 * replica selector, and where each partition's replicas are.
 *
 * @param brokerRacks rack by broker id; a broker without a rack maps to {@code null}; a
 * broker that is down but still holds replicas of the partitions asked about maps to the
 * rack it last had
 * @param selectors rack-awareness of each broker's replica selector
 * @param selectorProblem why the selectors could not be read, or {@code null}
 * @param partitions placement of the partitions asked about
 * @param topicProblems why a topic asked about has no placement, by topic name
 * @param unanswered brokers this application could not reach in this refresh: asked for
 * their configuration directly, they did not answer in time
 * @author follower-fetch authors
 */
record ClusterView(Map<Integer, String> brokerRacks, Map<Integer, Selector> selectors, String selectorProblem,
		Map<TopicPartition, Placement> partitions, Map<String, String> topicProblems, Set<Integer> unanswered) {

	/**
	 * Nothing known yet.
	 */
	static final ClusterView UNKNOWN = new ClusterView(Map.of(), Map.of(), null, Map.of(), Map.of());

	ClusterView {
		unanswered = Set.copyOf(unanswered);
	}

	ClusterView(Map<Integer, String> brokerRacks, Map<Integer, Selector> selectors, String selectorProblem,
			Map<TopicPartition, Placement> partitions, Map<String, String> topicProblems) {
		this(brokerRacks, selectors, selectorProblem, partitions, topicProblems, Set.of());
	}

	Set<String> racks() {
		return this.brokerRacks.values().stream().filter((rack) -> rack != null).collect(Collectors.toSet());
	}

	String rackOf(int brokerId) {
		return this.brokerRacks.get(brokerId);
	}

	/**
	 * A broker's {@code replica.selector.class}.
	 *
	 * @param className the configured class, or {@code null} for the default
	 * @param rackAware whether it selects by rack
	 */
	record Selector(String className, boolean rackAware) {

	}

	/**
	 * Where a partition's replicas are.
	 *
	 * @param leader the leader's broker id, or -1 when there is none
	 * @param replicas every replica's broker id
	 * @param isr the in-sync replicas' broker ids
	 */
	record Placement(int leader, List<Integer> replicas, Set<Integer> isr) {

	}

}
