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
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import dev.followerfetch.ClientRack;
import org.apache.kafka.common.Node;
import org.jspecify.annotations.Nullable;

/**
 * Which brokers one cluster's inspector asks for their {@code replica.selector.class},
 * and what they said. The setting is static (a broker reads it at start-up), and its
 * answer is the broker's whole configuration, so a broker is asked once, then again when
 * it comes back after missing from the cluster (a restart), changes address, or after 10
 * to 12.5 minutes (a restart between two inspections goes unseen otherwise); a broker
 * that did not answer is asked at the next inspection. The brokers of this application's
 * zone are asked at every inspection: the request goes to the broker itself, so it also
 * tells whether the brokers its LOCALITY consumers are sent to can be reached, over an
 * in-zone connection.
 *
 * @author follower-fetch authors
 */
final class BrokerSelectors {

	private static final long MAX_AGE = Duration.ofMinutes(10).toNanos();

	private final Map<Integer, Known> known = new HashMap<>();

	private final LongSupplier nanoTime;

	private final RandomGenerator random;

	private Set<Integer> lastSeen = Set.of();

	BrokerSelectors(LongSupplier nanoTime, RandomGenerator random) {
		this.nanoTime = nanoTime;
		this.random = random;
	}

	/**
	 * Start an inspection: the brokers to ask now.
	 * @param nodes the brokers the cluster describes now
	 * @param zone this application's zone, or {@code null} when it has none
	 * @return the ids of the brokers to ask
	 */
	synchronized Set<Integer> toAsk(Collection<Node> nodes, @Nullable String zone) {
		long now = this.nanoTime.getAsLong();
		Set<Integer> ask = new TreeSet<>();
		Set<Integer> seen = new HashSet<>();
		for (Node node : nodes) {
			seen.add(node.id());
			Known last = this.known.get(node.id());
			boolean inZone = zone != null && zone.equals(ClientRack.zoneOf(node.rack()));
			if (last == null || inZone || !last.address().equals(address(node)) || !this.lastSeen.contains(node.id())
					|| now - last.readAt() >= last.maxAge()) {
				ask.add(node.id());
			}
		}
		this.lastSeen = seen;
		return ask;
	}

	/**
	 * Record a broker's answer.
	 * @param node the broker
	 * @param selector its selector, or {@code null} when it refused to say
	 * @param problem why it refused, or {@code null}
	 */
	synchronized void answered(Node node, ClusterView.@Nullable Selector selector, @Nullable String problem) {
		long maxAge = MAX_AGE + this.random.nextLong(MAX_AGE / 4 + 1);
		this.known.put(node.id(), new Known(address(node), selector, problem, this.nanoTime.getAsLong(), maxAge));
	}

	/**
	 * Record that a broker did not answer in time or could not be reached: it is asked
	 * again at the next inspection, and what it said before is no longer taken as known.
	 * @param node the broker
	 */
	synchronized void unanswered(Node node) {
		this.known.remove(node.id());
	}

	/**
	 * The selectors known of some brokers.
	 * @param brokers the brokers' ids
	 * @return the selector of each broker that said, by broker id
	 */
	synchronized Map<Integer, ClusterView.Selector> selectors(Collection<Integer> brokers) {
		Map<Integer, ClusterView.Selector> selectors = new HashMap<>();
		brokers.forEach((broker) -> {
			Known known = this.known.get(broker);
			if (known != null && known.selector() != null) {
				selectors.put(broker, known.selector());
			}
		});
		return selectors;
	}

	/**
	 * Why some brokers refused to say, when they last were asked.
	 * @param brokers the brokers' ids
	 * @return the refusals, by broker id
	 */
	synchronized Map<Integer, String> refusals(Collection<Integer> brokers) {
		Map<Integer, String> problems = new TreeMap<>();
		brokers.forEach((broker) -> {
			Known known = this.known.get(broker);
			if (known != null && known.problem() != null) {
				problems.put(broker, known.problem());
			}
		});
		return problems;
	}

	private static String address(Node node) {
		return node.host() + ":" + node.port();
	}

	private record Known(String address, ClusterView.@Nullable Selector selector, @Nullable String problem,
			long readAt, long maxAge) {

	}

}
