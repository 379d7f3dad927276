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
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.apache.kafka.common.errors.PreferredLeaderNotAvailableException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults on a real three-zone cluster while an application in az-b consumes a steady
 * stream with a locality listener (analytics) and a freshness listener (payments): no
 * record is lost, reads move to another replica and back, and the {@code followerFetch}
 * health contributor says what happens. The broker stop runs with both group protocols,
 * classic and consumer. The cluster is this class's own, so that no fault
 * reaches other tests. Timings are printed, not asserted beyond generous bounds.
 *
 * @author follower-fetch authors
 */
class BrokerFaultEndToEndTests {

	private static final String ZONE = "az-b";

	private static final int RECORDS_PER_SECOND = 50;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final Duration REPLICA_LAG_TIME_MAX = Duration.ofSeconds(3);

	private static final Duration REPLICA_LEASE = Duration.ofSeconds(20);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", ZONE, "az-c")
		.withBrokerProperty("replica.lag.time.max.ms", String.valueOf(REPLICA_LAG_TIME_MAX.toMillis()));

	@ParameterizedTest(name = "group.protocol={0}")
	@ValueSource(strings = { "classic", "consumer" })
	void whenTheInZoneFollowerStopsListenersReadFromOtherReplicasWithoutLossAndComeBackWhenItRejoins(
			String groupProtocol) {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		String topic = "orders-" + groupProtocol;
		cluster.createTopicLedByEveryZone(topic, 6, 3);
		int inZone = cluster.brokerId(ZONE);
		boolean stopped = false;
		try (ConfigurableApplicationContext context = start(topic,
				"spring.kafka.consumer.properties.group.protocol=" + groupProtocol);
				SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(), topic,
						RECORDS_PER_SECOND)) {
			HealthWatch health = new HealthWatch(context, TIMEOUT);
			Listeners listeners = context.getBean(Listeners.class);
			health.awaitState("ACTIVE", (analytics) -> analytics.get("zoneLocalPartitions").equals(6));

			long stopAt = System.nanoTime();
			cluster.stopBroker(inZone);
			stopped = true;
			long stoppedAt = System.nanoTime();
			health.awaitAsserted("PARTIAL", (partial) -> {
				assertThat(HealthWatch.listener(partial, "analytics")).containsEntry("crossZonePartitions", 6)
					.containsEntry("zoneLocalPartitions", 0)
					.containsEntry("placementGaps",
							IntStream.range(0, 6).mapToObj((partition) -> topic + "-" + partition).toList())
					.doesNotContainKey("fallbackPartitions");
				assertThat(partial).containsEntry("brokerRacks", Set.of("az-a", ZONE, "az-c"));
			});
			long fellBackAt = System.nanoTime();
			assertReadsFromLeaders(context, "analytics", 6);
			assertReadsFromLeaders(context, "payments", 6);
			awaitMoreRecords(listeners, "analytics");

			long startAt = System.nanoTime();
			cluster.startBroker(inZone);
			stopped = false;
			cluster.awaitInSync(topic);
			long inSyncAt = System.nanoTime();
			health.awaitState("ACTIVE", (analytics) -> analytics.get("zoneLocalPartitions").equals(6));
			long returnedAt = System.nanoTime();
			assertReadsFromZone(context, "analytics", topic, inZone);
			assertReadsFromLeaders(context, "payments", 6);

			Map<String, Long> produced = producer.stopAndAwaitReceived(listeners, TIMEOUT, "analytics", "payments");
			assertThat(health.seen()).doesNotContain("RACK_MISMATCH");
			System.out.printf("group.protocol=%s: broker %d (%s) stopped: controlled shutdown %d ms; health PARTIAL "
					+ "%d ms after the stop began; states seen %s%n", groupProtocol, inZone, ZONE,
					millis(stopAt, stoppedAt),
					millis(stopAt, fellBackAt), health.seen());
			System.out.printf("Broker %d restarted: in every ISR %d ms after start; health ACTIVE %d ms after start, "
					+ "%d ms after the ISR was full%n", inZone, millis(startAt, inSyncAt), millis(startAt, returnedAt),
					millis(inSyncAt, returnedAt));
			printDelays(listeners, produced, stopAt, returnedAt);
		}
		finally {
			if (stopped) {
				cluster.startBroker(inZone);
			}
		}
	}

	@Test
	void whenLeadershipMovesNoRecordIsLostAndFreshnessListenersFollowTheNewLeaders() throws Exception {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		Map<Integer, List<Integer>> before = cluster.createTopicLedByEveryZone("transfers", 3, 3);
		int inZone = cluster.brokerId(ZONE);
		try (ConfigurableApplicationContext context = start("transfers");
				SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(), "transfers",
						RECORDS_PER_SECOND);
				Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
						cluster.bootstrapServers()))) {
			HealthWatch health = new HealthWatch(context, TIMEOUT);
			Listeners listeners = context.getBean(Listeners.class);
			health.awaitState("ACTIVE", (analytics) -> analytics.get("zoneLocalPartitions").equals(3));
			assertReadsFromLeaders(context, "payments", 3);
			assertThat(leaders("transfers")).containsEntry(1, inZone);

			Map<Integer, List<Integer>> after = before.entrySet()
				.stream()
				.collect(Collectors.toMap(Map.Entry::getKey,
						(entry) -> before.get((entry.getKey() + 1) % before.size())));
			long moveAt = System.nanoTime();
			moveLeaders(admin, "transfers", after);
			long movedAt = System.nanoTime();
			await("leaders of transfers seen moved").atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(leaders("transfers")).containsEntry(0, inZone)
					.doesNotContainEntry(1, inZone));
			awaitMoreRecords(listeners, "payments");
			assertReadsFromLeaders(context, "payments", 3);
			assertReadsFromZone(context, "analytics", "transfers", inZone);
			health.awaitAsserted("ACTIVE", (active) -> {
				assertThat(HealthWatch.listener(active, "analytics")).containsEntry("zoneLocalPartitions", 3);
				assertThat(HealthWatch.listener(active, "payments")).containsEntry("zoneLocalPartitions", 1)
					.containsEntry("crossZonePartitions", 2);
			});

			Map<String, Long> produced = producer.stopAndAwaitReceived(listeners, TIMEOUT, "analytics", "payments");
			System.out.printf("Leaders of transfers moved from %s to %s in %d ms; states seen %s%n", before, after,
					millis(moveAt, movedAt), health.seen());
			printDelays(listeners, produced, moveAt, movedAt);
		}
	}

	@Test
	void whenTheInZoneFollowerStopsReplicatingItIsReportedAsLaggingAndListenersMoveOnWithinTheReplicaLease() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		cluster.createTopicLedByEveryZone("invoices", 3, 3);
		int inZone = cluster.brokerId(ZONE);
		boolean stalled = false;
		try (ConfigurableApplicationContext context = start("invoices",
				"follower-fetch.policy.replica-lease=" + REPLICA_LEASE.toSeconds() + "s");
				SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(), "invoices",
						RECORDS_PER_SECOND)) {
			HealthWatch health = new HealthWatch(context, TIMEOUT);
			Listeners listeners = context.getBean(Listeners.class);
			health.awaitState("ACTIVE", (analytics) -> analytics.get("zoneLocalPartitions").equals(3));
			assertReadsFromZone(context, "analytics", "invoices", inZone);

			long stallAt = System.nanoTime();
			Set<TopicPartition> followed = cluster.stallReplication(inZone);
			stalled = true;
			assertThat(followed).filteredOn((partition) -> partition.topic().equals("invoices"))
				.containsExactlyInAnyOrder(new TopicPartition("invoices", 0), new TopicPartition("invoices", 2));
			health.awaitAsserted("LAGGING", (lagging) -> {
				assertThat(HealthWatch.listener(lagging, "analytics"))
					.containsEntry("laggingPartitions", List.of("invoices-0", "invoices-2"))
					.containsEntry("zoneLocalPartitions", 3);
				assertThat(HealthWatch.listener(lagging, "payments")).doesNotContainKey("laggingPartitions");
			});
			long laggingAt = System.nanoTime();

			health.awaitAsserted("PARTIAL",
					(partial) -> assertThat(HealthWatch.listener(partial, "analytics"))
						.containsEntry("crossZonePartitions", 2)
						.containsEntry("placementGaps", List.of("invoices-0", "invoices-2"))
						.doesNotContainKey("laggingPartitions"));
			long movedAt = System.nanoTime();
			assertReadsFromLeaders(context, "analytics", 3);
			awaitMoreRecords(listeners, "analytics");

			long resumeAt = System.nanoTime();
			cluster.resumeReplication(inZone);
			stalled = false;
			cluster.awaitInSync("invoices");
			long inSyncAt = System.nanoTime();
			health.awaitState("ACTIVE", (analytics) -> analytics.get("zoneLocalPartitions").equals(3));
			long returnedAt = System.nanoTime();
			assertReadsFromZone(context, "analytics", "invoices", inZone);

			Map<String, Long> produced = producer.stopAndAwaitReceived(listeners, TIMEOUT, "analytics", "payments");
			System.out.printf("Broker %d (%s) stopped replicating: health LAGGING after %d ms "
					+ "(replica.lag.time.max.ms %d); analytics back on the leaders after %d ms (replica lease %d s, "
					+ "Kafka's default 300 s); states seen %s%n", inZone, ZONE, millis(stallAt, laggingAt),
					REPLICA_LAG_TIME_MAX.toMillis(), millis(stallAt, movedAt), REPLICA_LEASE.toSeconds(),
					health.seen());
			System.out.printf("Broker %d replicating again: in every ISR after %d ms; health ACTIVE %d ms after "
					+ "that%n", inZone, millis(resumeAt, inSyncAt), millis(inSyncAt, returnedAt));
			printDelays(listeners, produced, stallAt, movedAt);
		}
		finally {
			if (stalled) {
				cluster.resumeReplication(inZone);
			}
		}
	}

	private ConfigurableApplicationContext start(String topic, String... properties) {
		return new SpringApplicationBuilder(HealthApplication.class).web(WebApplicationType.NONE)
			.properties(properties)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=" + ZONE, "follower-fetch.observation.refresh-interval=200ms",
					"follower-fetch.observation.fallback-grace=1s", "test.topic=" + topic,
					"test.group=" + UUID.randomUUID())
			.run();
	}

	/**
	 * Make the first replica of each partition the one given, then elect the preferred
	 * leaders, and wait until every partition is led by its new first replica.
	 */
	private static void moveLeaders(Admin admin, String topic, Map<Integer, List<Integer>> assignment)
			throws Exception {
		Map<TopicPartition, Optional<NewPartitionReassignment>> reassignments = assignment.entrySet()
			.stream()
			.collect(Collectors.toMap((entry) -> new TopicPartition(topic, entry.getKey()),
					(entry) -> Optional.of(new NewPartitionReassignment(entry.getValue()))));
		admin.alterPartitionReassignments(reassignments).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		await("reassignment of " + topic + " done").atMost(TIMEOUT)
			.until(() -> replicas(topic).equals(assignment) && admin.listPartitionReassignments()
				.reassignments()
				.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
				.isEmpty());
		await("preferred leaders of " + topic + " elected").atMost(TIMEOUT)
			.pollInterval(Duration.ofMillis(200))
			.until(() -> {
				electPreferredLeaders(admin, reassignments.keySet());
				return leaders(topic).entrySet()
					.stream()
					.allMatch((leader) -> leader.getValue().equals(assignment.get(leader.getKey()).get(0)));
			});
	}

	/**
	 * A preferred replica briefly out of the ISR (the class runs a short
	 * {@code replica.lag.time.max.ms}) cannot be elected yet; the caller tries again.
	 */
	private static void electPreferredLeaders(Admin admin, Set<TopicPartition> partitions) throws Exception {
		try {
			admin.electLeaders(ElectionType.PREFERRED, partitions).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			if (!(ex.getCause() instanceof ElectionNotNeededException
					|| ex.getCause() instanceof PreferredLeaderNotAvailableException)) {
				throw ex;
			}
		}
	}

	private static void awaitMoreRecords(Listeners listeners, String listenerId) {
		int received = listeners.keys(listenerId).size();
		await(listenerId + " keeps receiving").atMost(TIMEOUT)
			.until(() -> listeners.keys(listenerId).size() >= received + RECORDS_PER_SECOND);
	}

	private static void assertReadsFromLeaders(ConfigurableApplicationContext context, String listenerId,
			int partitions) {
		await(listenerId + " reads every partition from its leader").atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(readReplicas(context, listenerId)).hasSize(partitions)
				.allSatisfy((partition, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER)));
	}

	private static void assertReadsFromZone(ConfigurableApplicationContext context, String listenerId, String topic,
			int inZone) {
		await(listenerId + " reads every partition from broker " + inZone).atMost(TIMEOUT).untilAsserted(() -> {
			Map<Integer, Integer> leaders = leaders(topic);
			assertThat(readReplicas(context, listenerId)).hasSize(leaders.size())
				.allSatisfy((partition, replica) -> assertThat(replica == inZone
						|| (replica == ConsumerReadStats.LEADER && leaders.get(partition.partition()) == inZone))
					.as("%s read from broker %d (read replica %d, leader %d)", partition, inZone, replica,
							leaders.get(partition.partition()))
					.isTrue());
		});
	}

	private static Map<TopicPartition, Integer> readReplicas(ConfigurableApplicationContext context,
			String listenerId) {
		return Listeners.readStats(context, listenerId).preferredReadReplicas();
	}

	private static Map<Integer, Integer> leaders(String topic) {
		return kafka.cluster()
			.describeTopic(topic)
			.partitions()
			.stream()
			.filter((info) -> info.leader() != null)
			.collect(Collectors.toMap(TopicPartitionInfo::partition, (info) -> info.leader().id()));
	}

	private static Map<Integer, List<Integer>> replicas(String topic) {
		return kafka.cluster()
			.describeTopic(topic)
			.partitions()
			.stream()
			.collect(Collectors.toMap(TopicPartitionInfo::partition,
					(info) -> info.replicas().stream().map(Node::id).toList()));
	}

	private static void printDelays(Listeners listeners, Map<String, Long> produced, long faultFrom, long faultTo) {
		for (String listenerId : List.of("analytics", "payments")) {
			Map<String, Long> received = listeners.keys(listenerId);
			List<Long> all = delays(produced, received, Long.MIN_VALUE, Long.MAX_VALUE);
			List<Long> aroundFault = delays(produced, received, faultFrom - Duration.ofSeconds(2).toNanos(), faultTo);
			System.out.printf("%s: %d records produced, all received, %d redelivered; send-to-receive delay median "
					+ "%d ms, longest around the fault %d ms%n", listenerId, produced.size(),
					listeners.redelivered(listenerId), all.get(all.size() / 2),
					aroundFault.isEmpty() ? -1 : aroundFault.get(aroundFault.size() - 1));
		}
	}

	private static List<Long> delays(Map<String, Long> produced, Map<String, Long> received, long from, long to) {
		return produced.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() >= from && entry.getValue() <= to)
			.map((entry) -> millis(entry.getValue(), received.get(entry.getKey())))
			.sorted()
			.toList();
	}

	private static long millis(long fromNanos, long toNanos) {
		return Duration.ofNanos(toNanos - fromNanos).toMillis();
	}

}
