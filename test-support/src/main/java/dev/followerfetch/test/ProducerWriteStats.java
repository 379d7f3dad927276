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

package dev.followerfetch.test;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.IntFunction;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a Kafka producer wrote to, as the client itself reports it: the bytes it sent to
 * each broker ({@code producer-node-metrics} {@code outgoing-byte-total}, by the broker's
 * rack) and the partition of each acknowledged record. Bytes count every request to that
 * broker (produce requests with their record batches, metadata, API versions), not only
 * records; connections to bootstrap addresses are left out.
 *
 * @author follower-fetch authors
 */
public final class ProducerWriteStats {

	private static final String NODE_GROUP = "producer-node-metrics";

	private static final String NODE_ID_PREFIX = "node-";

	private final Map<String, Double> bytesByRack;

	private final Map<TopicPartition, Integer> recordsByPartition;

	private ProducerWriteStats(Map<String, Double> bytesByRack, Map<TopicPartition, Integer> recordsByPartition) {
		this.bytesByRack = Collections.unmodifiableMap(bytesByRack);
		this.recordsByPartition = Collections.unmodifiableMap(recordsByPartition);
	}

	/**
	 * Read a producer's metrics and the acknowledgements of the records it sent.
	 * @param metrics the producer's metrics, for example {@code KafkaTemplate.metrics()}
	 * @param sent the metadata of every acknowledged record
	 * @param rackOf the rack of a broker id
	 * @return the stats
	 */
	public static ProducerWriteStats of(Map<MetricName, ? extends Metric> metrics, Collection<RecordMetadata> sent,
			IntFunction<String> rackOf) {
		Map<String, Double> bytes = new TreeMap<>();
		metrics.forEach((name, metric) -> {
			String node = name.tags().get("node-id");
			if (NODE_GROUP.equals(name.group()) && "outgoing-byte-total".equals(name.name()) && node != null
					&& node.startsWith(NODE_ID_PREFIX)) {
				int brokerId = Integer.parseInt(node.substring(NODE_ID_PREFIX.length()));
				if (brokerId >= 0 && metric.metricValue() instanceof Number value) {
					bytes.merge(rackOf.apply(brokerId), value.doubleValue(), Double::sum);
				}
			}
		});
		Map<TopicPartition, Integer> records = new TreeMap<>(
				(a, b) -> (a.topic().equals(b.topic())) ? Integer.compare(a.partition(), b.partition())
						: a.topic().compareTo(b.topic()));
		sent.forEach((metadata) -> records.merge(new TopicPartition(metadata.topic(), metadata.partition()), 1,
				Integer::sum));
		return new ProducerWriteStats(bytes, records);
	}

	/**
	 * Bytes sent to the brokers of each rack.
	 * @return the bytes by rack
	 */
	public Map<String, Double> bytesByRack() {
		return this.bytesByRack;
	}

	/**
	 * Share of the bytes sent to the brokers of one rack.
	 * @param rack the rack
	 * @return a share between 0 and 1
	 */
	public double byteShare(String rack) {
		double total = this.bytesByRack.values().stream().mapToDouble(Double::doubleValue).sum();
		return (total > 0) ? this.bytesByRack.getOrDefault(rack, 0.0) / total : 0;
	}

	/**
	 * Acknowledged records by partition.
	 * @return the record counts
	 */
	public Map<TopicPartition, Integer> recordsByPartition() {
		return this.recordsByPartition;
	}

	/**
	 * Share of the acknowledged records written to partitions a broker of one rack leads.
	 * @param rack the rack
	 * @param leaderRackOf the rack of a partition's leader
	 * @return a share between 0 and 1
	 */
	public double recordShare(String rack, Function<TopicPartition, String> leaderRackOf) {
		int total = this.recordsByPartition.values().stream().mapToInt(Integer::intValue).sum();
		int inRack = this.recordsByPartition.entrySet()
			.stream()
			.filter((entry) -> rack.equals(leaderRackOf.apply(entry.getKey())))
			.mapToInt(Map.Entry::getValue)
			.sum();
		return (total > 0) ? (double) inRack / total : 0;
	}

	@Override
	public String toString() {
		return "bytes by rack " + this.bytesByRack + ", records by partition " + this.recordsByPartition;
	}

}
