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
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.stereotype.Component;

/**
 * How long records take from the producer to each listener: the Micrometer timer
 * {@code demo.end.to.end.latency}, tagged with the listener id, which also publishes its
 * median over the last {@value #WINDOW_SECONDS} seconds.
 *
 * @author follower-fetch authors
 */
@Component
class EndToEndLatency {

	private static final int WINDOW_SECONDS = 30;

	private final MeterRegistry registry;

	private final Map<String, Timer> timers = new ConcurrentHashMap<>();

	EndToEndLatency(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Record that a listener received a record now.
	 * @param listenerId the listener
	 * @param record the record, with the timestamp its producer gave it
	 */
	void record(String listenerId, ConsumerRecord<?, ?> record) {
		long millis = Math.max(0, System.currentTimeMillis() - record.timestamp());
		this.timers.computeIfAbsent(listenerId, this::timer).record(millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * The median latency of each listener over the last {@value #WINDOW_SECONDS} seconds.
	 * @return the medians by listener id, for the listeners that have received records
	 */
	Map<String, Duration> medians() {
		Map<String, Duration> medians = new TreeMap<>();
		this.timers.forEach((listenerId, timer) -> medians.put(listenerId, median(timer)));
		return medians;
	}

	private static Duration median(Timer timer) {
		ValueAtPercentile median = timer.takeSnapshot().percentileValues()[0];
		return Duration.ofMillis(Math.round(median.value(TimeUnit.MILLISECONDS)));
	}

	private Timer timer(String listenerId) {
		return Timer.builder("demo.end.to.end.latency")
			.description("Time from a record's creation by the producer to its arrival in a listener")
			.tag("listener", listenerId)
			.publishPercentiles(0.5)
			.percentilePrecision(2)
			.distributionStatisticExpiry(Duration.ofSeconds(WINDOW_SECONDS))
			.register(this.registry);
	}

}
