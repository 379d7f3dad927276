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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import com.github.dockerjava.api.model.ContainerNetwork;
import org.testcontainers.containers.Network;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

import org.springframework.util.Assert;

/**
 * A multi-zone Kafka cluster of {@code apache/kafka} containers, one per zone on a shared
 * Docker network, configured by a {@link MultiZoneContainerPlan}: every node is broker and
 * controller, with {@code broker.rack} set to its zone and the rack-aware replica
 * selector. For users with Docker; needs {@code org.testcontainers:testcontainers-kafka}
 * on the test class path (follower-fetch-test declares it optional).
 * <p>
 * This project's machines and CI have no Docker engine: the configuration is unit-tested,
 * the containers themselves have not been run here.
 *
 * @author follower-fetch authors
 */
public final class MultiZoneKafkaContainers implements AutoCloseable {

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);

	private final MultiZoneContainerPlan plan;

	private final Network network;

	private final List<KafkaContainer> containers;

	private MultiZoneKafkaContainers(MultiZoneContainerPlan plan, Network network, List<KafkaContainer> containers) {
		this.plan = plan;
		this.network = network;
		this.containers = containers;
	}

	/**
	 * Start one {@code apache/kafka} container per zone, of the version of kafka-clients
	 * on the class path, and wait until every one runs.
	 * @param zones distinct zone names, in node id order
	 * @return the running cluster
	 */
	public static MultiZoneKafkaContainers start(String... zones) {
		return start(DockerImageName.parse("apache/kafka").withTag(Brokers.kafkaVersion()), zones);
	}

	/**
	 * Start one container of the given image per zone and wait until every one runs.
	 * @param image an {@code apache/kafka} or {@code apache/kafka-native} image
	 * @param zones distinct zone names, in node id order
	 * @return the running cluster
	 */
	public static MultiZoneKafkaContainers start(DockerImageName image, String... zones) {
		MultiZoneContainerPlan plan = new MultiZoneContainerPlan(List.of(zones), "follower-fetch-zones00");
		Network network = Network.newNetwork();
		List<KafkaContainer> containers = new ArrayList<>();
		for (int id = 0; id < zones.length; id++) {
			KafkaContainer container = new KafkaContainer(image).withNetwork(network)
				.withNetworkAliases(plan.alias(id))
				.withStartupTimeout(STARTUP_TIMEOUT);
			plan.environment(id).forEach(container::withEnv);
			containers.add(container);
		}
		MultiZoneKafkaContainers cluster = new MultiZoneKafkaContainers(plan, network, containers);
		try {
			Startables.deepStart(containers).join();
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * Return the {@code bootstrap.servers} value for clients on the Docker host.
	 * @return a comma-separated list of {@code host:port} pairs
	 */
	public String bootstrapServers() {
		return this.containers.stream().map(KafkaContainer::getBootstrapServers).collect(Collectors.joining(","));
	}

	/**
	 * Return the zones, in broker id order.
	 * @return the zones
	 */
	public List<String> zones() {
		return this.plan.zones();
	}

	/**
	 * Return the id of the broker in a zone.
	 * @param zone a zone of this cluster
	 * @return the broker id
	 */
	public int brokerId(String zone) {
		int id = this.plan.zones().indexOf(zone);
		Assert.isTrue(id >= 0, () -> "No broker in zone '" + zone + "'; zones are " + this.plan.zones());
		return id;
	}

	/**
	 * Kill the broker of a zone with {@code SIGKILL}: no controlled shutdown; its host
	 * closes its sockets, so peers are refused at once. It is not restarted (its host port
	 * would change).
	 * @param zone a zone of this cluster
	 */
	public void kill(String zone) {
		KafkaContainer container = this.containers.get(brokerId(zone));
		container.getDockerClient().killContainerCmd(container.getContainerId()).withSignal("KILL").exec();
	}

	/**
	 * Disconnect the broker of a zone from the shared network while its process keeps
	 * running: the other brokers and the controller quorum lose it, and so do clients on
	 * the host, whose mapped port goes through that network. {@link #reconnect(String)}
	 * undoes it.
	 * @param zone a zone of this cluster
	 */
	public void disconnect(String zone) {
		KafkaContainer container = this.containers.get(brokerId(zone));
		container.getDockerClient()
			.disconnectFromNetworkCmd()
			.withNetworkId(this.network.getId())
			.withContainerId(container.getContainerId())
			.withForce(true)
			.exec();
	}

	/**
	 * Connect a broker disconnected by {@link #disconnect(String)} again, under its alias.
	 * @param zone a zone of this cluster
	 */
	public void reconnect(String zone) {
		int id = brokerId(zone);
		KafkaContainer container = this.containers.get(id);
		container.getDockerClient()
			.connectToNetworkCmd()
			.withNetworkId(this.network.getId())
			.withContainerId(container.getContainerId())
			.withContainerNetwork(new ContainerNetwork().withAliases(this.plan.alias(id)))
			.exec();
	}

	/**
	 * Stop every container and remove the network.
	 */
	@Override
	public void close() {
		this.containers.forEach(KafkaContainer::stop);
		this.network.close();
	}

}
