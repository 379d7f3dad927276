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
package dev.followerfetch.assignment.differential;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import dev.followerfetch.assignment.differential.Differential.Finding;
import dev.followerfetch.assignment.differential.Differential.Outcome;
import org.jspecify.annotations.Nullable;

/**
 * A run of generated groups, one seed after another on every core, and what they showed.
 * A group still running after {@link #LIMIT} is given up, and its thread stopped where
 * the JDK still can: Kafka's sticky assignors can search for a balance for ever. On the
 * starter's side that is a defect (the zone-aware assignor, or the strategy it wraps on
 * the input the zone-aware side made, would keep the leader busy as long), on the plain
 * side a skipped group.
 *
 * @author follower-fetch authors
 */
final class Campaign {

	static final Duration LIMIT = Duration.ofSeconds(30);

	/**
	 * The seeds listed per kind of failure.
	 */
	private static final int LISTED = 200;

	private final long last;

	private final @Nullable PrintStream trace;

	private final AtomicLong next;

	private final LongAdder groups = new LongAdder();

	private final LongAdder rebalances = new LongAdder();

	private final ConcurrentLinkedQueue<Outcome> failing = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<Outcome> skipped = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<Outcome> noted = new ConcurrentLinkedQueue<>();

	private int abandoned;

	/**
	 * A run of the seeds from {@code first} to {@code last}.
	 * @param first the first seed
	 * @param last the last seed
	 * @param trace where to print every rebalance, or {@code null}
	 */
	Campaign(long first, long last, @Nullable PrintStream trace) {
		this.next = new AtomicLong(first);
		this.last = last;
		this.trace = trace;
	}

	/**
	 * Run every group, giving up those that run longer than {@link #LIMIT}.
	 * @return this campaign
	 * @throws InterruptedException when the test is
	 */
	Campaign run() throws InterruptedException {
		int cores = (this.trace != null) ? 1 : Runtime.getRuntime().availableProcessors();
		List<Worker> workers = new ArrayList<>();
		for (int w = 0; w < cores; w++) {
			workers.add(new Worker());
		}
		workers.forEach(Thread::start);
		while (workers.stream().anyMatch(Thread::isAlive)) {
			Thread.sleep(50);
			for (Worker worker : List.copyOf(workers)) {
				long seed = worker.seed;
				if (seed >= 0 && worker.isAlive() && System.nanoTime() - worker.since > LIMIT.toNanos()) {
					worker.abandoned = true;
					workers.remove(worker);
					this.abandoned++;
					Outcome outcome = givenUp(seed, worker.getStackTrace());
					stop(worker);
					System.out.println("Seed " + seed + " given up: " + ((outcome.skipped() != null) ? outcome.skipped()
							: outcome.findings().get(0).message()));
					record(outcome);
					Worker replacement = new Worker();
					workers.add(replacement);
					replacement.start();
				}
			}
		}
		return this;
	}

