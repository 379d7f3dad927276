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

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.e2e.ZonedInstances.Instance;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.GroupType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.followerfetch.e2e.ZonedInstances.FRESHNESS;
import static dev.followerfetch.e2e.ZonedInstances.LISTENERS;
import static dev.followerfetch.e2e.ZonedInstances.LOCALITY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Instances of one application in every zone, with the same listener groups, on a real
 * three-zone cluster: the zone-aware assignor gives each partition to the instance in
 * its leader's zone, so the FRESHNESS listener reads its leaders without crossing zones
 * and the LOCALITY listener reads in-zone leaders instead of followers. Judged from the
 * consumers' own metrics (bytes per broker, preferred read replica, assignment) and
 * each instance's health.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignmentEndToEndTests {

	private static final int RECORDS = 600;

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@Test
	void instancesInEveryZoneReadEveryPartitionFromALeaderInTheirZoneWhateverTheirPolicy() {
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "orders", 3, List.of("az-a", "az-b", "az-c"))) {
			readsFromInZoneLeadersOnly(instances);
		}
	}

	@Test
	void aCooperativeStickyGroupWhoseMembersJoinedInTurnIsRealignedOnceWithoutOwningAPartitionTwice() {
		// members keep what they own as they join (cooperative-sticky), so one realignment brings the leaders' zones
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "refunds", 3,
				List.of("az-a", "az-b", "az-c"),
				"spring.kafka.consumer.properties.partition.assignment.strategy="
						+ CooperativeStickyAssignor.class.getName(),
				"follower-fetch.assignment.realign-grace=2s", "follower-fetch.policy.replica-lease=5s")) {
			readsFromInZoneLeadersOnly(instances);
			for (String listener : LISTENERS) {
				Map<String, Object> group = instances.awaitGroupAssignment(listener,
						(facts) -> assertThat(facts).containsEntry("leaderZonePartitions", 6));
				System.out.printf("cooperative-sticky %s: members joined in turn, %s realignment(s)%n", listener,
						group.get("realignments"));
				assertThat((Integer) group.get("realignments")).as("%s realignments", listener).isLessThanOrEqualTo(1);
			}
		}
	}

	@Test
	void withTwoReplicasPerPartitionBothPoliciesReadInZoneWhereTheLeadersAllow() {
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "invoices", 2,
				List.of("az-a", "az-b", "az-c"))) {
			readsFromInZoneLeadersOnly(instances);
		}
	}

	@Test
	void unevenInstancesKeepTheBalanceAndReadFromInZoneLeadersAsFarAsItAllows() {
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "shipments", 3,
				List.of("az-a", "az-a", "az-b"))) {
			for (String listener : LISTENERS) {
				instances.awaitAssignment(listener, (owners) -> assertThat(instances.all())
					.allSatisfy((instance) -> assertThat(instance.assigned(listener)).as("in %s", instance.id()).hasSize(2)));
			}
			Map<String, Map<String, ConsumerReadStats>> before = instances.stats();
			kafka.cluster().produce("shipments", RECORDS, 1024);
			instances.awaitReceived(RECORDS);
			ZonedInstances.Traffic locality = instances.traffic(LOCALITY, before);
			ZonedInstances.Traffic freshness = instances.traffic(FRESHNESS, before);
			Map<String, Object> group = instances.awaitGroupAssignment(FRESHNESS,
					(facts) -> assertThat(facts).containsEntry("leaderZonePartitions", 4)
						.containsEntry("leaderZonePartitionsAllowed", 4)
						.containsEntry("membersByZone", Map.of("az-a", 2, "az-b", 1)));
			System.out.printf("uneven (az-a x2, az-b x1, az-c none): LOCALITY %.2f%% across zones, FRESHNESS %.2f%%; "
					+ "partitions in their leader's zone %s of 6, the leaders allow %s%n", 100 * locality.crossZoneFraction(),
					100 * freshness.crossZoneFraction(), group.get("leaderZonePartitions"),
					group.get("leaderZonePartitionsAllowed"));
			assertThat(locality.crossZoneFraction()).isLessThanOrEqualTo(0.005);
			// the two partitions led in az-c are read across zones by FRESHNESS, from an az-a follower by LOCALITY
			assertThat(freshness.crossZoneFraction()).isBetween(0.30, 0.37);
		}
	}

	@Test
	void anInstanceWithoutZoneAwareAssignmentJoinsAndLeavesWithoutLossAndTheGroupRealignsAfterIt() {
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "payouts", 3,
				List.of("az-a", "az-b", "az-c"));
				SteadyProducer producer = SteadyProducer.start(kafka.cluster().bootstrapServers(), "payouts", 50)) {
			for (String listener : LISTENERS) {
				instances.awaitAlignment(listener);
			}
			Instance old = instances.add("az-b", "follower-fetch.assignment.enabled=false");
			for (String listener : LISTENERS) {
				await(listener + " on the strategy every member offers").atMost(ZonedInstances.TIMEOUT)
					.untilAsserted(() -> {
						assertThat(old.assigned(listener)).isNotEmpty();
						// the starter's list is the zone-aware assignor, then cooperative-sticky; Kafka's default
						// (without the starter) range, then cooperative-sticky: the one they share
						assertThat(instances.all().get(0).listenerHealth(listener)).containsEntry("assignment",
								"cooperative-sticky");
					});
			}
			instances.remove(old);
			for (String listener : LISTENERS) {
				instances.awaitAlignment(listener);
				await(listener + " zone-aware again").atMost(ZonedInstances.TIMEOUT)
					.untilAsserted(() -> assertThat(instances.all().get(0).listenerHealth(listener))
						.containsEntry("assignment", "zone-aware"));
			}
			producer.stop();
			assertThat(producer.failures()).isEmpty();
			Set<String> produced = producer.acknowledged().keySet();
			List<Instance> everyInstance = new ArrayList<>(instances.all());
			everyInstance.add(old);
			for (String listener : LISTENERS) {
				await(listener + " receives every acknowledged record").atMost(ZonedInstances.TIMEOUT).until(() -> {
					Set<String> received = new HashSet<>();
					everyInstance.forEach((instance) -> received.addAll(instance.listeners().keys(listener).keySet()));
					return received.containsAll(produced);
				});
				int deliveries = everyInstance.stream().mapToInt((instance) -> instance.listeners().deliveries(listener)).sum();
				Set<String> distinct = new HashSet<>();
				everyInstance.forEach((instance) -> distinct.addAll(instance.listeners().keys(listener).keySet()));
				System.out.printf("rolling upgrade %s: %d records produced, %d received, %d delivered twice%n", listener,
						produced.size(), distinct.size(), deliveries - distinct.size());
				assertThat(distinct).containsExactlyInAnyOrderElementsOf(produced);
				assertThat(deliveries).as("%s records delivered twice", listener).isEqualTo(distinct.size());
			}
		}
	}

	@Test
	void aGroupOnTheConsumerGroupProtocolIsReportedAsAssignedByTheBrokers() throws Exception {
		try (ZonedInstances instances = ZonedInstances.start(kafka.cluster(), "audits", 3, List.of("az-a", "az-b"),
				"spring.kafka.consumer.properties.group.protocol=consumer")) {
			kafka.cluster().produce("audits", 60, 100);
			instances.awaitReceived(60);
			try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
					kafka.cluster().bootstrapServers()))) {
				for (String listener : LISTENERS) {
					String group = "audits-" + listener;
					assertThat(admin.describeConsumerGroups(List.of(group)).all().get().get(group).type())
						.as("the protocol of group %s, as its coordinator reports it", group)
						.isEqualTo(GroupType.CONSUMER);
				}
			}
			for (Instance instance : instances.all()) {
				await("the consumer protocol reported").atMost(ZonedInstances.TIMEOUT)
					.untilAsserted(() -> assertThat(instance.listenerHealth(FRESHNESS)).containsEntry("assignment", "broker"));
			}
		}
	}

	private static void readsFromInZoneLeadersOnly(ZonedInstances instances) {
		for (String listener : LISTENERS) {
			instances.awaitAlignment(listener);
		}
		Map<String, Map<String, ConsumerReadStats>> before = instances.stats();
		kafka.cluster().produce(instances.topic(), RECORDS, 1024);
		instances.awaitReceived(RECORDS);
		for (String listener : LISTENERS) {
			ZonedInstances.Traffic traffic = instances.traffic(listener, before);
			System.out.printf("zone-aware %s %s: %d of %d bytes across zones (%.2f%%)%n", instances.topic(), listener,
					traffic.crossZone(), traffic.total(), 100 * traffic.crossZoneFraction());
			assertThat(traffic.crossZoneFraction()).as("%s bytes across zones", listener)
				.isLessThanOrEqualTo(listener.equals(LOCALITY) ? 0.005 : 0.01);
			assertThat(traffic.readReplicas()).as("%s reads from the leaders", listener)
				.hasSize(6)
				.allSatisfy((tp, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER));
			instances.assertReceivedOnce(listener, RECORDS);
			for (Instance instance : instances.all()) {
				await(listener + " health in " + instance.zone()).atMost(ZonedInstances.TIMEOUT).untilAsserted(() -> {
					Map<String, Object> health = instance.health();
					assertThat(health).containsEntry("state", "ACTIVE");
					assertThat(Instance.listenerHealth(health, listener)).containsEntry("assignment", "zone-aware")
						.containsEntry("partitions", 2)
						.containsEntry("zoneLocalPartitions", 2)
						.containsEntry("zoneLocalLeaderPartitions", 2)
						.containsEntry("crossZonePartitions", 0);
				});
			}
		}
	}

}
