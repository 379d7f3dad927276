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
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The clock the monitor times grace periods with.
 *
 * @author follower-fetch authors
 */
class MonotonicClockTests {

	@Test
	void itNeverGoesBackAndStartsAtTheWallTime() {
		Instant before = Instant.now();
		Clock clock = new MonotonicClock();
		Instant last = clock.instant();
		assertThat(last).isAfterOrEqualTo(before.minusMillis(1));
		for (int i = 0; i < 100_000; i++) {
			Instant now = clock.instant();
			assertThat(now).isAfterOrEqualTo(last);
			last = now;
		}
		assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
	}

	@Test
	void inAnotherZoneItKeepsTheSameTimeline() {
		Clock utc = new MonotonicClock();
		Clock paris = utc.withZone(ZoneId.of("Europe/Paris"));
		Instant first = utc.instant();
		Instant second = paris.instant();
		Instant third = utc.instant();
		assertThat(second).isBetween(first, third);
		assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
	}

}
