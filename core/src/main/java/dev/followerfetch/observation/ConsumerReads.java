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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.Policy;
import dev.followerfetch.policy.ConsumerKind;
import org.jspecify.annotations.Nullable;

/**
 * Where one listener, Kafka Streams application, binding or other consumer of the
 * application reads from, as its own consumers report it.
 *
 * @param kind how the application consumes
 * @param name the listener id, application id, binding name or client id
 * @param policy the consumers' fetch policy
 * @param partitions assigned partitions
 * @param zoneLocalPartitions assigned partitions last read from a broker in this zone
 * @param crossZonePartitions assigned partitions last read from a broker in another zone
 * @param zoneLocalLeaderPartitions those of the zone-local partitions read from their
 * leader (the rest are read from an in-sync follower in this zone); a partition whose
 * read location is not known yet (no fetch answer since it was assigned) is in none of
 * the three counts
 * @param placementGaps partitions (of a locality consumer) without an in-sync replica in
 * this zone, at most a capped number of them
 * @param placementGapCount how many placement gaps there are in all
 * @param fallbackPartitions partitions (of a locality consumer) that have an in-zone
 * in-sync replica but were read across zones for longer than the grace period
 * @param laggingPartitions partitions read from a follower that is not in their ISR
 * @param uncoveredPartitions partitions (of a consumer the starter did not configure and
 * that declared no freshness policy) that have an in-zone in-sync replica but were read
 * across zones for longer than the grace period
 * @param unreachablePartitions partitions (of a locality consumer the starter configured)
 * whose in-zone replica the consumer is sent to (the in-sync follower the leader names, or
 * the leader) has not been reached by this application for longer than the grace period:
 * the consumer waits for it
 * @param localBytes bytes received from brokers in this zone since start-up
 * @param remoteBytes bytes received from brokers in other zones since start-up
 * @param assignment which assignment is in effect for their consumer group:
 * {@code zone-aware}, the classic protocol's strategy name (for example {@code range},
 * {@code cooperative-sticky}, {@code stream}), {@code broker} for the consumer group
 * protocol; {@code null} when unknown
 * @param details further facts about these consumers shown in the health details, for
 * example their {@code client.rack}
 * @author follower-fetch authors
 */
public record ConsumerReads(ConsumerKind kind, String name, Policy policy, int partitions, int zoneLocalPartitions,
		int crossZonePartitions, int zoneLocalLeaderPartitions, List<String> placementGaps, int placementGapCount,
		List<String> fallbackPartitions, List<String> laggingPartitions, List<String> uncoveredPartitions,
		List<String> unreachablePartitions, long localBytes, long remoteBytes, @Nullable String assignment,
		Map<String, Object> details) {

	public ConsumerReads {
		details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
		placementGaps = List.copyOf(placementGaps);
		fallbackPartitions = List.copyOf(fallbackPartitions);
		laggingPartitions = List.copyOf(laggingPartitions);
		uncoveredPartitions = List.copyOf(uncoveredPartitions);
		unreachablePartitions = List.copyOf(unreachablePartitions);
	}

}
