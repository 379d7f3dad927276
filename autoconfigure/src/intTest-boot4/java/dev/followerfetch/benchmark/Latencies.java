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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The end-to-end latency of every record at every listener of a latency benchmark, by
 * sequence number: nanoseconds since the send, and milliseconds since the record's
 * CreateTime. A record's key is its sequence number (an {@code int}), and its value
 * starts with the {@link System#nanoTime()} of its send, which works because producer and
 * listeners share the JVM. Record {@code n} goes to partition {@code n % partitions}. The
 * first delivery of a record to a listener counts; a redelivery is ignored.
 *
 * @author follower-fetch authors
 */
final class Latencies {

	private final int records;

	private final int warmUpRecords;

	private final int partitions;

	private final Map<String, AtomicLongArray> nanos = new ConcurrentHashMap<>();

	private final Map<String, AtomicLongArray> createTimeMillis = new ConcurrentHashMap<>();

	/**
	 * Create an empty record of latencies.
	 * @param listeners the name of each listener
	 * @param records how many records are sent
	 * @param warmUpRecords how many of the first records the percentiles leave out
	 * @param partitions how many partitions the records are sent to, round-robin
	 */
	Latencies(List<String> listeners, int records, int warmUpRecords, int partitions) {
		this.records = records;
		this.warmUpRecords = warmUpRecords;
		this.partitions = partitions;
		for (String listener : listeners) {
			this.nanos.put(listener, unset());
			this.createTimeMillis.put(listener, unset());
		}
	}

	private AtomicLongArray unset() {
		long[] values = new long[this.records];
		Arrays.fill(values, -1);
		return new AtomicLongArray(values);
	}

	/**
	 * The key of record {@code sequence}.
	 */
	static byte[] key(int sequence) {
		return ByteBuffer.allocate(Integer.BYTES).putInt(sequence).array();
	}

	/**
	 * A value of {@code size} bytes stamped with the time of the send, now.
	 */
	static byte[] value(int size) {
		return ByteBuffer.allocate(size).putLong(System.nanoTime()).array();
	}

	void record(String listener, ConsumerRecord<byte[], byte[]> record) {
		long now = System.nanoTime();
		long wallClock = System.currentTimeMillis();
		int sequence = ByteBuffer.wrap(record.key()).getInt();
		long sent = ByteBuffer.wrap(record.value()).getLong();
		this.nanos.get(listener).compareAndSet(sequence, -1, now - sent);
		this.createTimeMillis.get(listener).compareAndSet(sequence, -1, wallClock - record.timestamp());
	}

	/**
	 * Whether every listener has received every record.
	 */
	boolean complete() {
		return this.nanos.values().stream().allMatch((values) -> {
			for (int i = 0; i < values.length(); i++) {
				if (values.get(i) < 0) {
					return false;
				}
			}
			return true;
		});
	}

	/**
	 * Percentiles of the records after the warm-up.
	 * @param listener the listener
	 * @param partition a partition, or -1 for all
	 * @return the percentiles in nanoseconds
	 */
	Percentiles percentiles(String listener, int partition) {
		return percentiles(listener, (candidate) -> partition < 0 || candidate == partition);
	}

	/**
	 * Percentiles of the records after the warm-up on some of the partitions.
	 * @param listener the listener
	 * @param partitions which partitions count
	 * @return the percentiles in nanoseconds, or {@code null} when no partition counts
	 */
	Percentiles percentiles(String listener, IntPredicate partitions) {
		long[] measured = afterWarmUp(this.nanos.get(listener), partitions);
		return (measured.length != 0) ? Percentiles.of(measured) : null;
	}

	/**
	 * Percentiles of the records after the warm-up, measured from their CreateTime.
	 * @param listener the listener
	 * @return the percentiles in milliseconds
	 */
	Percentiles createTimePercentiles(String listener) {
		return Percentiles.of(afterWarmUp(this.createTimeMillis.get(listener), (partition) -> true));
	}

	private long[] afterWarmUp(AtomicLongArray values, IntPredicate partitions) {
		long[] measured = IntStream.range(this.warmUpRecords, this.records)
			.filter((sequence) -> partitions.test(sequence % this.partitions))
			.mapToLong(values::get)
			.toArray();
		Arrays.sort(measured);
		return measured;
	}

	/**
	 * Nearest-rank percentiles of a set of latencies.
	 */
	record Percentiles(int records, long p50, long p99, long max) {

		static Percentiles of(long[] sorted) {
			return new Percentiles(sorted.length, percentile(sorted, 0.50), percentile(sorted, 0.99),
					sorted[sorted.length - 1]);
		}

		private static long percentile(long[] sorted, double fraction) {
			int index = (int) Math.ceil(fraction * sorted.length) - 1;
			return sorted[Math.max(0, Math.min(index, sorted.length - 1))];
		}

	}

}
