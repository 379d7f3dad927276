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

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

/**
 * The brokers of a cluster, as the fixture drives them: Kafka's test kit on the
 * application's class path ({@link KafkaInternals}), or in a class loader of its own
 * ({@link IsolatedBrokers}) when the application's Kafka is a line the test kit does not
 * bind. Only JDK and kafka-clients types cross it.
 *
 * @author follower-fetch authors
 */
interface Brokers {

	/**
	 * Format the storage, start every node and wait until the brokers are ready.
	 */
	void start();

	String bootstrapServers();

	Set<Integer> brokerIds();

	Set<Integer> runningBrokerIds();

	/**
	 * Stop a broker with a controlled shutdown, keeping its data.
	 */
	void shutDownBroker(int brokerId);

	/**
	 * Start a broker stopped by {@link #shutDownBroker(int)} again.
	 */
	void startUpBroker(int brokerId);

	/**
	 * Whether a broker's metadata cache lists another broker as alive.
	 */
	boolean seesAlive(int observerId, int brokerId);

	/**
	 * The leader and ISR of a partition as a broker's metadata cache has them.
	 */
	Optional<PartitionState> partitionState(int brokerId, String topic, int partition);

	/**
	 * Whether a broker's replica manager hosts a partition, and leads it.
	 */
	Hosting hosting(int brokerId, TopicPartition partition);

	/**
	 * Remove the replica fetchers of a broker for the given partitions, remembering where
	 * each stopped.
	 * @return the partitions whose fetchers were removed
	 */
	Set<TopicPartition> stallReplication(int brokerId, Set<TopicPartition> followed);

	/**
	 * Add back the replica fetchers removed by {@link #stallReplication(int, Set)}.
	 */
	void resumeReplication(int brokerId);

	/**
	 * Stop every node and delete the cluster's data.
	 */
	void close() throws Exception;

	/**
	 * The version of the kafka-clients on the application's class path, read as its
	 * {@code AppInfoParser} reads it (a class that Kafka 4.4 moved to an internals package).
	 */
	static String kafkaVersion() {
		try (InputStream in = Brokers.class.getResourceAsStream("/kafka/kafka-version.properties")) {
			Properties version = new Properties();
			if (in != null) {
				version.load(in);
			}
			return version.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	/**
	 * The leader, leader epoch and ISR of a partition, as a broker knows them.
	 */
	record PartitionState(int leader, int leaderEpoch, List<Integer> isr) {

		int isrSize() {
			return this.isr.size();
		}

	}

	/**
	 * How a broker's replica manager holds a partition.
	 */
	enum Hosting {

		NONE, FOLLOWER, LEADER

	}

}
