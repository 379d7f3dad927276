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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;

import dev.followerfetch.test.MultiZoneKafkaCluster;

import org.springframework.boot.SpringApplication;

/**
 * A cloud region on loopback: a Kafka cluster with one broker in each of the zones
 * {@code az-a}, {@code az-b} and {@code az-c}, running the rack-aware replica selector,
 * and EC2 instance metadata saying that this process runs in {@code az-b}.
 * <p>
 * The broker racks are AZ ids, as on Amazon MSK. The metadata answers the AZ id
 * {@value #ZONE_ID} and the AZ name {@value #ZONE_NAME}, as an EC2 instance answers
 * {@code use1-az2} and {@code us-east-1b}; rack detection takes the form the brokers use.
 * <p>
 * Consumer offsets are kept without replicas: replicating the listeners' own offset
 * commits would wake the followers' fetches from the leaders at random, and blur how
 * much later than a leader a follower serves a record of the demo topic.
 *
 * @author follower-fetch authors
 */
final class LocalCloud implements AutoCloseable {

	static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	static final String ZONE_ID = "az-b";

	static final String ZONE_NAME = "us-east-1b";

	private final MultiZoneKafkaCluster cluster;

	private final Ec2MetadataStub metadata;

	private LocalCloud(MultiZoneKafkaCluster cluster, Ec2MetadataStub metadata) {
		this.cluster = cluster;
		this.metadata = metadata;
	}

	/**
	 * Start the brokers and the instance metadata, and wait until every broker is ready.
	 * @return the running cloud
	 */
	static LocalCloud start() {
		deferKafkaShutdownHooks();
		MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder()
			.zones(ZONES.toArray(String[]::new))
			.replicaSelector(true)
			.brokerProperty("offsets.topic.replication.factor", "1")
			.start();
		try {
			return new LocalCloud(cluster, Ec2MetadataStub.start(ZONE_ID, ZONE_NAME));
		}
		catch (IOException ex) {
			cluster.close();
			throw new UncheckedIOException("Failed to start the EC2 instance metadata stub", ex);
		}
	}

	/**
	 * The zone of an instance of the application, when several run: the first is in
	 * {@value #ZONE_ID}, as a single instance is, the next ones in the zones after it,
	 * then around again.
	 * @param instance the instance, from 1
	 * @return its zone, one of {@link #ZONES}
	 */
	static String zoneOf(int instance) {
		return ZONES.get((ZONES.indexOf(ZONE_ID) + instance - 1) % ZONES.size());
	}

	/**
	 * The AZ name EC2 instance metadata answers in a zone of this cloud, as
	 * {@value #ZONE_NAME} for {@value #ZONE_ID}.
	 * @param zoneId one of {@link #ZONES}
	 * @return the AZ name
	 */
	static String zoneName(String zoneId) {
		return "us-east-1" + zoneId.substring(zoneId.length() - 1);
	}

	/**
	 * Kafka's test kit deletes the brokers' data from a JVM shutdown hook of its own,
	 * which on Ctrl-C would run while the brokers are still stopping and make them log
	 * errors. Its hooks run instead after the application context, and with it this cloud,
	 * has closed.
	 */
	private static void deferKafkaShutdownHooks() {
		MultiZoneKafkaCluster.registerKafkaShutdownHooksWith(SpringApplication.getShutdownHandlers()::add);
	}

	/**
	 * Create a topic whose partition leaders rotate over the zones, so that with six
	 * partitions each zone leads two, and wait until every replica is in sync.
	 * @param name the topic name
	 * @param partitions the number of partitions
	 * @param replicationFactor the replication factor, at most the number of zones
	 */
	void createTopic(String name, int partitions, int replicationFactor) {
		this.cluster.createTopicLedByEveryZone(name, partitions, replicationFactor);
	}

	/**
	 * The brokers' addresses, for {@code spring.kafka.bootstrap-servers}.
	 * @return a comma-separated list of {@code host:port}
	 */
	String bootstrapServers() {
		return this.cluster.bootstrapServers();
	}

	/**
	 * The instance metadata endpoint, for {@code follower-fetch.detection.aws.endpoint}.
	 * @return the base URI
	 */
	URI metadataEndpoint() {
		return this.metadata.endpoint();
	}

	/**
	 * Stop the instance metadata and the brokers, and delete the brokers' data.
	 */
	@Override
	public void close() {
		try {
			this.metadata.close();
		}
		finally {
			this.cluster.close();
		}
	}

}
