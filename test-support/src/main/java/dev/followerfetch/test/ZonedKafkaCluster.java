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

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.TopicDescription;

import org.springframework.util.Assert;

/**
 * A Kafka cluster with one broker per zone, broker {@code i} in the {@code i}-th zone
 * ({@code broker.rack}), whether its brokers run in the test JVM
 * ({@link MultiZoneKafkaCluster}) or as processes in containers
 * ({@link MultiZoneKafkaContainers}): what a test needs of either, so that it can run on
 * both. Every wait is bounded.
 *
 * @author follower-fetch authors
 */
public interface ZonedKafkaCluster extends AutoCloseable {

	/**
	 * Return the {@code bootstrap.servers} value for clients of this cluster.
	 * @return a comma-separated list of {@code host:port} pairs
	 */
	String bootstrapServers();

	/**
	 * Return the zones of the brokers, in broker id order.
	 * @return the zone of broker 0, broker 1, ...
	 */
	List<String> zones();

	/**
	 * Return the id of the broker in the given zone.
	 * @param zone a zone of this cluster
	 * @return the broker id
	 */
	default int brokerId(String zone) {
		int brokerId = zones().indexOf(zone);
		Assert.isTrue(brokerId >= 0, () -> "No broker in zone '" + zone + "'; zones are " + zones());
		return brokerId;
	}

	/**
	 * Return the {@code broker.rack} of the given broker.
	 * @param brokerId a broker id of this cluster
	 * @return the zone of that broker
	 */
	default String rackOf(int brokerId) {
		Assert.isTrue(brokerId >= 0 && brokerId < zones().size(),
				() -> "No broker " + brokerId + "; broker ids are 0.." + (zones().size() - 1));
		return zones().get(brokerId);
	}

	/**
	 * Create a topic with the given replicas and wait until every partition has a leader
	 * and a full ISR.
	 * @param name the topic name
	 * @param replicaAssignment the broker ids of the replicas of each partition, preferred
	 * leader first; partitions must be numbered 0..n-1
	 */
	void createTopic(String name, Map<Integer, List<Integer>> replicaAssignment);

	/**
	 * Create a topic whose partition leaders rotate over the zones, and wait as
	 * {@link #createTopic(String, Map)} does. Partition {@code p} has its replicas on
	 * brokers {@code p, p+1, ...} (modulo the broker count), so with three zones and a
	 * replication factor of 3 the assignment is {@code {0:[0,1,2], 1:[1,2,0], 2:[2,0,1],
	 * 3:[0,1,2], ...}}. With a replication factor below the zone count, some partitions
	 * have no replica in some zones.
	 * @param name the topic name
	 * @param partitions the number of partitions
	 * @param replicationFactor the number of replicas of each partition
	 * @return the replica assignment that was created
	 */
	default Map<Integer, List<Integer>> createTopicLedByEveryZone(String name, int partitions,
			int replicationFactor) {
		int brokers = zones().size();
		Assert.isTrue(partitions > 0, "'partitions' must be positive");
		Assert.isTrue(replicationFactor > 0 && replicationFactor <= brokers,
				() -> "'replicationFactor' must be between 1 and " + brokers);
		Map<Integer, List<Integer>> assignment = new TreeMap<>();
		for (int partition = 0; partition < partitions; partition++) {
			int first = partition;
			assignment.put(partition,
					IntStream.range(0, replicationFactor).mapToObj((i) -> (first + i) % brokers).toList());
		}
		createTopic(name, assignment);
		return assignment;
	}

	/**
	 * Describe a topic with an Admin client.
	 * @param name the topic name
	 * @return the leader, replicas and ISR of each partition
	 */
	TopicDescription describeTopic(String name);

	/**
	 * Send records with {@code acks=all}, spread round-robin over all partitions of the
	 * topic, and return once every record is acknowledged.
	 * @param topic the topic
	 * @param count the number of records
	 * @param recordSizeBytes the size of each record value
	 */
	void produce(String topic, int count, int recordSizeBytes);

	/**
	 * Stop one broker as a rolling restart does: a controlled shutdown that moves the
	 * leadership of its partitions to other replicas and takes it out of every ISR. Return
	 * once it has stopped and the cluster metadata no longer lists it. Its data stays, so
	 * {@link #startBroker(int)} brings it back.
	 * @param brokerId a broker id of this cluster
	 */
	void stopBroker(int brokerId);

	/**
	 * Start a stopped broker again, with the same node id, address and data. Return once it
	 * runs and the cluster metadata lists it; it may still be catching up, so wait for the
	 * ISR of a topic with {@link #awaitInSync(String)}.
	 * @param brokerId a broker id of this cluster
	 */
	void startBroker(int brokerId);

	/**
	 * Wait until every partition of a topic has a leader and every replica in its ISR.
	 * @param topic the topic name
	 */
	void awaitInSync(String topic);

	/**
	 * Stop every broker and delete their data. Does nothing when already closed.
	 */
	@Override
	void close();

}
