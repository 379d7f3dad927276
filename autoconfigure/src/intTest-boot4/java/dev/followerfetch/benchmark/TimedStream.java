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
package dev.followerfetch.benchmark;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import static org.awaitility.Awaitility.await;

/**
 * A steady stream of records sent round-robin over a topic's partitions from a background
 * thread ({@code acks=all}, idempotent), and the first receipt of each at a listener of the
 * same JVM: the key of a record is its sequence number, and what the stream remembers is
 * the {@link System#nanoTime()} of each send, acknowledgement and first receipt. The
 * producer refreshes its metadata once an hour ({@code metadata.max.age.ms}), not every 5
 * minutes, so that it adds next to nothing to a count of Metadata requests taken while it
 * runs.
 *
 * @author follower-fetch authors
 */
final class TimedStream implements AutoCloseable {

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

	private final String topic;

	private final int partitions;

	private final Map<Long, Long> sent = new ConcurrentHashMap<>();

	private final Map<Long, Long> acknowledged = new ConcurrentHashMap<>();

	private final Map<Long, Long> received = new ConcurrentHashMap<>();

	private final AtomicInteger redelivered = new AtomicInteger();

	private final AtomicLong next = new AtomicLong();

	private final List<String> failures = new CopyOnWriteArrayList<>();

	private KafkaProducer<byte[], byte[]> producer;

	private ScheduledExecutorService scheduler;

	TimedStream(String topic, int partitions) {
		this.topic = topic;
		this.partitions = partitions;
	}

	/**
	 * Start sending.
	 * @param bootstrapServers the cluster
	 * @param recordsPerSecond the rate
	 */
	synchronized void start(String bootstrapServers, int recordsPerSecond) {
		this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
				ProducerConfig.LINGER_MS_CONFIG, 0, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000,
				ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000, ProducerConfig.METADATA_MAX_AGE_CONFIG, 3_600_000),
				new ByteArraySerializer(), new ByteArraySerializer());
		this.scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "timed-stream-" + this.topic);
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.scheduleAtFixedRate(this::sendNext, 0, TimeUnit.SECONDS.toMicros(1) / recordsPerSecond,
				TimeUnit.MICROSECONDS);
	}

	private void sendNext() {
		long sequence = this.next.getAndIncrement();
		byte[] key = ByteBuffer.allocate(Long.BYTES).putLong(sequence).array();
		this.sent.put(sequence, System.nanoTime());
		try {
			this.producer.send(
					new ProducerRecord<>(this.topic, (int) (sequence % this.partitions), key, new byte[100]),
					(metadata, exception) -> {
						if (exception != null) {
							this.failures.add(sequence + ": " + exception);
						}
						else {
							this.acknowledged.put(sequence, System.nanoTime());
						}
					});
		}
		catch (RuntimeException ex) {
			this.failures.add(sequence + ": " + ex);
		}
	}

	/**
	 * Remember the first receipt of a record.
	 * @param record the record a listener received
	 */
	void received(ConsumerRecord<byte[], byte[]> record) {
		long now = System.nanoTime();
		long sequence = ByteBuffer.wrap(record.key()).getLong();
		if (this.received.putIfAbsent(sequence, now) != null) {
			this.redelivered.incrementAndGet();
		}
	}

	/**
	 * How many records were received so far.
	 * @return the count of distinct records received
	 */
	int receivedCount() {
		return this.received.size();
	}

	/**
	 * Stop sending, wait for every send to be acknowledged or to fail, then for the
	 * listener to receive every acknowledged record.
	 * @param timeout how long the listener may take
	 */
	synchronized void stopAndAwaitReceived(Duration timeout) {
		close();
		await("every acknowledged record received").atMost(timeout)
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.received.keySet().containsAll(this.acknowledged.keySet()));
	}

	/**
	 * The longest time from send to first receipt of the records sent in a period.
	 * @param fromNanos the start of the period ({@link System#nanoTime()})
	 * @param toNanos its end
	 * @return the longest delay in milliseconds, -1 when no record sent then was received
	 */
	long longestDelayMillis(long fromNanos, long toNanos) {
		long longest = -1;
		for (Map.Entry<Long, Long> send : this.sent.entrySet()) {
			Long receipt = this.received.get(send.getKey());
			if (send.getValue() >= fromNanos && send.getValue() <= toNanos && receipt != null) {
				longest = Math.max(longest, receipt - send.getValue());
			}
		}
		return (longest < 0) ? -1 : TimeUnit.NANOSECONDS.toMillis(longest);
	}

	/**
	 * Records acknowledged but never received.
	 * @return the count
	 */
	long lost() {
		return this.acknowledged.keySet().stream().filter((sequence) -> !this.received.containsKey(sequence)).count();
	}

	/**
	 * Records the listener received more than once.
	 * @return the count of extra deliveries
	 */
	int redelivered() {
		return this.redelivered.get();
	}

	/**
	 * Records acknowledged.
	 * @return the count
	 */
	int acknowledgedCount() {
		return this.acknowledged.size();
	}

	/**
	 * Sends that failed, in words.
	 * @return the failures
	 */
	List<String> failures() {
		return List.copyOf(this.failures);
	}

	@Override
	public synchronized void close() {
		if (this.scheduler != null) {
			this.scheduler.shutdown();
			try {
				this.scheduler.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.scheduler = null;
		}
		if (this.producer != null) {
			this.producer.close(CLOSE_TIMEOUT);
			this.producer = null;
		}
	}

}
