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
import java.util.concurrent.atomic.AtomicInteger;

import dev.followerfetch.Policy;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.observation.ReadLocalityMonitor.MonitorSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The monitor's background refresh.
 *
 * @author follower-fetch authors
 */
class ReadLocalityMonitorTests {

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

}
