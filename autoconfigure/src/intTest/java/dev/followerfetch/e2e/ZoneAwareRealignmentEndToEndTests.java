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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.followerfetch.e2e.ZonedInstances.LISTENERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leaders that move after a zone-aware assignment, on a real three-zone cluster with one
 * instance per zone: the classic protocol does not rebalance for a leader move, so the
 * instance whose consumer led the group's last rebalance does, once, and the assignment
 * follows the leaders again. A broker restart whose leaders come back by a preferred
 * leader election needs none. The class has its own cluster because it moves leaders
 * and stops a broker.
 *
 * @author follower-fetch authors
 */
class ZoneAwareRealignmentEndToEndTests {

	/**
	 * A realignment waits the grace and the leading consumer's metadata.max.age.ms, which
	 * the replica lease sets.
	 */
	private static final String[] REALIGN_QUICKLY = { "follower-fetch.assignment.realign-grace=2s",
			"follower-fetch.assignment.realign-interval=1m", "follower-fetch.policy.replica-lease=5s" };

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@Test
	void leadersSwappedBetweenZonesByAReassignmentAreFollowedByOneRebalanceOfEachGroup() throws Exception {
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "ledger", 3,
				List.of("az-a", "az-b", "az-c"), REALIGN_QUICKLY); Admin admin = admin()) {
			for (String listener : LISTENERS) {
				instances.awaitAlignment(listener);
			}
			Map<String, Integer> before = generations(instances);
			// partition 0 was led in az-a (broker 0) and 1 in az-b (broker 1): swap their preferred leaders
			TopicPartition zero = new TopicPartition("ledger", 0);
			TopicPartition one = new TopicPartition("ledger", 1);
			admin.alterPartitionReassignments(Map.of(zero, Optional.of(new NewPartitionReassignment(List.of(1, 0, 2))),
					one, Optional.of(new NewPartitionReassignment(List.of(0, 1, 2)))))
				.all()
				.get();
			await("reassignment done").atMost(ZonedInstances.TIMEOUT)
				.until(() -> admin.listPartitionReassignments().reassignments().get().isEmpty());
			admin.electLeaders(ElectionType.PREFERRED, Set.of(zero, one)).partitions().get();
			await("leaders swapped").atMost(ZonedInstances.TIMEOUT)
				.until(() -> kafka.cluster().describeTopic("ledger").partitions().get(0).leader().id() == 1
						&& kafka.cluster().describeTopic("ledger").partitions().get(1).leader().id() == 0);
			long moved = System.nanoTime();
			for (String listener : LISTENERS) {
				instances.awaitAlignment(listener);
			}
			System.out.printf("leaders swapped: both groups aligned again %d ms after the leader move%n",
					Duration.ofNanos(System.nanoTime() - moved).toMillis());
			// one realignment per group (a second only if the leader's metadata refresh failed); then none within
			// the interval
			await("no further rebalance").during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				Map<String, Integer> after = generations(instances);
				after.forEach((group, generations) -> assertThat(generations - before.get(group))
					.as("rebalances of %s after the leader move", group)
					.isBetween(1, 2));
			});
			System.out.printf("leaders swapped: rebalances by group %s%n", generations(instances).entrySet()
				.stream()
				.map((entry) -> entry.getKey() + "=" + (entry.getValue() - before.get(entry.getKey())))
				.toList());
		}
	}

	@Test
	void aBrokerRestartWhoseLeadersComeBackByAPreferredElectionEndsAlignedWithoutARealignment() throws Exception {
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "journal", 3,
				List.of("az-a", "az-b", "az-c"), REALIGN_QUICKLY); Admin admin = admin()) {
			for (String listener : LISTENERS) {
				instances.awaitAlignment(listener);
			}
			Map<String, Integer> before = generations(instances);
			int broker = kafka.cluster().brokerId("az-b");
			kafka.cluster().stopBroker(broker);
			try {
				// longer than the wait (grace and replica lease): a realignment would have happened by now if the
				// leaders allowed more
				await().pollDelay(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(9)).until(() -> true);
			}
			finally {
				kafka.cluster().startBroker(broker);
			}
			kafka.cluster().awaitInSync("journal");
			Set<TopicPartition> partitions = IntStream.range(0, ZonedInstances.PARTITIONS)
				.mapToObj((p) -> new TopicPartition("journal", p))
				.collect(Collectors.toSet());
			// an election the controller refuses (the restarted replica not yet eligible) is asked again
			await("preferred leaders back").atMost(ZonedInstances.TIMEOUT).pollInterval(Duration.ofSeconds(1)).until(() -> {
				admin.electLeaders(ElectionType.PREFERRED, partitions).partitions().get();
				return kafka.cluster()
					.describeTopic("journal")
					.partitions()
					.stream()
					.allMatch((partition) -> partition.leader() != null
							&& partition.leader().id() == partition.replicas().get(0).id());
			});
			for (String listener : LISTENERS) {
				instances.awaitAlignment(listener);
			}
			Map<String, Integer> after = generations(instances);
			System.out.printf("broker restart: rebalances by group %s (Kafka's own: KIP-881 rejoins when the "
					+ "replica racks a LOCALITY leader sees change)%n", after.entrySet()
						.stream()
						.map((entry) -> entry.getKey() + "=" + (entry.getValue() - before.get(entry.getKey())))
						.toList());
			// while az-b was down its member could not get more leaders than it had: nothing to realign
			for (String listener : LISTENERS) {
				instances.awaitGroupAssignment(listener, (facts) -> assertThat(facts)
					.as("%s group facts of the leading instance", listener)
					.containsEntry("realignments", 0)
					.containsEntry("leaderZonePartitions", ZonedInstances.PARTITIONS));
			}
		}
	}

	/**
	 * The generations each group went through, as seen by any instance.
	 */
	private static Map<String, Integer> generations(ZonedInstances instances) {
		return LISTENERS.stream()
			.map((listener) -> instances.topic() + "-" + listener)
			.collect(Collectors.toMap((group) -> group, (group) -> instances.all()
				.stream()
				.mapToInt((instance) -> instance.rebalances().latest(group))
				.max()
				.orElse(0)));
	}

	private static Admin admin() {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers()));
	}

}
