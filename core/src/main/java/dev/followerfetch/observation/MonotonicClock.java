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

/**
 * A UTC clock that never steps: the wall time at creation, advanced by
 * {@link System#nanoTime()}. The JDK's system clock follows NTP corrections and VM
 * resumes, which would end a grace period early or hold it back; this one keeps the
 * elapsed time true.
 *
 * @author follower-fetch authors
 */
final class MonotonicClock extends Clock {

	private final Instant origin;

	private final long originNanos;

	private final ZoneId zone;

	MonotonicClock() {
		this(Instant.now(), System.nanoTime(), ZoneOffset.UTC);
	}

	private MonotonicClock(Instant origin, long originNanos, ZoneId zone) {
		this.origin = origin;
		this.originNanos = originNanos;
		this.zone = zone;
	}

	@Override
	public ZoneId getZone() {
		return this.zone;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return new MonotonicClock(this.origin, this.originNanos, zone);
	}

	@Override
	public Instant instant() {
		return this.origin.plusNanos(System.nanoTime() - this.originNanos);
	}

}
