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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import dev.followerfetch.policy.ConsumerKind;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Reports whether follower fetching works, from the last {@link FollowerFetchSnapshot}. Never
 * calls Kafka: a request only reads the snapshot the background refresher keeps.
 *
 * @author follower-fetch authors
 */
final class FollowerFetchHealthIndicator extends AbstractHealthIndicator {

	private static final Map<ConsumerKind, String> SECTIONS = Map.of(ConsumerKind.LISTENER, "listeners",
			ConsumerKind.STREAMS, "streams", ConsumerKind.BINDING, "bindings", ConsumerKind.OTHER, "otherConsumers",
			ConsumerKind.SHARE, "shareConsumers");

	static final String SHARE_NOTE = "share groups fetch from the leaders: KIP-932 has no follower fetching";

	private final Supplier<FollowerFetchSnapshot> snapshot;

	private final Status degradedStatus;

	FollowerFetchHealthIndicator(Supplier<FollowerFetchSnapshot> snapshot, Status degradedStatus) {
		super("follower-fetch health check failed");
		this.snapshot = snapshot;
		this.degradedStatus = degradedStatus;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		FollowerFetchSnapshot snapshot = this.snapshot.get();
		builder.status(snapshot.state().isDegraded() ? this.degradedStatus : Status.UP);
		builder.withDetail("state", snapshot.state().name());
		if (snapshot.rack() != null) {
			builder.withDetail("rack", snapshot.rack())
				.withDetail("source", Objects.requireNonNullElse(snapshot.source(), "unknown"));
		}
		if (snapshot.state() == FollowerFetchState.DISABLED) {
			return;
		}
		builder.withDetail("brokerRacks", snapshot.brokerRacks()).withDetail("selector", snapshot.selector());
		for (ConsumerKind kind : ConsumerKind.values()) {
			Map<String, ConsumerReads> reads = snapshot.of(kind);
			if (kind == ConsumerKind.LISTENER || !reads.isEmpty()) {
				Map<String, Object> section = new LinkedHashMap<>();
				reads.forEach((name, consumerReads) -> section.put(name, details(consumerReads)));
				builder.withDetail(Objects.requireNonNull(SECTIONS.get(kind)), section);
			}
		}
		if (!snapshot.producers().isEmpty()) {
			Map<String, Object> section = new LinkedHashMap<>();
			snapshot.producers().forEach((name, writes) -> section.put(name, details(writes)));
			builder.withDetail("producers", section);
		}
		if (!snapshot.problems().isEmpty()) {
			builder.withDetail("problems", snapshot.problems().stream().map(Problem::message).toList());
		}
		builder.withDetail("updatedAt", snapshot.takenAt().toString());
	}

	private static Map<String, Object> details(ProducerWrites writes) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("clientIds", writes.clientIds());
		details.put("rackAware", writes.rackAware());
		details.put("localBytes", writes.localBytes());
		details.put("remoteBytes", writes.remoteBytes());
		details.put("topics", writes.topics());
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
