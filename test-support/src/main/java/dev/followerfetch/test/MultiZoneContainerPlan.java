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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.springframework.util.Assert;

/**
 * The configuration of a multi-zone KRaft cluster of {@code apache/kafka} containers, one
 * per zone on a shared Docker network: node {@code i} is broker and controller, has
 * network alias {@code kafka-i}, {@code broker.rack} set to the {@code i}-th zone, and
 * the rack-aware replica selector. Plain data, so that it can be checked without Docker;
 * {@link MultiZoneKafkaContainers} applies it to Testcontainers' {@code KafkaContainer},
 * whose own settings give the listeners ({@code PLAINTEXT} on 9092, mapped to a host port
 * for clients; {@code BROKER} on 9093 between brokers, advertised at the container's host
 * name; {@code CONTROLLER} on 9094).
 *
 * @param zones the zones, in node id order
 * @param clusterId the KRaft cluster id shared by every node
 * @param replicaSelector whether the brokers use the rack-aware replica selector
 * @param brokerProperties further properties of every broker
 * @author follower-fetch authors
 */
public record MultiZoneContainerPlan(List<String> zones, String clusterId, boolean replicaSelector,
		Map<String, String> brokerProperties) {

	/**
	 * Port of the client listener inside each container, which the host maps.
	 */
	public static final int CLIENT_PORT = 9092;

	/**
	 * Port of the controller listener inside each container.
	 */
	public static final int CONTROLLER_PORT = 9094;

	/**
	 * Port of the inter-broker listener inside each container.
	 */
	public static final int BROKER_PORT = 9093;

	private static final String SELECTOR = "org.apache.kafka.common.replica.RackAwareReplicaSelector";

	/**
	 * Check the zones, the cluster id and the broker properties.
	 * @param zones the zones, in node id order
	 * @param clusterId the KRaft cluster id (22 characters of base64 UUID)
	 * @param replicaSelector whether the brokers use the rack-aware replica selector
	 * @param brokerProperties further properties of every broker
	 */
	public MultiZoneContainerPlan {
		Assert.notEmpty(zones, "'zones' must not be empty");
		Assert.isTrue(zones.stream().noneMatch(String::isBlank), "'zones' must not contain blank names");
		Assert.isTrue(Set.copyOf(zones).size() == zones.size(), "'zones' must be distinct");
		Assert.hasText(clusterId, "'clusterId' must not be empty");
		Assert.isTrue(!brokerProperties.containsKey("broker.rack"), "'broker.rack' is set from the zones");
		zones = List.copyOf(zones);
		brokerProperties = Collections.unmodifiableMap(new LinkedHashMap<>(brokerProperties));
	}

	/**
	 * A plan with the rack-aware replica selector and no further broker properties.
	 * @param zones the zones, in node id order
	 * @param clusterId the KRaft cluster id (22 characters of base64 UUID)
	 */
	public MultiZoneContainerPlan(List<String> zones, String clusterId) {
		this(zones, clusterId, true, Map.of());
	}

	/**
	 * Return the network alias of a node.
	 * @param nodeId the node id
	 * @return {@code kafka-<nodeId>}
	 */
	public String alias(int nodeId) {
		requireNode(nodeId);
		return "kafka-" + nodeId;
	}

	/**
	 * Return the {@code controller.quorum.voters} of every node: every node votes.
	 * @return {@code 0@kafka-0:9094,1@kafka-1:9094,...}
	 */
	public String quorumVoters() {
		return IntStream.range(0, this.zones.size())
			.mapToObj((id) -> id + "@" + alias(id) + ":" + CONTROLLER_PORT)
			.collect(Collectors.joining(","));
	}

	/**
	 * Return the environment of one node's container, as the {@code apache/kafka} image
	 * reads it ({@code KAFKA_} and the property name in upper case with {@code _} for
	 * {@code .}), on top of what {@code KafkaContainer} sets.
	 * @param nodeId the node id
	 * @return the environment variables
	 */
	public Map<String, String> environment(int nodeId) {
		requireNode(nodeId);
		int internalReplicas = Math.min(3, this.zones.size());
		Map<String, String> env = new LinkedHashMap<>();
		env.put("CLUSTER_ID", this.clusterId);
		env.put("KAFKA_NODE_ID", String.valueOf(nodeId));
		env.put("KAFKA_PROCESS_ROLES", "broker,controller");
		env.put("KAFKA_CONTROLLER_QUORUM_VOTERS", quorumVoters());
		env.put("KAFKA_BROKER_RACK", this.zones.get(nodeId));
		if (this.replicaSelector) {
			env.put("KAFKA_REPLICA_SELECTOR_CLASS", SELECTOR);
		}
		env.put("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", String.valueOf(internalReplicas));
		env.put("KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS", "1");
		env.put("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", String.valueOf(internalReplicas));
		env.put("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", String.valueOf(Math.min(2, internalReplicas)));
		env.put("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
		env.put("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false");
		this.brokerProperties.forEach((name, value) -> env.put(variable(name), value));
		return env;
	}

	/**
	 * The environment variable of a broker property, as the {@code apache/kafka} image
	 * reads it: {@code _} doubled, {@code -} as {@code ___}, {@code .} as {@code _}, upper
	 * case, after {@code KAFKA_}.
	 * @param property a broker property name
	 * @return its variable
	 */
	public static String variable(String property) {
		return "KAFKA_" + property.replace("_", "__").replace("-", "___").replace(".", "_").toUpperCase(Locale.ROOT);
	}

	private void requireNode(int nodeId) {
		Assert.isTrue(nodeId >= 0 && nodeId < this.zones.size(),
				() -> "No node " + nodeId + "; node ids are 0.." + (this.zones.size() - 1));
	}

}
