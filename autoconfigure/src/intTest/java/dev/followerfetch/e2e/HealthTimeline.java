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
package dev.followerfetch.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.followerfetch.BootApis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Samples the {@code followerFetch} health of an application every 100 ms in the
 * background and remembers each change of state, with the analytics listener's in-zone
 * and cross-zone partition counts, and when it happened.
 *
 * @author follower-fetch authors
 */
final class HealthTimeline implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "health-timeline");
		thread.setDaemon(true);
		return thread;
	});

	private final List<Change> changes = new ArrayList<>();

	private volatile long origin = System.nanoTime();

	private HealthTimeline(ConfigurableApplicationContext context) {
		this.context = context;
	}

	static HealthTimeline start(ConfigurableApplicationContext context) {
		HealthTimeline timeline = new HealthTimeline(context);
		timeline.sampler.scheduleWithFixedDelay(timeline::sample, 0, 100, TimeUnit.MILLISECONDS);
		return timeline;
	}

	/**
	 * Measure times from the given {@link System#nanoTime()} on.
	 * @param origin the origin
	 */
	void mark(long origin) {
		this.origin = origin;
	}

	private void sample() {
		try {
			Map<String, Object> details = BootApis.health(this.context).details();
			Map<String, Object> analytics = HealthWatch.listener(details, "analytics");
			String state = details.get("state") + ((analytics != null)
					? "(" + analytics.get("zoneLocalPartitions") + "/" + analytics.get("crossZonePartitions") + ")"
					: "");
			synchronized (this.changes) {
				if (this.changes.isEmpty() || !this.changes.get(this.changes.size() - 1).state().equals(state)) {
					this.changes.add(new Change(System.nanoTime(), state));
				}
			}
		}
		catch (RuntimeException ex) {
			// the next sample tries again
		}
	}

	/**
	 * The states seen, each change once, in order, without the counts.
	 * @return the states
	 */
	List<String> states() {
		synchronized (this.changes) {
			List<String> states = new ArrayList<>();
			this.changes.stream()
				.map((change) -> change.state().replaceAll("\\(.*", ""))
				.filter((state) -> states.isEmpty() || !states.get(states.size() - 1).equals(state))
				.forEach(states::add);
			return states;
		}
	}

	/**
	 * Each change as "ms from the mark: STATE(in-zone/cross-zone of analytics)".
	 * @return the changes
	 */
	List<String> timeline() {
		synchronized (this.changes) {
			return this.changes.stream()
				.map((change) -> Duration.ofNanos(change.at() - this.origin).toMillis() + " " + change.state())
				.toList();
		}
	}

	@Override
	public void close() {
		this.sampler.shutdownNow();
	}

	private record Change(long at, String state) {

	}

}
