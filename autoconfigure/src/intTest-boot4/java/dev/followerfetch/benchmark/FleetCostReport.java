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
package dev.followerfetch.benchmark;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToLongFunction;

import dev.followerfetch.benchmark.ClientByteMetrics.Bytes;
import org.jspecify.annotations.Nullable;

/**
 * The Markdown tables of {@link FleetCostBenchmark}: per request type and per client, the
 * application without the starter against the same application with it, for each group
 * size.
 *
 * @author follower-fetch authors
 */
final class FleetCostReport {

	private static final String MONITOR = FleetCostBenchmark.MONITOR_CLIENT_PREFIX;

	private static final int FLEET = 1_000;

	private final Duration window;

	private final String zone;

	private final @Nullable Duration refreshInterval;

	private final int partitions;

	private final double seconds;

	FleetCostReport(Duration window, String zone, @Nullable Duration refreshInterval, int partitions, double seconds) {
		this.window = window;
		this.zone = zone;
		this.refreshInterval = refreshInterval;
		this.partitions = partitions;
		this.seconds = seconds;
	}

	void print(List<GroupRun> runs, PrintStream out) {
		out.println();
		out.printf(Locale.ROOT, "%s; load average %.2f; the whole run took %.0f s%n", BenchmarkApplication.machine(),
				BenchmarkApplication.loadAverage(), this.seconds);
		out.printf(Locale.ROOT,
				"One instance in %s: two listeners in one classic consumer group on an idle topic of %d partitions "
						+ "(RF 3, leaders in every zone), with G-1 plain Kafka consumers in the group "
						+ "(cooperative-sticky); a steady window of %d s after the group settled (with the starter, from "
						+ "just after a refresh to just after the last refresh the window holds); refresh interval %s%n",
				this.zone, this.partitions, this.window.toSeconds(),
				(this.refreshInterval != null) ? this.refreshInterval.toSeconds() + " s"
						: "the starter's default (30 s)");
		out.println();
		out.println("| G | members in the group | partitions of the instance, off / on "
				+ "| monitor refreshes in the window | window, off / on (s) | group rebalanced in a window |");
		out.println("|---:|---:|---|---:|---|---|");
		for (GroupRun run : runs) {
			out.printf(Locale.ROOT, "| %,d | %,d | %d / %d | %d | %.1f / %.1f | %s |%n", run.size(),
					run.plainMembers() + 2, run.plain().instancePartitions(), run.starter().instancePartitions(),
					run.starter().refreshes(), run.plain().seconds(), run.starter().seconds(),
					(run.plain().rebalanced() || run.starter().rebalanced()) ? "yes" : "no");
		}
		requests(runs, out);
		bytes(runs, out);
		monitor(runs, out);
		growth(runs, out);
		long unreadable = runs.stream().mapToLong((run) -> run.plain().unreadable() + run.starter().unreadable()).sum();
		if (unreadable > 0) {
			out.printf(Locale.ROOT, "%n%,d lines of the brokers' request log could not be read%n", unreadable);
		}
	}

	private void requests(List<GroupRun> runs, PrintStream out) {
		Set<String> types = new TreeSet<>();
		for (GroupRun run : runs) {
			for (Window window : List.of(run.plain(), run.starter())) {
				types.addAll(window.brokers().keySet());
				types.addAll(window.instance().keySet());
			}
		}
		List<String> ordered = new ArrayList<>(types);
		ordered.sort(Comparator.comparingDouble((String type) -> -runs.stream()
			.mapToDouble((run) -> Math.abs(run.instanceDeltaPerSecond(type)))
			.max()
			.orElse(0)).thenComparing(Function.identity()));
		out.println();
		out.printf(Locale.ROOT, "Requests per %d s, per request type: at the brokers (RequestsPerSec, all brokers and "
				+ "every client together) and of the instance's own clients (the brokers' request log, by client id); "
				+ "off = follower-fetch.enabled=false, on = the starter's defaults; counts scaled to %d s where a "
				+ "window with the starter (whole refreshes) was longer or shorter; the last column is the difference "
				+ "for %,d such instances%n", this.window.toSeconds(), this.window.toSeconds(), FLEET);
		out.println();
		out.println("| request type | G | brokers, off | brokers, on | Δ brokers | instance, off | instance, on "
				+ "| Δ instance | Δ instance per refresh | Δ for 1,000 instances (requests/s) |");
		out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
		for (String type : ordered) {
			for (GroupRun run : runs) {
				double brokersOff = scaled(run.plain(), run.plain().brokers().getOrDefault(type, 0L));
				double brokersOn = scaled(run.starter(), run.starter().brokers().getOrDefault(type, 0L));
				double instanceOff = scaled(run.plain(), run.plain().instance().getOrDefault(type, 0L));
				double instanceOn = scaled(run.starter(), run.starter().instance().getOrDefault(type, 0L));
				out.printf(Locale.ROOT, "| %s | %,d | %,.0f | %,.0f | %+,.0f | %,.0f | %,.0f | %+,.0f | %s | %+,.1f |%n",
						type, run.size(), brokersOff, brokersOn, brokersOn - brokersOff, instanceOff, instanceOn,
						instanceOn - instanceOff, perRefresh(run.instanceDeltaPerRefresh(type)),
						run.instanceDeltaPerSecond(type) * FLEET);
			}
		}
	}

