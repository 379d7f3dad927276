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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import dev.followerfetch.policy.ConsumerKind;

/**
 * The details of the {@code followerFetch} health contributor, as the contract names them,
 * from one snapshot. Both Spring Boot lines' health indicators show them, and they speak to
 * no Boot API.
 *
 * @author follower-fetch authors
 */
public final class HealthDetails {

	/**
	 * Why share consumers read from the leaders, in each share consumer's details.
	 */
	public static final String SHARE_NOTE = "share groups fetch from the leaders: KIP-932 has no follower fetching";

	/**
	 * How many consumers the sections by client id ({@code otherConsumers},
	 * {@code shareConsumers}) list at most, as many as have meters: client ids can be
	 * generated. The rest are counted in {@code otherConsumersNotListed} and
	 * {@code shareConsumersNotListed}.
	 */
	public static final int MAX_LISTED_CLIENTS = 100;

	private static final Map<ConsumerKind, String> SECTIONS = Map.of(ConsumerKind.LISTENER, "listeners",
			ConsumerKind.STREAMS, "streams", ConsumerKind.BINDING, "bindings", ConsumerKind.OTHER, "otherConsumers",
			ConsumerKind.SHARE, "shareConsumers");

	private HealthDetails() {
	}

	/**
	 * The details of one snapshot, in the order the health endpoint shows them.
	 * @param snapshot the snapshot
	 * @return the details
	 */
	public static Map<String, Object> of(FollowerFetchSnapshot snapshot) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("state", snapshot.state().name());
		FollowerFetchSnapshot.Stale stale = snapshot.stale();
		if (stale != null) {
			details.put("lastState", stale.lastState().name());
			if (stale.lastRefreshError() != null) {
				details.put("lastRefreshError", stale.lastRefreshError());
			}
			if (stale.refreshRunningSince() != null) {
				details.put("refreshRunningSince", stale.refreshRunningSince().toString());
			}
		}
		if (snapshot.rack() != null) {
			details.put("rack", snapshot.rack());
			details.put("source", Objects.requireNonNullElse(snapshot.source(), "unknown"));
		}
		if (snapshot.state() == FollowerFetchState.DISABLED) {
			return details;
		}
		details.put("brokerRacks", snapshot.brokerRacks());
		details.put("selector", snapshot.selector());
		for (ConsumerKind kind : ConsumerKind.values()) {
			Map<String, ConsumerReads> reads = snapshot.of(kind);
			if (kind == ConsumerKind.LISTENER || !reads.isEmpty()) {
				String name = Objects.requireNonNull(SECTIONS.get(kind));
				Collection<ConsumerReads> listed = byClientId(kind) ? listed(reads.values()) : reads.values();
				Map<String, Object> section = new LinkedHashMap<>();
				listed.forEach((consumerReads) -> section.put(consumerReads.name(), details(consumerReads)));
				details.put(name, section);
				if (listed.size() < reads.size()) {
					details.put(name + "NotListed", reads.size() - listed.size());
				}
			}
		}
		if (!snapshot.producers().isEmpty()) {
			Map<String, Object> section = new LinkedHashMap<>();
			snapshot.producers().forEach((name, writes) -> section.put(name, details(writes)));
			details.put("producers", section);
		}
		if (!snapshot.problems().isEmpty()) {
			details.put("problems", snapshot.problems().stream().map(Problem::message).toList());
		}
		details.put("updatedAt", snapshot.takenAt().toString());
		return details;
	}

	private static boolean byClientId(ConsumerKind kind) {
		return kind == ConsumerKind.OTHER || kind == ConsumerKind.SHARE;
	}

	/**
	 * At most {@link #MAX_LISTED_CLIENTS} consumers: those the state is about first (with
	 * partitions in a degraded condition), then by name.
	 */
	private static Collection<ConsumerReads> listed(Collection<ConsumerReads> reads) {
		if (reads.size() <= MAX_LISTED_CLIENTS) {
			return reads;
		}
		Set<ConsumerReads> listed = new TreeSet<>(Comparator.comparing(ConsumerReads::name));
		reads.stream()
			.sorted(Comparator.comparing((ConsumerReads read) -> !degraded(read)).thenComparing(ConsumerReads::name))
			.limit(MAX_LISTED_CLIENTS)
			.forEach(listed::add);
		return listed;
	}

	private static boolean degraded(ConsumerReads reads) {
		return !reads.uncoveredPartitions().isEmpty() || !reads.fallbackPartitions().isEmpty()
				|| !reads.laggingPartitions().isEmpty() || !reads.unreachablePartitions().isEmpty();
	}

	private static Map<String, Object> details(ProducerWrites writes) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("clientIds", writes.clientIds());
		details.put("rackAware", writes.rackAware());
		details.put("localBytes", writes.localBytes());
		details.put("remoteBytes", writes.remoteBytes());
		details.put("topics", writes.topics());
		if (writes.topicsNotListed() > 0) {
			details.put("topicsNotListed", writes.topicsNotListed());
		}
		details.put("partitions", writes.partitions());
		details.put("keylessPartitions", writes.keylessPartitions());
		details.put("keylessPartitionShare", Math.round(writes.keylessPartitionShare() * 1000) / 1000.0);
		return details;
	}

	private static Map<String, Object> details(ConsumerReads reads) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("policy", reads.policy().name());
		details.put("partitions", reads.partitions());
		details.put("zoneLocalPartitions", reads.zoneLocalPartitions());
		details.put("crossZonePartitions", reads.crossZonePartitions());
		details.put("zoneLocalLeaderPartitions", reads.zoneLocalLeaderPartitions());
		if (reads.assignment() != null) {
			details.put("assignment", reads.assignment());
		}
		details.put("placementGaps", reads.placementGaps());
		if (reads.placementGapCount() > reads.placementGaps().size()) {
			details.put("placementGapCount", reads.placementGapCount());
		}
		if (!reads.fallbackPartitions().isEmpty()) {
			details.put("fallbackPartitions", reads.fallbackPartitions());
		}
		if (!reads.unreachablePartitions().isEmpty()) {
			details.put("unreachablePartitions", reads.unreachablePartitions());
		}
		if (!reads.laggingPartitions().isEmpty()) {
			details.put("laggingPartitions", reads.laggingPartitions());
		}
		if (!reads.uncoveredPartitions().isEmpty()) {
			details.put("uncoveredPartitions", reads.uncoveredPartitions());
		}
		details.put("localBytes", reads.localBytes());
		details.put("remoteBytes", reads.remoteBytes());
		details.putAll(reads.details());
		if (reads.kind() == ConsumerKind.SHARE) {
			details.put("note", SHARE_NOTE);
		}
		return details;
	}

}
