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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Members of a consumer group that are plain Kafka consumers (no Spring, no starter),
 * many in one JVM: a few threads take turns polling them without blocking, so that each
 * joins, rebalances and heartbeats as a consumer of its own would. They report no JMX
 * metrics, so every consumer the JVM's MBeans show belongs to someone else.
 *
 * @author follower-fetch authors
 */
final class PlainGroupMembers implements AutoCloseable {

	/**
	 * Every member's {@code client.id} starts with this.
	 */
	static final String CLIENT_ID_PREFIX = "plain-member-";

	private static final Duration POLL_PAUSE = Duration.ofMillis(200);

	private final List<KafkaConsumer<byte[], byte[]>> consumers;

	private final List<Thread> pollers = new ArrayList<>();

	private final AtomicReference<Throwable> failure = new AtomicReference<>();

	private volatile boolean running = true;

	private PlainGroupMembers(List<KafkaConsumer<byte[], byte[]>> consumers) {
		this.consumers = consumers;
	}

	/**
	 * Create the members, subscribe them and start polling them.
	 * @param bootstrapServers the cluster
	 * @param group the group they join
	 * @param topic the topic they subscribe to
	 * @param count how many members
	 * @param threads how many threads poll them
	 * @return the running members
	 */
	static PlainGroupMembers start(String bootstrapServers, String group, String topic, int count, int threads) {
		List<KafkaConsumer<byte[], byte[]>> consumers = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config(bootstrapServers, group, i));
			consumer.subscribe(List.of(topic));
			consumers.add(consumer);
		}
		PlainGroupMembers members = new PlainGroupMembers(consumers);
		int pollers = Math.max(1, Math.min(threads, count));
		for (int t = 0; t < pollers; t++) {
			List<KafkaConsumer<byte[], byte[]>> share = new ArrayList<>();
			for (int i = t; i < count; i += pollers) {
				share.add(consumers.get(i));
			}
			Thread thread = new Thread(() -> members.poll(share), "plain-members-" + t);
			thread.setDaemon(true);
			members.pollers.add(thread);
			thread.start();
		}
		return members;
	}

	/**
	 * The settings of one member: Kafka's defaults but for what keeps many of them in one
	 * JVM light and what keeps their own requests out of the windows measured.
	 * {@code cooperative-sticky} is the strategy the starter's consumers share with a member
	 * that does not offer the zone-aware assignor, so the group is assigned by the same
	 * strategy with and without the starter. Offsets are not committed and metadata is not
	 * refreshed periodically: members started together would otherwise all ask at once,
	 * every five minutes, in one window and not in the other.
	 */
	private static Map<String, Object> config(String bootstrapServers, String group, int index) {
		return Map.ofEntries(Map.entry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
				Map.entry(ConsumerConfig.GROUP_ID_CONFIG, group),
				Map.entry(ConsumerConfig.CLIENT_ID_CONFIG, CLIENT_ID_PREFIX + index),
				Map.entry(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class),
				Map.entry(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class),
				Map.entry(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
						CooperativeStickyAssignor.class.getName()),
				Map.entry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
				Map.entry(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
				Map.entry(ConsumerConfig.METADATA_MAX_AGE_CONFIG, (int) Duration.ofHours(1).toMillis()),
				Map.entry(ConsumerConfig.METRIC_REPORTER_CLASSES_CONFIG, ""),
				// the heartbeat thread wakes up once per retry backoff: ten times a second by default
				Map.entry(ConsumerConfig.RETRY_BACKOFF_MS_CONFIG, 500),
				Map.entry(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024),
				Map.entry(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024));
	}

	private void poll(List<KafkaConsumer<byte[], byte[]>> share) {
		try {
			while (this.running) {
				for (KafkaConsumer<byte[], byte[]> consumer : share) {
					consumer.poll(Duration.ZERO);
				}
				Thread.sleep(POLL_PAUSE.toMillis());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (RuntimeException ex) {
			this.failure.compareAndSet(null, ex);
		}
	}

	/**
	 * Fail when a poller stopped on an error.
	 */
	void check() {
		Throwable thrown = this.failure.get();
		if (thrown != null) {
			throw new IllegalStateException("A plain member failed: " + thrown, thrown);
		}
	}

	int size() {
		return this.consumers.size();
	}

	@Override
	public void close() {
		this.running = false;
		List<Thread> closers = new ArrayList<>();
		int threads = this.pollers.size();
		for (int t = 0; t < threads; t++) {
			Thread poller = this.pollers.get(t);
			int first = t;
			Thread closer = new Thread(() -> {
				try {
					poller.join(Duration.ofMinutes(1).toMillis());
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
				for (int i = first; i < this.consumers.size(); i += threads) {
					this.consumers.get(i).close(CloseOptions.timeout(Duration.ofSeconds(5)));
				}
			}, "plain-members-close-" + t);
			closers.add(closer);
			closer.start();
		}
		try {
			for (Thread closer : closers) {
				closer.join();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