	private double scaled(Window window, long count) {
		return count * this.window.toMillis() / 1000.0 / window.seconds();
	}

	private void bytes(List<GroupRun> runs, PrintStream out) {
		out.println();
		out.printf(Locale.ROOT, "Bytes per %d s of the instance's clients, from their own metrics (incoming-byte-total, "
				+ "outgoing-byte-total), scaled as the requests; on / off is the ratio%n", this.window.toSeconds());
		out.println();
		out.println("| client | kind | G | received, off | received, on | on / off | sent, off | sent, on | on / off |");
		out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
		Set<String> clients = new LinkedHashSet<>();
		runs.forEach((run) -> {
			clients.addAll(run.plain().clients().keySet());
			clients.addAll(run.starter().clients().keySet());
		});
		List<String> ordered = new ArrayList<>(clients);
		ordered.sort(Comparator.comparing((String client) -> kind(runs, client)).reversed()
			.thenComparing(Function.identity()));
		for (String client : ordered) {
			for (GroupRun run : runs) {
				Bytes off = run.plain().clients().get(client);
				Bytes on = run.starter().clients().get(client);
				if (off == null && on == null) {
					continue;
				}
				bytesRow(out, client, kind(runs, client), run.size(), scaled(run.plain(), off),
						scaled(run.starter(), on));
			}
		}
		for (GroupRun run : runs) {
			bytesRow(out, "all of the instance's clients", "", run.size(), scaled(run.plain(), total(run.plain())),
					scaled(run.starter(), total(run.starter())));
		}
	}

	private @Nullable Bytes scaled(Window window, @Nullable Bytes bytes) {
		if (bytes == null) {
			return null;
		}
		return new Bytes(bytes.kind(), Math.round(scaled(window, bytes.received())),
				Math.round(scaled(window, bytes.sent())));
	}

	private static void bytesRow(PrintStream out, String client, String kind, int size, @Nullable Bytes off,
			@Nullable Bytes on) {
		out.printf(Locale.ROOT, "| %s | %s | %,d | %s | %s | %s | %s | %s | %s |%n", client, kind, size,
				amount(off, Bytes::received), amount(on, Bytes::received), ratio(off, on, Bytes::received),
				amount(off, Bytes::sent), amount(on, Bytes::sent), ratio(off, on, Bytes::sent));
	}

	private void monitor(List<GroupRun> runs, PrintStream out) {
		out.println();
		out.println("The starter's monitor per refresh (its admin clients, " + MONITOR + "*)");
		out.println();
		out.println("| G | refreshes | requests per refresh | received per refresh (bytes) | sent per refresh (bytes) |");
		out.println("|---:|---:|---:|---:|---:|");
		for (GroupRun run : runs) {
			Window on = run.starter();
			Bytes monitor = monitorBytes(on);
			long requests = monitorRequests(run);
			out.printf(Locale.ROOT, "| %,d | %d | %s | %s | %s |%n", run.size(), on.refreshes(),
					perRefresh(perRefreshValue(requests, on.refreshes())),
					perRefresh(perRefreshValue(monitor.received(), on.refreshes())),
					perRefresh(perRefreshValue(monitor.sent(), on.refreshes())));
		}
	}

	/**
	 * What grows with the group, per instance: each request type's difference per refresh
	 * and the monitor's bytes per refresh, at the largest G against the smallest.
	 */
	private void growth(List<GroupRun> runs, PrintStream out) {
		if (runs.size() < 2) {
			return;
		}
		GroupRun smallest = runs.stream().min(Comparator.comparingInt(GroupRun::size)).orElseThrow();
		GroupRun largest = runs.stream().max(Comparator.comparingInt(GroupRun::size)).orElseThrow();
		out.println();
		out.printf(Locale.ROOT, "Per instance, G=%,d against G=%,d (per refresh, so that windows with a different "
				+ "number of refreshes compare):%n", largest.size(), smallest.size());
		Set<String> types = new TreeSet<>();
		types.addAll(smallest.starter().instance().keySet());
		types.addAll(smallest.plain().instance().keySet());
		types.addAll(largest.starter().instance().keySet());
		types.addAll(largest.plain().instance().keySet());
		for (String type : types) {
			double small = smallest.instanceDeltaPerRefresh(type);
			double large = largest.instanceDeltaPerRefresh(type);
			if (!Double.isNaN(small) && !Double.isNaN(large) && (small != 0 || large != 0)) {
				out.printf(Locale.ROOT, "- %s: Δ %+.2f -> %+.2f requests per refresh%n", type, small, large);
			}
		}
		double small = perRefreshValue(monitorBytes(smallest.starter()).received(), smallest.starter().refreshes());
		double large = perRefreshValue(monitorBytes(largest.starter()).received(), largest.starter().refreshes());
		int moreMembers = largest.plainMembers() - smallest.plainMembers();
		out.printf(Locale.ROOT, "- %s received: %,.0f -> %,.0f bytes per refresh (%s; %s bytes per refresh for each "
				+ "of the %,d more members)%n", MONITOR, small, large,
				(small > 0) ? String.format(Locale.ROOT, "%.2fx", large / small) : "—",
				(moreMembers > 0) ? String.format(Locale.ROOT, "%+,.1f", (large - small) / moreMembers) : "—",
				moreMembers);
		double smallAll = smallest.deltaPerRefresh(total(smallest.plain()).received(),
				total(smallest.starter()).received());
		double largeAll = largest.deltaPerRefresh(total(largest.plain()).received(),
				total(largest.starter()).received());
		out.printf(Locale.ROOT, "- all of the instance's clients, received, on minus off: %+,.0f -> %+,.0f bytes per "
				+ "refresh%n", smallAll, largeAll);
	}

