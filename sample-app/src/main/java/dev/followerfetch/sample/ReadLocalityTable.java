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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.followerfetch.observation.FollowerFetchSnapshot;
import dev.followerfetch.observation.ConsumerReads;

/**
 * The table the sample prints: follower-fetch's state, then one row per listener with
 * where it reads from, how many bytes came from this zone and from others, and its median
 * end-to-end latency. With several instances, the state of each, then per listener a row
 * for each instance, with its partitions read from an in-zone leader, from an in-zone
 * follower and across zones, and a row for all of them.
 *
 * @author follower-fetch authors
 */
final class ReadLocalityTable {

	private static final String ROW = "  %-10s %-10s %10s %8s %11s %12s %13s %12s%n";

	private static final String INSTANCES_ROW = "  %%-10s %%-8s %%-10s %%-%ds %%10s %%15s %%17s %%11s %%12s %%13s %%12s%%n";

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
		snapshot.problems().forEach((problem) -> table.append(String.format(Locale.ROOT, "  ! %s%n", problem.message())));
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

	/**
	 * Render what several instances of the application observed as text.
	 * @param instances each instance's figures, the first instance first
	 * @return the table, every line ending with a line separator
	 */
	static String render(List<Instance> instances) {
		StringBuilder table = new StringBuilder();
		Set<String> brokerRacks = new TreeSet<>();
		Set<String> listenerIds = new TreeSet<>();
		int assignmentWidth = "assignment".length();
		for (Instance instance : instances) {
			brokerRacks.addAll(instance.snapshot().brokerRacks());
			listenerIds.addAll(instance.snapshot().listeners().keySet());
			listenerIds.addAll(instance.latencies().keySet());
			for (ConsumerReads reads : instance.snapshot().listeners().values()) {
				assignmentWidth = Math.max(assignmentWidth, assignment(reads).length());
			}
		}
		table.append(String.format(Locale.ROOT, "%n%s follower-fetch in %d instances%s%n",
				time(instances.get(0).snapshot()), instances.size(),
				brokerRacks.isEmpty() ? "" : ", brokers in " + String.join(", ", brokerRacks)));
		for (Instance instance : instances) {
			FollowerFetchSnapshot snapshot = instance.snapshot();
			String rack = (snapshot.rack() != null) ? ": rack " + snapshot.rack() + " from " + snapshot.source() : "";
			String health = (instance.healthUrl() != null) ? ", health " + instance.healthUrl() : "";
			table.append(String.format(Locale.ROOT, "  instance %d %s%s%s%n", instance.number(), snapshot.state(), rack,
					health));
			snapshot.problems().forEach((problem) -> table.append(String.format(Locale.ROOT, "    ! %s%n", problem.message())));
		}
		String row = String.format(Locale.ROOT, INSTANCES_ROW, assignmentWidth);
		table.append(String.format(Locale.ROOT, row, "listener", "instance", "policy", "assignment", "partitions",
				"in-zone leader", "in-zone follower", "cross-zone", "bytes local", "bytes remote", "p50 latency"));
		for (String listenerId : listenerIds) {
			Total total = new Total();
			for (Instance instance : instances) {
				ConsumerReads reads = instance.snapshot().listeners().get(listenerId);
				total.add(reads);
				table.append(String.format(Locale.ROOT, row,
						row(listenerId, instance, reads, instance.latencies().get(listenerId))));
			}
			table.append(String.format(Locale.ROOT, row, total.row(listenerId)).stripTrailing())
				.append(System.lineSeparator());
		}
		return table.toString();
	}

	private static Object[] row(String listenerId, Instance instance, ConsumerReads reads, Duration latency) {
		String rack = instance.snapshot().rack();
		String name = instance.number() + ((rack != null) ? " " + rack : "");
		String p50 = (latency != null) ? latency.toMillis() + " ms" : "-";
		if (reads == null) {
			return new Object[] { listenerId, name, "-", "-", "-", "-", "-", "-", "-", "-", p50 };
		}
		return new Object[] { listenerId, name, reads.policy(), assignment(reads), reads.partitions(),
				reads.zoneLocalLeaderPartitions(), reads.zoneLocalPartitions() - reads.zoneLocalLeaderPartitions(),
				reads.crossZonePartitions(), bytes(reads.localBytes()), bytes(reads.remoteBytes()), p50 };
	}

	private static String assignment(ConsumerReads reads) {
		return (reads.assignment() != null) ? reads.assignment() : "-";
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

	/**
	 * What one instance of the application observed.
	 *
	 * @param number which instance it is, from 1
	 * @param snapshot what its follower-fetch last observed
	 * @param latencies the median latency of each of its listeners that has received
	 * records
	 * @param healthUrl the URL of its {@code followerFetch} health, or {@code null} when
	 * not known yet
	 */
	record Instance(int number, FollowerFetchSnapshot snapshot, Map<String, Duration> latencies, String healthUrl) {

	}

	/**
	 * The sums over the instances of one listener's figures.
	 */
	private static final class Total {

		private int partitions;

		private int leader;

		private int follower;

		private int crossZone;

		private long localBytes;

		private long remoteBytes;

		void add(ConsumerReads reads) {
			if (reads != null) {
				this.partitions += reads.partitions();
				this.leader += reads.zoneLocalLeaderPartitions();
				this.follower += reads.zoneLocalPartitions() - reads.zoneLocalLeaderPartitions();
				this.crossZone += reads.crossZonePartitions();
				this.localBytes += reads.localBytes();
				this.remoteBytes += reads.remoteBytes();
			}
		}

		Object[] row(String listenerId) {
			return new Object[] { listenerId, "all", "", "", this.partitions, this.leader, this.follower,
					this.crossZone, bytes(this.localBytes), bytes(this.remoteBytes), "" };
		}

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
