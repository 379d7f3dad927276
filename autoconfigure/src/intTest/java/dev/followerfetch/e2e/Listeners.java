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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.followerfetch.test.ConsumerReadStats;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.context.ApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.awaitility.Awaitility.await;

/**
 * Records what each listener of an end-to-end test received, and gives access to its
 * container's client metrics.
 *
 * @author follower-fetch authors
 */
public final class Listeners {

	private final Map<String, Set<String>> received = new ConcurrentHashMap<>();

	private final Map<String, Map<String, Long>> firstReceivedByKey = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();

	/**
	 * Record a record as received by a listener.
	 * @param listenerId the listener
	 * @param record the record
	 */
	public void received(String listenerId, ConsumerRecord<?, ?> record) {
		long now = System.nanoTime();
		this.received.computeIfAbsent(listenerId, (id) -> ConcurrentHashMap.newKeySet())
			.add(record.topic() + "-" + record.partition() + "@" + record.offset());
		this.deliveries.computeIfAbsent(listenerId, (id) -> new AtomicInteger()).incrementAndGet();
		String key = key(record.key());
		if (key != null) {
			this.firstReceivedByKey.computeIfAbsent(listenerId, (id) -> new ConcurrentHashMap<>())
				.putIfAbsent(key, now);
		}
	}

	/**
	 * The keys a listener received, with the {@link System#nanoTime()} of their first
	 * delivery.
	 * @param listenerId the listener
	 * @return a copy of the first delivery time by key
	 */
	public Map<String, Long> keys(String listenerId) {
		return Map.copyOf(this.firstReceivedByKey.getOrDefault(listenerId, Map.of()));
	}

	/**
	 * The number of times a listener was called, redeliveries included.
	 * @param listenerId the listener
	 * @return the count
	 */
	public int deliveries(String listenerId) {
		AtomicInteger count = this.deliveries.get(listenerId);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * The number of records a listener was given more than once.
	 * @param listenerId the listener
	 * @return deliveries beyond the first of each record
	 */
	public int redelivered(String listenerId) {
		return deliveries(listenerId) - keys(listenerId).size();
	}

	/**
	 * Wait until a listener has received a number of distinct records.
	 * @param listenerId the listener
	 * @param count the number of records
	 */
	public void awaitReceived(String listenerId, int count) {
		await("listener " + listenerId + " receives " + count + " records").atMost(Duration.ofSeconds(60))
			.until(() -> received(listenerId) >= count);
	}

	/**
	 * The number of distinct records a listener received.
	 * @param listenerId the listener
	 * @return the count
	 */
	public int received(String listenerId) {
		Set<String> records = this.received.get(listenerId);
		return (records != null) ? records.size() : 0;
	}

	/**
	 * The number of distinct records a listener received from one partition.
	 * @param listenerId the listener
	 * @param topic the topic
	 * @param partition the partition
	 * @return the count
	 */
	public int received(String listenerId, String topic, int partition) {
		String prefix = topic + "-" + partition + "@";
		Set<String> records = this.received.get(listenerId);
		return (records != null) ? (int) records.stream().filter((record) -> record.startsWith(prefix)).count() : 0;
	}

	private static String key(Object key) {
		if (key instanceof byte[] bytes) {
			return new String(bytes, StandardCharsets.UTF_8);
		}
		return (key != null) ? key.toString() : null;
	}

	/**
	 * Where one listener's consumers have read from so far, as their own metrics say.
	 * @param context the application context
	 * @param listenerId the listener
	 * @return the read statistics
	 */
	public static ConsumerReadStats readStats(ApplicationContext context, String listenerId) {
		MessageListenerContainer container = context.getBean(KafkaListenerEndpointRegistry.class)
			.getListenerContainer(listenerId);
		if (container == null) {
			throw new IllegalStateException("No listener container " + listenerId);
		}
		return ConsumerReadStats.ofClients(container.metrics());
	}

}
