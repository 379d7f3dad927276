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
package dev.followerfetch.detection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.followerfetch.detection.DetectedRack.Attempt;
import dev.followerfetch.detection.DetectedRack.Outcome;
import org.jspecify.annotations.Nullable;

/**
 * Asks the sources in priority order and returns the first valid answer. Remote sources
 * are all started together at the first remote source in the order and share one
 * wall-clock budget; a higher-priority answer wins even when a lower one came first, and
 * nothing remote is started when a local source of higher priority answers. Choosing
 * among the winner's candidates gets what is left of the budget, so detection as a whole
 * stays within it.
 *
 * @author follower-fetch authors
 */
final class RackDetector {

	private final List<RackSource> sources;

	private final Duration timeout;

	private final CandidateSelector selector;

	RackDetector(List<RackSource> sources, Duration timeout, CandidateSelector selector) {
		this.sources = List.copyOf(sources);
		this.timeout = timeout;
		this.selector = selector;
	}

	DetectedRack detect() {
		long start = System.nanoTime();
		long deadline = start + this.timeout.toNanos();
		List<Attempt> attempts = new ArrayList<>();
		Map<RackSource, Future<RackLookup>> remote = new LinkedHashMap<>();
		ExecutorService executor = null;
		Attempt winner = null;
		try {
			for (int i = 0; i < this.sources.size(); i++) {
				RackSource source = this.sources.get(i);
				if (winner != null) {
					attempts.add(new Attempt(source.name(), Outcome.SKIPPED, "a source of higher priority answered",
							List.of()));
					continue;
				}
				if (source.isRemote() && executor == null) {
					executor = startRemote(this.sources.subList(i, this.sources.size()), remote, deadline);
				}
				Future<RackLookup> started = remote.get(source);
				Attempt attempt = (started != null) ? await(source, started, deadline)
						: evaluate(source, () -> source.lookup(MetadataRackSource.remaining(deadline)));
				attempts.add(attempt);
				if (attempt.outcome() == Outcome.FOUND) {
					winner = attempt;
				}
			}
		}
		finally {
			if (executor != null) {
				executor.shutdownNow();
			}
		}
		if (winner == null) {
			return new DetectedRack(null, null, null, null, attempts, Duration.ofNanos(System.nanoTime() - start));
		}
		CandidateSelector.Selection selection = this.selector.select(winner.source(), winner.candidates(),
				MetadataRackSource.remaining(deadline));
		return new DetectedRack(selection.candidate().rack(), winner.source() + ":" + selection.candidate().attribute(),
				selection.reason(), selection.brokerRacks(), attempts, Duration.ofNanos(System.nanoTime() - start));
	}

	private ExecutorService startRemote(List<RackSource> candidates, Map<RackSource, Future<RackLookup>> futures,
			long deadline) {
		List<RackSource> remote = candidates.stream().filter(RackSource::isRemote).toList();
		ExecutorService executor = Executors.newFixedThreadPool(remote.size(), new DetectionThreadFactory());
		for (RackSource source : remote) {
			futures.put(source, executor.submit(() -> source.lookup(MetadataRackSource.remaining(deadline))));
		}
		return executor;
	}

	private Attempt await(RackSource source, Future<RackLookup> future, long deadline) {
		return evaluate(source, () -> {
			try {
				return future.get(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				throw (ex.getCause() instanceof Exception cause) ? cause : ex;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new TimeoutException();
			}
			catch (CancellationException ex) {
				throw new TimeoutException();
			}
		});
	}

	private Attempt evaluate(RackSource source, Lookup lookup) {
		RackLookup result;
		try {
			result = lookup.get();
			if (result == null) {
				return new Attempt(source.name(), Outcome.FAILED, "returned no lookup", List.of());
			}
		}
		catch (TimeoutException ex) {
			return new Attempt(source.name(), Outcome.TIMED_OUT, "no answer within " + this.timeout.toMillis() + " ms",
					List.of());
		}
		catch (Exception ex) {
			return new Attempt(source.name(), Outcome.FAILED, oneLine(ex), List.of());
		}
		if (!result.isFound()) {
			return new Attempt(source.name(), Outcome.NOT_FOUND, oneLine(result.reason()), List.of());
		}
		List<RackCandidate> valid = new ArrayList<>();
		List<String> problems = new ArrayList<>();
		for (RackCandidate candidate : result.candidates()) {
			try {
				valid.add(new RackCandidate(RackValues.validate(candidate.rack()), candidate.attribute()));
			}
			catch (IllegalArgumentException ex) {
				problems.add("invalid rack from " + source.name() + ":" + candidate.attribute() + ": " + ex.getMessage());
			}
		}
		if (valid.isEmpty()) {
			return new Attempt(source.name(), Outcome.INVALID, String.join("; ", problems), List.of());
		}
		return new Attempt(source.name(), Outcome.FOUND, (problems.isEmpty()) ? null : String.join("; ", problems),
				valid);
	}

	private static String oneLine(Throwable ex) {
		String message = ex.getMessage();
		return oneLine((message != null) ? message : ex.getClass().getName());
	}

	private static String oneLine(@Nullable String message) {
		if (message == null) {
			return "no reason given";
		}
		String line = message.replaceAll("\\s+", " ").strip();
		return (line.length() > 300) ? line.substring(0, 300) + "..." : line;
	}

	@FunctionalInterface
	private interface Lookup {

		RackLookup get() throws Exception;

	}

	private static final class DetectionThreadFactory implements ThreadFactory {

		private final AtomicInteger count = new AtomicInteger();

		@Override
		public Thread newThread(Runnable runnable) {
			Thread thread = new Thread(runnable, "follower-fetch-detection-" + this.count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		}

	}

}
