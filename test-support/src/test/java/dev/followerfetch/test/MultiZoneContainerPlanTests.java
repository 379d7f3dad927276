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

import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link MultiZoneContainerPlan}: the configuration of the container cluster,
 * checked without Docker, also as Testcontainers' {@link KafkaContainer} combines it with
 * its own (a container is configured, never started, here).
 *
 * @author follower-fetch authors
 */
class MultiZoneContainerPlanTests {

	private final MultiZoneContainerPlan plan = new MultiZoneContainerPlan(List.of("use1-az1", "use1-az2", "use1-az3"),
			"follower-fetch-zones00");

	@Test
	void everyNodeHasItsIdAndItsZoneAsRack() {
		for (int id = 0; id < 3; id++) {
			assertThat(this.plan.environment(id)).containsEntry("KAFKA_NODE_ID", String.valueOf(id))
				.containsEntry("KAFKA_BROKER_RACK", this.plan.zones().get(id))
				.containsEntry("KAFKA_REPLICA_SELECTOR_CLASS",
						"org.apache.kafka.common.replica.RackAwareReplicaSelector")
				.containsEntry("CLUSTER_ID", "follower-fetch-zones00");
		}
	}

	@Test
	void everyNodeIsAVoterAtItsAliasOnTheControllerPort() {
		assertThat(this.plan.quorumVoters()).isEqualTo("0@kafka-0:9094,1@kafka-1:9094,2@kafka-2:9094");
		assertThat(this.plan.environment(1)).containsEntry("KAFKA_CONTROLLER_QUORUM_VOTERS", this.plan.quorumVoters())
			.containsEntry("KAFKA_PROCESS_ROLES", "broker,controller");
		assertThat(this.plan.alias(2)).isEqualTo("kafka-2");
	}

	@Test
	void internalTopicsAreReplicatedOverEveryZoneUpToThree() {
		assertThat(this.plan.environment(0)).containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "3")
			.containsEntry("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "3")
			.containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "2");
		assertThat(new MultiZoneContainerPlan(List.of("a", "b"), "x").environment(0))
			.containsEntry("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "2")
			.containsEntry("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "2");
	}

	@Test
	void theContainersListenersCarryTheQuorumAndReplication() {
		KafkaContainer container = new KafkaContainer(DockerImageName.parse("apache/kafka").withTag("4.1.2"));
		this.plan.environment(1).forEach(container::withEnv);
		Map<String, String> env = container.getEnvMap();
		assertThat(env.get("KAFKA_LISTENERS"))
			.containsPattern("CONTROLLER://[^,]*:" + MultiZoneContainerPlan.CONTROLLER_PORT + "(,|$)")
			.containsPattern("BROKER://[^,]*:" + MultiZoneContainerPlan.BROKER_PORT + "(,|$)")
			.containsPattern("PLAINTEXT://[^,]*:9092(,|$)");
		assertThat(env).containsEntry("KAFKA_CONTROLLER_LISTENER_NAMES", "CONTROLLER")
			.containsEntry("KAFKA_INTER_BROKER_LISTENER_NAME", "BROKER")
			.containsEntry("KAFKA_NODE_ID", "1")
			.containsEntry("KAFKA_BROKER_RACK", "use1-az2")
			.containsEntry("KAFKA_CONTROLLER_QUORUM_VOTERS", "0@kafka-0:9094,1@kafka-1:9094,2@kafka-2:9094");
	}

	@Test
	void zonesMustBeDistinctAndNodesExist() {
		assertThatIllegalArgumentException().isThrownBy(() -> new MultiZoneContainerPlan(List.of("a", "a"), "x"));
		assertThatIllegalArgumentException().isThrownBy(() -> this.plan.environment(3)).withMessageContaining("0..2");
	}

}
