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

import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import dev.followerfetch.assignment.ZoneAwareAssignor.Leadership;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.jspecify.annotations.Nullable;

/**
 * The zone-aware assignors of one application, by client id, and what they remember of
 * the brokers. Kafka creates assignors by class name inside each consumer: the starter
 * creates one registry per application context and hands it to every consumer it
 * configures as the consumer setting {@value ZoneAwareAssignor#REGISTRY_CONFIG}, where
 * the assignor finds it; the observation asks it what those assignors know. Two
 * applications in one JVM, whose consumers may share client ids, keep apart. Holds the
 * assignors weakly: a closed consumer's leaves with it. Thread-safe.
 *
 * @author follower-fetch authors
 */
public final class ZoneAwareAssignors {

	private final Map<String, WeakReference<ZoneAwareAssignor>> byClientId = new ConcurrentHashMap<>();

	/**
	 * The rack of each broker, by cluster id: bounded by the brokers of the clusters these
	 * assignors' consumers read.
	 */
	private final Map<String, Map<Integer, String>> brokerRacks = new ConcurrentHashMap<>();

	/**
	 * Register the assignor of a consumer; it replaces one registered before with the
	 * same client id.
	 */
	void register(String clientId, ZoneAwareAssignor assignor) {
		this.byClientId.values().removeIf((reference) -> reference.get() == null);
		this.byClientId.put(clientId, new WeakReference<>(assignor));
	}

	/**
	 * The groups these assignors' consumers led in their last rebalance, with what the
	 * zone-aware rule knew of each.
	 * @return one leadership per consumer that leads its group, by client id
	 */
	public Map<String, Leadership> leaderships() {
		Map<String, Leadership> led = new TreeMap<>();
		this.byClientId.forEach((clientId, reference) -> {
			ZoneAwareAssignor assignor = reference.get();
			Leadership leadership = (assignor != null) ? assignor.leadership() : null;
			if (leadership != null) {
				led.put(clientId, leadership);
			}
		});
		return led;
	}

	/**
	 * Let the next rebalance the consumer of this client id leads move owned partitions
	 * to members in their leader's zone; otherwise, under the cooperative protocol, a
	 * sticky strategy's members keep what they own as far as its counts allow.
	 * @param clientId the client id of a consumer that led its group
	 * @return whether such a consumer is registered
	 */
	public boolean realignNext(String clientId) {
		ZoneAwareAssignor assignor = assignor(clientId);
		if (assignor != null) {
			assignor.realignNext();
		}
		return assignor != null;
	}

	/**
	 * Whether the group of the consumer of this client id chose the zone-aware assignor
	 * at its last rebalance: its members all offer it, and it came first among the
	 * strategies they share. From the moment the consumer joins again until that
	 * rebalance completes, {@code false}.
	 * @param clientId the client id of a consumer
	 * @return whether its group chose the zone-aware assignor, or empty when no
	 * zone-aware assignor of that client id is registered
	 */
	public Optional<Boolean> chosen(String clientId) {
		ZoneAwareAssignor assignor = assignor(clientId);
		return (assignor != null) ? Optional.of(assignor.chosen()) : Optional.empty();
	}

	/**
	 * Whether one group chose the zone-aware assignor of the consumer of this client id
	 * at its last rebalance, as {@link #chosen(String)} says: empty also when that
	 * consumer is in another group (consumers of several groups may share a client id).
	 * @param clientId the client id of a consumer
	 * @param groupId the group it is known to be in
	 * @return whether the group chose the zone-aware assignor, or empty when no
	 * zone-aware assignor of that client id in that group is registered
	 */
	public Optional<Boolean> chosen(String clientId, String groupId) {
		ZoneAwareAssignor assignor = assignor(clientId);
		return (assignor != null && assignor.groupId().equals(groupId)) ? Optional.of(assignor.chosen())
				: Optional.empty();
	}

	/**
	 * The racks these assignors' consumers have seen of one cluster's brokers, a broker's
	 * remembered while it is down (its metadata then carries no rack).
	 * @param clusterId the cluster id
	 * @return the rack of each broker, by broker id
	 */
	public Map<Integer, String> brokerRacks(String clusterId) {
		Map<Integer, String> racks = this.brokerRacks.get(clusterId);
		return (racks != null) ? Map.copyOf(racks) : Map.of();
	}

	/**
	 * The rack of every broker of this metadata's cluster that these assignors' consumers
	 * have seen, this metadata's remembered from now on; metadata without a cluster id
	 * has only its own.
	 */
	Map<Integer, String> brokerRacks(Cluster metadata) {
		String cluster = metadata.clusterResource().clusterId();
		Map<Integer, String> racks = (cluster != null)
				? this.brokerRacks.computeIfAbsent(cluster, (key) -> new ConcurrentHashMap<>()) : new HashMap<>();
		for (Node node : metadata.nodes()) {
			if (node.hasRack()) {
				racks.put(node.id(), node.rack());
			}
		}
		return racks;
	}

	private @Nullable ZoneAwareAssignor assignor(String clientId) {
		WeakReference<ZoneAwareAssignor> reference = this.byClientId.get(clientId);
		return (reference != null) ? reference.get() : null;
	}

}
