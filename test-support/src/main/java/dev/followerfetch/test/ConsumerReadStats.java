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

import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a Kafka consumer read from, as the client itself reports it: a snapshot of the
 * {@code preferred-read-replica} gauge of each partition and of the bytes received from
 * each broker. Bytes count every response from that broker (fetches, metadata, offsets),
 * not only records; connections to bootstrap addresses and to the group coordinator are
 * left out.
 * <p>
 * A partition read from its leader reports {@link #LEADER}, also when the leader is in
 * the consumer's own zone; decide whether a read was local from the rack of the broker
 * that served it.
 *
 * @author follower-fetch authors
 */
public final class ConsumerReadStats {

	/**
	 * Preferred read replica reported for a partition read from its leader.
	 */
	public static final int LEADER = -1;

	private static final String FETCH_MANAGER_GROUP = "consumer-fetch-manager-metrics";

	private static final String NODE_GROUP = "consumer-node-metrics";

	private static final String NODE_ID_PREFIX = "node-";

	private static final int FIRST_COORDINATOR_ID = Integer.MAX_VALUE / 2;

	private static final Comparator<TopicPartition> PARTITION_ORDER = Comparator.comparing(TopicPartition::topic)
		.thenComparingInt(TopicPartition::partition);

	private final Map<TopicPartition, Integer> preferredReadReplicas;

	private final Map<Integer, Long> bytesByBroker;

	private ConsumerReadStats(Map<TopicPartition, Integer> preferredReadReplicas, Map<Integer, Long> bytesByBroker) {
		this.preferredReadReplicas = Collections.unmodifiableMap(preferredReadReplicas);
		this.bytesByBroker = Collections.unmodifiableMap(bytesByBroker);
	}

	/**
	 * Take a snapshot of the metrics of one consumer, such as {@code consumer.metrics()}.
	 * @param metrics the client metrics
	 * @return the snapshot
	 */
	public static ConsumerReadStats of(Map<MetricName, ? extends Metric> metrics) {
		return ofClients(Map.of("", metrics));
	}

	/**
	 * Take a snapshot of the metrics of several consumers, such as
	 * {@code MessageListenerContainer.metrics()}; bytes are summed over the consumers.
	 * @param metricsByClientId the client metrics of each consumer
	 * @return the snapshot
	 */
	public static ConsumerReadStats ofClients(
			Map<String, ? extends Map<MetricName, ? extends Metric>> metricsByClientId) {
		Map<TopicPartition, Integer> preferredReadReplicas = new TreeMap<>(PARTITION_ORDER);
		Map<Integer, Long> bytesByBroker = new TreeMap<>();
		metricsByClientId.values().forEach((metrics) -> metrics.forEach((name, metric) -> {
			if (FETCH_MANAGER_GROUP.equals(name.group()) && "preferred-read-replica".equals(name.name())) {
				TopicPartition partition = new TopicPartition(name.tags().get("topic"),
						Integer.parseInt(name.tags().get("partition")));
				preferredReadReplicas.put(partition, ((Number) metric.metricValue()).intValue());
			}
			else if (NODE_GROUP.equals(name.group()) && "incoming-byte-total".equals(name.name())) {
				String nodeId = name.tags().get("node-id");
				// only node-N is a broker: since Kafka 4.4 the coordinator's connection is node-+N
				if (nodeId != null && nodeId.matches(NODE_ID_PREFIX + "\\d{1,9}")) {
					int brokerId = Integer.parseInt(nodeId.substring(NODE_ID_PREFIX.length()));
					if (brokerId >= 0 && brokerId < FIRST_COORDINATOR_ID) {
						bytesByBroker.merge(brokerId, (long) ((Number) metric.metricValue()).doubleValue(), Long::sum);
					}
				}
			}
		}));
		preferredReadReplicas.keySet().removeIf((partition) -> isDeprecatedDuplicate(partition, preferredReadReplicas));
		return new ConsumerReadStats(preferredReadReplicas, bytesByBroker);
	}

	/**
	 * For a topic with a dot in its name, kafka-clients 4.x registers the gauge a second
	 * time under the name with dots replaced by underscores. Kafka refuses topic names that
	 * collide that way, so the underscore twin is never a topic of its own.
	 */
	private static boolean isDeprecatedDuplicate(TopicPartition partition, Map<TopicPartition, Integer> all) {
		return !partition.topic().contains(".") && all.keySet()
			.stream()
			.anyMatch((other) -> other.partition() == partition.partition() && other.topic().contains(".")
					&& other.topic().replace('.', '_').equals(partition.topic()));
	}

	/**
	 * Return the preferred read replica of each partition the consumer has fetched:
	 * the broker id it reads from, or {@link #LEADER}.
	 * @return the preferred read replica by partition
	 */
	public Map<TopicPartition, Integer> preferredReadReplicas() {
		return this.preferredReadReplicas;
	}

	/**
	 * Return the bytes received from each broker.
	 * @return the bytes by broker id
	 */
	public Map<Integer, Long> bytesByBroker() {
		return this.bytesByBroker;
	}

	/**
	 * Return the bytes received from all brokers.
	 * @return the total bytes
	 */
	public long totalBytes() {
		return this.bytesByBroker.values().stream().mapToLong(Long::longValue).sum();
	}

	/**
	 * Return the bytes received from the brokers of each zone.
	 * @param rackOfBroker the rack of a broker id, such as
	 * {@link MultiZoneKafkaCluster#rackOf(int)}
	 * @return the bytes by zone
	 */
	public Map<String, Long> bytesByZone(IntFunction<String> rackOfBroker) {
		Map<String, Long> bytesByZone = new TreeMap<>();
		this.bytesByBroker
			.forEach((brokerId, bytes) -> bytesByZone.merge(rackOfBroker.apply(brokerId), bytes, Long::sum));
		return Collections.unmodifiableMap(bytesByZone);
	}

	/**
	 * Return the fraction of all received bytes that came from the brokers of a zone.
	 * @param zone the zone
	 * @param rackOfBroker the rack of a broker id, such as
	 * {@link MultiZoneKafkaCluster#rackOf(int)}
	 * @return a value between 0 and 1; 0 when nothing was received
	 */
	public double fractionOfBytesFrom(String zone, IntFunction<String> rackOfBroker) {
		long total = totalBytes();
		return (total != 0) ? (double) bytesByZone(rackOfBroker).getOrDefault(zone, 0L) / total : 0;
	}

	/**
	 * Return the bytes received since an earlier snapshot of the same consumers, with the
	 * preferred read replicas of this snapshot.
	 * @param earlier the earlier snapshot
	 * @return the difference
	 */
	public ConsumerReadStats since(ConsumerReadStats earlier) {
		Map<Integer, Long> bytesByBroker = new TreeMap<>();
		this.bytesByBroker.forEach((brokerId, bytes) -> bytesByBroker.put(brokerId,
				bytes - earlier.bytesByBroker.getOrDefault(brokerId, 0L)));
		return new ConsumerReadStats(this.preferredReadReplicas, bytesByBroker);
	}

	@Override
	public String toString() {
		return "ConsumerReadStats[preferredReadReplicas=" + this.preferredReadReplicas + ", bytesByBroker="
				+ this.bytesByBroker + "]";
	}

}
