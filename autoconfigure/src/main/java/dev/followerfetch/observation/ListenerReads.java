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

import dev.followerfetch.Policy;

/**
 * Where one listener reads from, as its own consumers report it.
 *
 * @param listenerId the listener id
 * @param policy the listener's fetch policy
 * @param partitions assigned partitions
 * @param zoneLocalPartitions assigned partitions last read from a broker in this zone
 * @param crossZonePartitions assigned partitions last read from a broker in another zone
 * @param placementGaps partitions (of a locality listener) without an in-sync replica in
 * this zone, at most a capped number of them
 * @param placementGapCount how many placement gaps there are in all
 * @param fallbackPartitions partitions (of a locality listener) that have an in-zone
 * in-sync replica but were read across zones for longer than the grace period
 * @param laggingPartitions partitions read from a follower that is not in their ISR
 * @param localBytes bytes received from brokers in this zone since start-up
 * @param remoteBytes bytes received from brokers in other zones since start-up
 * @author follower-fetch authors
 */
public record ListenerReads(String listenerId, Policy policy, int partitions, int zoneLocalPartitions,
		int crossZonePartitions, List<String> placementGaps, int placementGapCount, List<String> fallbackPartitions,
		List<String> laggingPartitions, long localBytes, long remoteBytes) {

	public ListenerReads {
		placementGaps = List.copyOf(placementGaps);
		fallbackPartitions = List.copyOf(fallbackPartitions);
		laggingPartitions = List.copyOf(laggingPartitions);
	}

}