	private static long monitorRequests(GroupRun run) {
		return run.starter().monitorRequests();
	}

	private static Bytes monitorBytes(Window window) {
		long received = 0;
		long sent = 0;
		for (Map.Entry<String, Bytes> client : window.clients().entrySet()) {
			if (client.getKey().startsWith(MONITOR)) {
				received += client.getValue().received();
				sent += client.getValue().sent();
			}
		}
		return new Bytes("admin", received, sent);
	}

	private static Bytes total(Window window) {
		long received = 0;
		long sent = 0;
		for (Bytes bytes : window.clients().values()) {
			received += bytes.received();
			sent += bytes.sent();
		}
		return new Bytes("", received, sent);
	}

	private static String kind(List<GroupRun> runs, String client) {
		for (GroupRun run : runs) {
			for (Window window : List.of(run.plain(), run.starter())) {
				Bytes bytes = window.clients().get(client);
				if (bytes != null) {
					return bytes.kind();
				}
			}
		}
		return "";
	}

	private static String amount(@Nullable Bytes bytes, ToLongFunction<Bytes> value) {
		return (bytes != null) ? String.format(Locale.ROOT, "%,d", value.applyAsLong(bytes)) : "—";
	}

	private static String ratio(@Nullable Bytes off, @Nullable Bytes on, ToLongFunction<Bytes> value) {
		if (off == null || on == null || value.applyAsLong(off) == 0) {
			return "—";
		}
		return String.format(Locale.ROOT, "%.2fx", (double) value.applyAsLong(on) / value.applyAsLong(off));
	}

	private static String perRefresh(double value) {
		return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%,.1f", value);
	}

	private static double perRefreshValue(long value, int refreshes) {
		return (refreshes > 0) ? (double) value / refreshes : Double.NaN;
	}

	/**
	 * One steady window of one application.
	 *
	 * @param starter whether the starter was enabled
	 * @param seconds the window's length as measured
	 * @param refreshes the monitor's refreshes in the window
	 * @param brokers the requests per type the brokers completed, every client together
	 * @param instance the requests per type of the instance's own clients
	 * @param monitorRequests the requests of the monitor's admin clients
	 * @param clients the bytes per client id of the instance's clients
	 * @param instancePartitions the partitions assigned to the instance's consumers
	 * @param rebalanced whether the group's assignment changed during the window
	 * @param unreadable request log lines that could not be attributed
	 */
	record Window(boolean starter, double seconds, int refreshes, Map<String, Long> brokers,
			Map<String, Long> instance, long monitorRequests, Map<String, Bytes> clients, int instancePartitions,
			boolean rebalanced, long unreadable) {

	}

	/**
	 * The two windows of one group size.
	 *
	 * @param size G: the instance counts as one member, beside {@code plainMembers}
	 * @param plainMembers the plain Kafka consumers in the group, G-1
	 * @param plain the window of the application with {@code follower-fetch.enabled=false}
	 * @param starter the window of the application with the starter
	 */
	record GroupRun(int size, int plainMembers, Window plain, Window starter) {

		/**
		 * The instance's requests of one type per second with the starter, less without it.
		 */
		double instanceDeltaPerSecond(String type) {
			return this.starter.instance().getOrDefault(type, 0L) / this.starter.seconds()
					- this.plain.instance().getOrDefault(type, 0L) / this.plain.seconds();
		}

		/**
		 * The instance's requests of one type per refresh of the starter's window, less what
		 * the instance without the starter sent in as long a time.
		 */
		double instanceDeltaPerRefresh(String type) {
			return deltaPerRefresh(this.plain.instance().getOrDefault(type, 0L),
					this.starter.instance().getOrDefault(type, 0L));
		}

		double deltaPerRefresh(long off, long on) {
			if (this.starter.refreshes() == 0) {
				return Double.NaN;
			}
			return (on - off * this.starter.seconds() / this.plain.seconds()) / this.starter.refreshes();
		}

	}

}
