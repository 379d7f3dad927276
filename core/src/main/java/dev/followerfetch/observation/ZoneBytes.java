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

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.followerfetch.observation.ClientMetrics.NodeTotal;
import org.jspecify.annotations.Nullable;

/**
 * Bytes each observed consumer received from (or producer sent to) brokers in this zone
 * and in others since start-up, accumulated from its clients' per-broker counters as
 * deltas, so the totals stay monotonic when clients are recreated or rebalanced. A
 * counter that is not the one seen last time (another {@code Metric}, another client
 * start time) or that went down started again from zero. An owner no longer listed is
 * forgotten: its totals start from zero if it comes back.
 *
 * @param <K> what the totals are kept for: a consumer, a producer factory
 * @author follower-fetch authors
 */
final class ZoneBytes<K> {

	private final Map<K, Map<Counter, LastTotal>> lastTotals = new HashMap<>();

	private final Map<K, Totals> totals = new ConcurrentHashMap<>();

	/**
	 * Count what one owner's clients received or sent since the last call.
	 * @param owner the consumer or producer factory
	 * @param clients its clients' metrics
	 * @param view the cluster's brokers and racks
	 * @param rack this application's rack, or {@code null}
	 * @return the owner's totals so far
	 */
	synchronized Totals count(K owner, Collection<ClientMetrics> clients, ClusterView view, @Nullable String rack) {
		Totals totals = this.totals.computeIfAbsent(owner, (key) -> new Totals());
		Map<Counter, LastTotal> before = this.lastTotals.getOrDefault(owner, Map.of());
		Map<Counter, LastTotal> now = new HashMap<>();
		for (ClientMetrics client : clients) {
			for (NodeTotal node : client.received()) {
				Counter counter = new Counter(client.clientId(), node.brokerId());
				now.put(counter, new LastTotal(node.counter(), node.total()));
				LastTotal last = before.get(counter);
				double delta = (last != null && Objects.equals(last.counter(), node.counter())
						&& node.total() >= last.value()) ? node.total() - last.value() : node.total();
				if (!view.brokerRacks().containsKey(node.brokerId())) {
					// a coordinator connection, or a broker the last refresh did not see: its
					// total is kept so that its bytes are never counted twice, but not counted
					continue;
				}
				if (rack != null && rack.equals(view.rackOf(node.brokerId()))) {
					totals.local += delta;
				}
				else {
					totals.remote += delta;
				}
			}
		}
		this.lastTotals.put(owner, now);
		return totals;
	}

	/**
	 * Forget the owners not listed any more, so that totals do not outlive their clients.
	 * @param listed the owners listed now
	 */
	synchronized void retain(Set<K> listed) {
		this.lastTotals.keySet().retainAll(listed);
		this.totals.keySet().retainAll(listed);
	}

	/**
	 * Whether one owner's totals are kept: it was counted and is still listed.
	 * @param owner the consumer or producer factory
	 * @return {@code true} when its totals are kept
	 */
	boolean counts(K owner) {
		return this.totals.containsKey(owner);
	}

	/**
	 * The totals of one consumer, for the meters.
	 * @param consumer the consumer's key
	 * @param local {@code true} for bytes from this zone
	 * @return the byte count
	 */
	double total(K consumer, boolean local) {
		Totals totals = this.totals.get(consumer);
		return (totals != null) ? (local ? totals.local : totals.remote) : 0;
	}

	private record Counter(String clientId, int brokerId) {

	}

	private record LastTotal(@Nullable Object counter, double value) {

	}

	/**
	 * One consumer's byte totals.
	 */
	static final class Totals {

		private volatile double local;

		private volatile double remote;

		long local() {
			return (long) this.local;
		}

		long remote() {
			return (long) this.remote;
		}

	}

}
