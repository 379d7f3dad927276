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
package dev.followerfetch.sample;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.followerfetch.observation.FollowerFetchSnapshot;
import dev.followerfetch.observation.ConsumerReads;

/**
 * The table the sample prints: follower-fetch's state, then one row per listener with
 * where it reads from, how many bytes came from this zone and from others, and its median
 * end-to-end latency.
 *
 * @author follower-fetch authors
 */
final class ReadLocalityTable {

	private static final String ROW = "  %-10s %-10s %10s %8s %11s %12s %13s %12s%n";

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

	private ReadLocalityTable() {
	}

	/**
	 * Render a snapshot and the listeners' latencies as text.
	 * @param snapshot what follower-fetch last observed
	 * @param latencies the median latency of each listener that has received records
	 * @return the table, every line ending with a line separator
	 */
	static String render(FollowerFetchSnapshot snapshot, Map<String, Duration> latencies) {
		StringBuilder table = new StringBuilder();
		table.append(String.format(Locale.ROOT, "%n%s follower-fetch %s%s%n", time(snapshot), snapshot.state(),
				rackAndBrokers(snapshot)));
		snapshot.problems().forEach((problem) -> table.append(String.format(Locale.ROOT, "  ! %s%n", problem)));
		table.append(String.format(Locale.ROOT, ROW, "listener", "policy", "partitions", "in-zone", "cross-zone",
				"bytes local", "bytes remote", "p50 latency"));
		Set<String> listenerIds = new TreeSet<>(snapshot.listeners().keySet());
		listenerIds.addAll(latencies.keySet());
		for (String listenerId : listenerIds) {
			table.append(String.format(Locale.ROOT, ROW,
					row(listenerId, snapshot.listeners().get(listenerId), latencies.get(listenerId))));
		}
		return table.toString();
	}

	private static String time(FollowerFetchSnapshot snapshot) {
		return LocalTime.ofInstant(snapshot.takenAt(), ZoneId.systemDefault()).format(TIME);
	}

	private static String rackAndBrokers(FollowerFetchSnapshot snapshot) {
		String rack = (snapshot.rack() != null) ? "rack " + snapshot.rack() + " from " + snapshot.source() : null;
		String brokers = (!snapshot.brokerRacks().isEmpty())
				? "brokers in " + String.join(", ", snapshot.brokerRacks()) : null;
		if (rack != null && brokers != null) {
			return ": " + rack + ", " + brokers;
		}
		return (rack != null || brokers != null) ? ": " + ((rack != null) ? rack : brokers) : "";
	}

	private static Object[] row(String listenerId, ConsumerReads reads, Duration latency) {
		String p50 = (latency != null) ? latency.toMillis() + " ms" : "-";
		if (reads == null) {
			return new Object[] { listenerId, "-", "-", "-", "-", "-", "-", p50 };
		}
		return new Object[] { listenerId, reads.policy(), reads.partitions(), reads.zoneLocalPartitions(),
				reads.crossZonePartitions(), bytes(reads.localBytes()), bytes(reads.remoteBytes()), p50 };
	}

	static String bytes(long bytes) {
		if (bytes < 1024) {
			return bytes + " B";
		}
		if (bytes < 1024 * 1024) {
			return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
		}
		if (bytes < 1024 * 1024 * 1024) {
			return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
		}
		return String.format(Locale.ROOT, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
	}

}