	/**
	 * What a group still running showed: where it runs, and on which side.
	 */
	private static Outcome givenUp(long seed, StackTraceElement[] stack) {
		String where = Arrays.stream(stack)
			.filter((frame) -> frame.getClassName().startsWith("org.apache.kafka.")
					|| frame.getClassName().startsWith("dev.followerfetch."))
			.findFirst()
			.map((frame) -> frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1) + "."
					+ frame.getMethodName())
			.orElse("?");
		boolean zoneAware = Arrays.stream(stack)
			.anyMatch((frame) -> frame.getClassName().equals(Differential.class.getName())
					&& frame.getMethodName().contains("zoneAware"));
		String message = "still running after " + LIMIT.toSeconds() + " s, in " + where;
		if (!zoneAware) {
			return new Outcome(seed, 0, List.of(), List.of(), "Kafka's own assignor is " + message);
		}
		String setup = ConsumerSetup.withStarter(GeneratedGroup.of(seed).strategy()).toString();
		return new Outcome(seed, 0, List.of(new Finding("[" + setup + "] the leader's assignment does not finish",
				"the zone-aware side's leader is " + message)), List.of(), null);
	}

	/**
	 * Stop a thread given up where the JDK still can (before Java 20); elsewhere it runs
	 * on until the JVM exits.
	 */
	@SuppressWarnings({ "deprecation", "removal" })
	private static void stop(Thread thread) {
		try {
			thread.stop();
		}
		catch (UnsupportedOperationException ex) {
			// Java 20 and later
		}
	}

	private void record(Outcome outcome) {
		this.groups.increment();
		this.rebalances.add(outcome.rebalances());
		if (!outcome.findings().isEmpty()) {
			this.failing.add(outcome);
		}
		if (outcome.skipped() != null) {
			this.skipped.add(outcome);
		}
		if (!outcome.notes().isEmpty()) {
			this.noted.add(outcome);
		}
	}

	List<Outcome> failing() {
		return List.copyOf(this.failing);
	}

	/**
	 * What the run did, in a few lines: the time notes, why groups were skipped, and
	 * the groups, rebalances, time and failures.
	 * @param seconds how long it took
	 * @return the summary
	 */
	String summary(double seconds) {
		StringBuilder summary = new StringBuilder();
		this.noted.forEach((outcome) -> outcome.notes()
			.forEach((note) -> summary.append("Seed ").append(outcome.seed()).append(": ").append(note.kind())
				.append(": ").append(note.message()).append('\n')));
		this.skipped.stream()
			.collect(Collectors.groupingBy((outcome) -> skipReason(outcome.skipped()), TreeMap::new, Collectors.toList()))
			.forEach((reason, outcomes) -> summary.append("Skipped ").append(outcomes.size())
				.append(" group(s) where ").append(reason).append(", e.g. seed ")
				.append(outcomes.stream().mapToLong(Outcome::seed).min().orElse(0)).append('\n'));
		if (this.abandoned > 0) {
			summary.append(this.abandoned).append(" group(s) given up after ").append(LIMIT.toSeconds()).append(" s\n");
		}
		return summary.append(String.format("Differential fuzz of the zone-aware assignor: %d groups, %d rebalances,"
				+ " %.1f s, %d failures (%d skipped where Kafka's own assignor fails, %d with notes)",
				this.groups.sum(), this.rebalances.sum(), seconds, this.failing.size(), this.skipped.size(),
				this.noted.size())).toString();
	}

	/**
	 * Each kind of failure: how many groups show it, the smallest of them with what it
	 * showed, its input and the command that reproduces it, and the seeds of the others.
	 * @param reproduce the command that runs one seed, but for the seed
	 * @return the report
	 */
	String report(String reproduce) {
		Map<String, List<Outcome>> byKind = new TreeMap<>();
		this.failing.forEach((outcome) -> outcome.findings()
			.stream()
			.map(Finding::kind)
			.distinct()
			.forEach((kind) -> byKind.computeIfAbsent(kind, (key) -> new ArrayList<>()).add(outcome)));
		StringBuilder report = new StringBuilder().append(this.failing.size()).append(" of ")
			.append(this.groups.sum())
			.append(" generated groups get from the zone-aware assignor what Kafka's own assignors would not give them.");
		byKind.forEach((kind, outcomes) -> {
			outcomes.sort(Comparator.comparingLong(Outcome::seed));
			Outcome smallest = outcomes.stream()
				.min(Comparator.comparingInt((Outcome outcome) -> GeneratedGroup.of(outcome.seed()).size()))
				.orElseThrow();
			String message = smallest.findings()
				.stream()
				.filter((finding) -> finding.kind().equals(kind))
				.findFirst()
				.map(Finding::message)
				.orElse("");
			report.append("\n\n").append(kind).append(": ").append(outcomes.size()).append(" group(s)")
				.append("\n  smallest, seed ").append(smallest.seed()).append(": ").append(message)
				.append("\n  reproduce: ").append(reproduce).append(smallest.seed())
				.append("\n  ").append(GeneratedGroup.of(smallest.seed()).describe().replace("\n", "\n  "))
				.append("\n  seeds: ")
				.append(outcomes.stream()
					.limit(LISTED)
					.map((outcome) -> String.valueOf(outcome.seed()))
					.collect(Collectors.joining(", ")))
				.append((outcomes.size() > LISTED) ? " and " + (outcomes.size() - LISTED) + " more" : "");
		});
		return report.toString();
	}

	/**
	 * Why groups were skipped, without what differs from group to group.
	 */
	private static String skipReason(@Nullable String skipped) {
		String reason = String.valueOf(skipped).replaceFirst("^phase \\d+ rebalance \\d+: ", "");
		int colon = reason.indexOf(": ");
		return (colon > 0) ? reason.substring(0, colon) : reason;
	}

	/**
	 * Runs seeds until there are none left or it is given up.
	 */
	private final class Worker extends Thread {

		volatile long seed = -1;

		volatile long since;

		volatile boolean abandoned;

		Worker() {
			super("differential-fuzz");
			setDaemon(true);
		}

		@Override
		public void run() {
			while (!this.abandoned) {
				long s = Campaign.this.next.getAndIncrement();
				if (s > Campaign.this.last) {
					return;
				}
				this.since = System.nanoTime();
				this.seed = s;
				Outcome outcome;
				try {
					GeneratedGroup group = GeneratedGroup.of(s);
					if (Campaign.this.trace != null) {
						Campaign.this.trace.println("Seed " + s + ":\n" + group.describe());
					}
					outcome = Differential.run(group, Campaign.this.trace);
				}
				catch (RuntimeException | Error ex) {
					outcome = new Outcome(s, 0, List.of(new Finding("the fuzzer itself fails", ex.toString())),
							List.of(), null);
				}
				this.seed = -1;
				if (!this.abandoned) {
					record(outcome);
				}
			}
		}

	}

}
