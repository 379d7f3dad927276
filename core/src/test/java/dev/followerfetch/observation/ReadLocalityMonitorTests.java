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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import dev.followerfetch.Policy;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.observation.ReadLocalityMonitor.MonitorSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The monitor's background refresh, and the age of the snapshot it serves. The brokers
 * are a closed loopback port; where the age matters, the monitor's clock is one the test
 * moves, so that a snapshot ages only when the test says.
 *
 * @author follower-fetch authors
 */
class ReadLocalityMonitorTests {

	private static final Duration INTERVAL = Duration.ofMillis(20);

	private static final Duration TIMEOUT = Duration.ofMillis(300);

	/**
	 * Two intervals and the timeout.
	 */
	private static final Duration STALE_AFTER = Duration.ofMillis(340);

	private final MovableClock clock = new MovableClock();

	@Test
	void aRefreshThatThrowsAnErrorIsFollowedByTheNextOne() {
		AtomicInteger reads = new AtomicInteger();
		ReadLocalityMonitor monitor = new ReadLocalityMonitor(() -> DetectedRack.of("az-b", "test"), () -> {
			if (reads.incrementAndGet() <= 2) {
				throw new NoClassDefFoundError("org/example/Gone");
			}
			return List.of();
		}, null, List::of, new ClusterInspectors(() -> Map.of("bootstrap.servers", "127.0.0.1:9"), Duration.ofMillis(300)),
				new MonitorSettings(Duration.ofMillis(20), Duration.ZERO, Duration.ofMillis(300), 20, Policy.LOCALITY),
				Clock.systemUTC());
		Instant before = monitor.snapshot().takenAt();
		try {
			monitor.start();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(monitor.snapshot().takenAt()).as("a snapshot taken after two errors")
					.isAfter(before));
			assertThat(reads).hasValueGreaterThan(2);
			assertThat(monitor.isRunning()).isTrue();
		}
		finally {
			monitor.stop();
		}
	}

	@Test
	void aSnapshotNoRefreshReplacedForTwoIntervalsAndTheTimeoutIsStaleWithTheLastErrorUntilARefreshWorks() {
		AtomicBoolean failing = new AtomicBoolean(true);
		AtomicInteger reads = new AtomicInteger();
		ReadLocalityMonitor monitor = monitor(() -> {
			reads.incrementAndGet();
			if (failing.get()) {
				throw new NoClassDefFoundError("org/example/Gone\u001b[2J\u0000 after\nan upgrade");
			}
			return List.of();
		});
		try {
			monitor.start();
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(reads).hasValueGreaterThan(2));
			assertThat(monitor.isRunning()).isTrue();
			assertThat(monitor.snapshot().state()).as("as old as the age allows").isEqualTo(FollowerFetchState.STARTING);
			this.clock.advance(STALE_AFTER);
			assertThat(monitor.snapshot().state()).isEqualTo(FollowerFetchState.STARTING);
			this.clock.advance(Duration.ofMillis(1));
			FollowerFetchSnapshot stale = monitor.snapshot();
			assertThat(stale.state()).isEqualTo(FollowerFetchState.STALE);
			assertThat(stale.state().isDegraded()).isTrue();
			assertThat(stale.stale()).isNotNull();
			assertThat(stale.stale().lastState()).isEqualTo(FollowerFetchState.STARTING);
			assertThat(stale.stale().lastRefreshError()).isEqualTo("NoClassDefFoundError: org/example/Gone[2J after an upgrade");
			assertThat(HealthDetails.of(stale)).containsEntry("state", "STALE")
				.containsEntry("lastState", "STARTING")
				.containsEntry("lastRefreshError", "NoClassDefFoundError: org/example/Gone[2J after an upgrade")
				.containsEntry("updatedAt", stale.takenAt().toString());
			failing.set(false);
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(monitor.snapshot().state()).isEqualTo(FollowerFetchState.STARTING));
			FollowerFetchSnapshot recovered = monitor.snapshot();
			assertThat(recovered.stale()).isNull();
			assertThat(recovered.takenAt()).isEqualTo(this.clock.instant());
			assertThat(recovered.problems()).extracting(Problem::kind).contains(Problem.Kind.NO_CONSUMER);
			assertThat(HealthDetails.of(recovered)).doesNotContainKeys("lastState", "lastRefreshError");
		}
		finally {
			monitor.stop();
		}
	}

	@Test
	void aRefreshThatHangsLeavesTheSnapshotStaleWithTheTimeItStarted() throws InterruptedException {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		ReadLocalityMonitor monitor = monitor(hangingFrom(1, entered, release));
		try {
			monitor.start();
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			Instant started = this.clock.instant();
			this.clock.advance(STALE_AFTER);
			assertThat(monitor.snapshot().state()).as("a slow refresh, not yet a hung one")
				.isNotEqualTo(FollowerFetchState.STALE);
			this.clock.advance(Duration.ofMillis(1));
			FollowerFetchSnapshot stale = monitor.snapshot();
			assertThat(stale.state()).isEqualTo(FollowerFetchState.STALE);
			assertThat(stale.stale().lastRefreshError()).isNull();
			assertThat(stale.stale().refreshRunningSince()).isEqualTo(started);
			assertThat(HealthDetails.of(stale)).containsEntry("refreshRunningSince", started.toString())
				.doesNotContainKey("lastRefreshError");
		}
		finally {
			release.countDown();
			monitor.stop();
		}
	}

	@Test
	void aSlowRefreshAfterOneThatWorkedIsStaleOnlyOnceItOutlastsTheAgeItself() throws InterruptedException {
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		ReadLocalityMonitor monitor = monitor(hangingFrom(2, entered, release));
		monitor.refresh();
		this.clock.advance(INTERVAL);
		Thread slow = new Thread(monitor::refresh);
		slow.start();
		try {
			assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
			this.clock.advance(STALE_AFTER.minus(INTERVAL).plusMillis(1));
			assertThat(monitor.snapshot().state()).as("the last good snapshot is older than the age, the refresh is not")
				.isNotEqualTo(FollowerFetchState.STALE);
			this.clock.advance(INTERVAL);
			assertThat(monitor.snapshot().state()).isEqualTo(FollowerFetchState.STALE);
		}
		finally {
			release.countDown();
			slow.join(10_000);
		}
	}

	@Test
	void anyErrorARefreshThrowsIsKeptAsTheLastRefreshError() {
		ReadLocalityMonitor monitor = monitor(() -> {
			throw new AssertionError("a library's own check");
		});
		monitor.refresh();
		this.clock.advance(STALE_AFTER.plusMillis(1));
		FollowerFetchSnapshot stale = monitor.snapshot();
		assertThat(stale.state()).isEqualTo(FollowerFetchState.STALE);
		assertThat(stale.stale().lastRefreshError()).isEqualTo("AssertionError: a library's own check");
	}

	@Test
	void aMonitorStartedLongAfterItWasBuiltIsNotStaleBeforeItsFirstRefreshIsDue() {
		ReadLocalityMonitor monitor = monitor(() -> {
			throw new IllegalStateException("every refresh fails");
		});
		this.clock.advance(Duration.ofHours(1));
		assertThat(monitor.snapshot().state()).as("never started").isEqualTo(FollowerFetchState.STALE);
		try {
			monitor.start();
			assertThat(monitor.snapshot().state()).isEqualTo(FollowerFetchState.STARTING);
			assertThat(monitor.snapshot().stale()).isNull();
		}
		finally {
			monitor.stop();
		}
	}

	@Test
	void theFirstRefreshComesAfterAUniformlyRandomPartOfTheInterval() {
		Duration interval = Duration.ofSeconds(30);
		SplittableRandom random = new SplittableRandom(39);
		List<Long> delays = LongStream.generate(() -> ReadLocalityMonitor.firstDelay(interval, random))
			.limit(10_000)
			.boxed()
			.toList();
		assertThat(delays).allSatisfy((delay) -> assertThat(delay).isBetween(0L, interval.toMillis() - 1));
		// ten slices of three seconds, each with about a thousand first refreshes
		assertThat(delays.stream().collect(Collectors.groupingBy((delay) -> delay / 3_000, Collectors.counting())))
			.hasSize(10)
			.allSatisfy((slice, count) -> assertThat(count).as("slice %d", slice).isBetween(850L, 1150L));
		assertThat(ReadLocalityMonitor.firstDelay(Duration.ofNanos(500), random)).isZero();
	}

	/**
	 * Sources that list no consumer, and from the given read on say they entered and
	 * hang until released.
	 */
	private static Supplier<List<ObservedConsumers>> hangingFrom(int read, CountDownLatch entered,
			CountDownLatch release) {
		AtomicInteger reads = new AtomicInteger();
		return () -> {
			if (reads.incrementAndGet() >= read) {
				entered.countDown();
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return List.of();
		};
	}

	private ReadLocalityMonitor monitor(Supplier<List<ObservedConsumers>> sources) {
		return new ReadLocalityMonitor(() -> DetectedRack.of("az-b", "test"), sources, null, List::of,
				new ClusterInspectors(() -> Map.of("bootstrap.servers", "127.0.0.1:9"), TIMEOUT),
				new MonitorSettings(INTERVAL, Duration.ZERO, TIMEOUT, 20, Policy.LOCALITY), this.clock);
	}

}
