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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.followerfetch.detection.DetectionStartups.ThreadSnapshot;
import dev.followerfetch.detection.HostileBehaviour.HostileEndpoint;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What a hostile metadata endpoint costs an application's start-up, measured in one run
 * and printed side by side: for each network source, repeated start-ups of a context
 * with the detection auto-configuration (the source first, then {@code env}, which
 * answers) against each {@link HostileBehaviour}, with the same start-up against a
 * loopback port that refuses the connection as the baseline. Prints the median and
 * maximum wall-clock time from the start of the context to its being ready, their ratio
 * to the baseline and to {@code follower-fetch.detection.timeout}, the threads started
 * by the start-ups that are still alive after them, and the heap after a GC. Every row is
 * warmed up before it is measured. Every
 * endpoint is on 127.0.0.1. Not a unit test; run it with
 * {@code ./mvnw -pl autoconfigure -am test-compile exec:exec@hostile-benchmark}.
 *
 * @author follower-fetch authors
 */
public final class HostileMetadataBenchmark {

	private static final Duration TIMEOUT = Duration.ofMillis(400);

	private static final int START_UPS = 10;

	private static final int WARM_UPS = 5;

	private static final int ROW_WARM_UPS = 3;

	private static final Duration SETTLE = Duration.ofSeconds(2);

	private static final String BASELINE = "refuses the connection (baseline)";

	private HostileMetadataBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		LoggingSystem.get(HostileMetadataBenchmark.class.getClassLoader()).setLogLevel(null, LogLevel.WARN);
		for (NetworkSource source : NetworkSource.values()) {
			try (HostileEndpoint refusing = refusing()) {
				startUps(source, refusing, WARM_UPS);
			}
		}
		ThreadSnapshot beforeRun = ThreadSnapshot.take();
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		long heapBefore = DetectionStartups.heapUsedAfterGc();
		List<Row> rows = new ArrayList<>();
		for (NetworkSource source : NetworkSource.values()) {
			try (HostileEndpoint refusing = refusing()) {
				rows.add(measure(source, BASELINE, refusing));
			}
			for (HostileBehaviour behaviour : HostileBehaviour.values()) {
				if (behaviour.appliesTo(source)) {
					try (HostileEndpoint endpoint = behaviour.start()) {
						rows.add(measure(source, behaviour.name().toLowerCase().replace('_', ' '), endpoint));
					}
				}
			}
		}
		List<String> left = settle(beforeRun);
		long heapAfter = DetectionStartups.heapUsedAfterGc();
		print(rows);
		System.out.printf("%nWhole run: %d live threads before, %d after (started by the run and still alive: %s); "
				+ "heap used after GC %.1f MiB before, %.1f MiB after.%n", threadsBefore,
				ManagementFactory.getThreadMXBean().getThreadCount(),
				left.isEmpty() ? "none" : String.join(", ", left), mebibytes(heapBefore), mebibytes(heapAfter));
	}

	private static HostileEndpoint refusing() throws Exception {
		return new HostileEndpoint(RawLoopbackServer.refusingUri(), null, null);
	}

	private static Row measure(NetworkSource source, String endpointName, HostileEndpoint endpoint) throws Exception {
		startUps(source, endpoint, ROW_WARM_UPS);
		ThreadSnapshot before = ThreadSnapshot.take();
		long streamedBefore = endpoint.bytesStreamed();
		long[][] times = startUps(source, endpoint, START_UPS);
		List<String> left = settle(before);
		long deadline = System.nanoTime() + SETTLE.toNanos();
		while (endpoint.openStreams() > 0 && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		long streamed = endpoint.bytesStreamed() - streamedBefore;
		return new Row(source.sourceName(), endpointName, times[0], times[1], left, DetectionStartups.heapUsedAfterGc(),
				streamed / START_UPS);
	}

	private static long[][] startUps(NetworkSource source, HostileEndpoint endpoint, int count) throws Exception {
		ApplicationContextRunner runner = DetectionStartups.runner(source, endpoint.uri(), TIMEOUT);
		long[] startUp = new long[count];
		long[] detection = new long[count];
		for (int i = 0; i < count; i++) {
			int index = i;
			long start = System.nanoTime();
			runner.run((context) -> {
				startUp[index] = System.nanoTime() - start;
				if (context.getStartupFailure() != null) {
					throw new IllegalStateException(source + " against " + endpoint.uri() + " failed to start",
							context.getStartupFailure());
				}
				DetectedRack detected = context.getBean(DetectedRack.class);
				if (!detected.rack().orElse("").equals(DetectionStartups.NEXT_RACK)) {
					throw new IllegalStateException(source + " against " + endpoint.uri() + " detected " + detected);
				}
				detection[index] = detected.elapsed().toNanos();
			});
		}
		Arrays.sort(startUp);
		Arrays.sort(detection);
		return new long[][] { startUp, detection };
	}

	private static List<String> settle(ThreadSnapshot before) throws InterruptedException {
		long deadline = System.nanoTime() + SETTLE.toNanos();
		List<String> left = before.startedSince();
		while (!left.isEmpty() && System.nanoTime() < deadline) {
			Thread.sleep(10);
			left = before.startedSince();
		}
		return left;
	}

	private static void print(List<Row> rows) {
		System.out.printf("java %s (%s), %s %s, %d processors; follower-fetch.detection.timeout=%d ms, %d start-ups "
				+ "per row, after %d warm-up start-ups per source and %d per row%n%n", System.getProperty("java.version"),
				System.getProperty("java.vm.name"), System.getProperty("os.name"), System.getProperty("os.arch"),
				Runtime.getRuntime().availableProcessors(), TIMEOUT.toMillis(), START_UPS, WARM_UPS,
				ROW_WARM_UPS);
		System.out.println("| source | endpoint | start-up median (ms) | start-up max (ms) | median / baseline "
				+ "| median / timeout | detection median (ms) | threads left | heap after GC (MiB) |");
		System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|");
		Row baseline = null;
		for (Row row : rows) {
			baseline = (row.endpoint().equals(BASELINE)) ? row : baseline;
			System.out.printf("| %s | %s | %.1f | %.1f | %.1fx | %.2fx | %.1f | %s | %.1f |%n", row.source(),
					row.endpoint(), row.median() / 1e6, row.max() / 1e6, (double) row.median() / baseline.median(),
					(double) row.median() / TIMEOUT.toNanos(), median(row.detection()) / 1e6,
					row.threadsLeft().isEmpty() ? "0" : row.threadsLeft().size() + " " + row.threadsLeft(),
					mebibytes(row.heapAfterGc()));
		}
		for (Row row : rows) {
			if (row.streamedPerStartUp() > 0) {
				System.out.printf("%n%s, %s: the stub wrote %.1f KiB per start-up before the client hung up "
						+ "(%d GiB offered)", row.source(), row.endpoint(), row.streamedPerStartUp() / 1024.0,
						HostileBehaviour.HUGE_BODY_BYTES >> 30);
			}
		}
		System.out.println();
	}

	private static long median(long[] sorted) {
		int middle = sorted.length / 2;
		return (sorted.length % 2 == 1) ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	}

	private static double mebibytes(long bytes) {
		return bytes / (1024.0 * 1024.0);
	}

	private record Row(String source, String endpoint, long[] startUp, long[] detection, List<String> threadsLeft,
			long heapAfterGc, long streamedPerStartUp) {

		long median() {
			return HostileMetadataBenchmark.median(this.startUp);
		}

		long max() {
			return this.startUp[this.startUp.length - 1];
		}

	}

}
