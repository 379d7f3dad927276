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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Sends records with unique keys ({@code key-000000}, {@code key-000001}, ...) at a steady
 * rate from a background thread, with {@code acks=all} and idempotence, and remembers
 * which keys were acknowledged and when they were sent.
 *
 * @author follower-fetch authors
 */
final class SteadyProducer implements AutoCloseable {

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

	private final String topic;

	private final int recordsPerSecond;

	private final KafkaProducer<String, String> producer;

	private final ScheduledExecutorService scheduler;

	private final AtomicInteger next = new AtomicInteger();

	private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();

	private final Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();

	private final List<String> failures = new CopyOnWriteArrayList<>();

	private boolean stopped;

	private SteadyProducer(String bootstrapServers, String topic, int recordsPerSecond) {
		this.topic = topic;
		this.recordsPerSecond = recordsPerSecond;
		this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
				ProducerConfig.LINGER_MS_CONFIG, 0, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000,
				ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000), new StringSerializer(), new StringSerializer());
		this.scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "steady-producer-" + topic);
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Start sending.
	 * @param bootstrapServers the cluster
	 * @param topic the topic
	 * @param recordsPerSecond the rate
	 * @return the running producer
	 */
	static SteadyProducer start(String bootstrapServers, String topic, int recordsPerSecond) {
		SteadyProducer producer = new SteadyProducer(bootstrapServers, topic, recordsPerSecond);
		long period = TimeUnit.SECONDS.toMicros(1) / recordsPerSecond;
		producer.scheduler.scheduleAtFixedRate(producer::sendNext, 0, period, TimeUnit.MICROSECONDS);
		return producer;
	}

	private void sendNext() {
		String key = "key-%06d".formatted(this.next.getAndIncrement());
		long sentAt = System.nanoTime();
		try {
			this.producer.send(new ProducerRecord<>(this.topic, key, key), (metadata, exception) -> {
				if (exception != null) {
					this.failures.add(key + ": " + exception);
				}
				else {
					this.acknowledgedAt.put(key, System.nanoTime());
					this.acknowledged.put(key, sentAt);
				}
			});
		}
		catch (RuntimeException ex) {
			this.failures.add(key + ": " + ex);
		}
	}

	/**
	 * Stop sending and wait for every record sent to be acknowledged or to fail.
	 */
	synchronized void stop() {
		if (this.stopped) {
			return;
		}
		this.stopped = true;
		this.scheduler.shutdown();
		try {
			if (!this.scheduler.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
				this.failures.add("the send thread did not stop within " + CLOSE_TIMEOUT);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.producer.close(CLOSE_TIMEOUT);
	}

	/**
	 * The keys the cluster acknowledged, with the {@link System#nanoTime()} they were
	 * sent at.
	 * @return a copy of the send time by key
	 */
	Map<String, Long> acknowledged() {
		return Map.copyOf(this.acknowledged);
	}

	/**
	 * The keys the cluster acknowledged, with the {@link System#nanoTime()} the
	 * acknowledgement arrived at, so that a test can tell the time a record waited at the
	 * producer from the time it waited for a consumer.
	 * @return a copy of the acknowledgement time by key
	 */
	Map<String, Long> acknowledgedAt() {
		return Map.copyOf(this.acknowledgedAt);
	}

	/**
	 * Stop, then wait until every listener has received every acknowledged record, and
	 * assert that no send failed, that more than a second's worth of records was sent, and
	 * that each listener received exactly the acknowledged keys.
	 * @param listeners what the listeners received
	 * @param timeout how long each listener may take to catch up
	 * @param listenerIds the listeners
	 * @return the acknowledged keys with their send time
	 */
	Map<String, Long> stopAndAwaitReceived(Listeners listeners, Duration timeout, String... listenerIds) {
		stop();
		assertThat(failures()).isEmpty();
		Map<String, Long> produced = acknowledged();
		assertThat(produced).hasSizeGreaterThan(this.recordsPerSecond);
		for (String listenerId : listenerIds) {
			await(listenerId + " receives all " + produced.size() + " acknowledged records").atMost(timeout)
				.until(() -> listeners.keys(listenerId).keySet().containsAll(produced.keySet()));
			assertThat(listeners.keys(listenerId).keySet()).containsExactlyInAnyOrderElementsOf(produced.keySet());
		}
		return produced;
	}

	/**
	 * The sends that failed, in words.
	 * @return the failures
	 */
	List<String> failures() {
		return List.copyOf(this.failures);
	}

	@Override
	public void close() {
		stop();
	}

}
