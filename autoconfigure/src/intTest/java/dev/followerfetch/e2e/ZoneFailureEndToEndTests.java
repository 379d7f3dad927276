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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.LinkFailure;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Zone failures on a real three-zone cluster whose network paths the test can cut, while
 * an application in az-b consumes a steady keyed stream (produced from az-a) with a
 * locality listener (analytics) and a freshness listener (payments): the az-b broker
 * taken off the network at once, cut from the other brokers, unreachable from its own
 * zone's clients, and az-b cut from the rest of the region. Each fault is held for a fixed
 * window and then healed; the test asserts exact accounting (nothing lost) and the order
 * of what the client and the health contributor report, and prints the figures in
 * docs/benchmarks.md. The cluster is this class's own.
 *
 * @author follower-fetch authors
 */
class ZoneFailureEndToEndTests {

	private static final String ZONE = "az-b";

	private static final String PRODUCER_ZONE = "az-a";

	private static final String TOPIC_PREFIX = "zone-";

	private static final int RECORDS_PER_SECOND = 50;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final Duration REPLICA_LAG_TIME_MAX = Duration.ofSeconds(3);

	private static final Duration REPLICA_LEASE = Duration.parse(
			"PT" + System.getProperty("zonefail.replica-lease", "10s").toUpperCase());

	private static final Duration CONSUMER_REQUEST_TIMEOUT = Duration.parse(
			"PT" + System.getProperty("zonefail.request-timeout", "10s").toUpperCase());

	private static final Duration FAULT = Duration.parse(
			"PT" + System.getProperty("zonefail.fault", "20s").toUpperCase());

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones(PRODUCER_ZONE, ZONE, "az-c")
		.withZoneNetwork()
		.withBrokerProperty("replica.lag.time.max.ms", String.valueOf(REPLICA_LAG_TIME_MAX.toMillis()));

	@AfterEach
	void heal() {
		kafka.cluster().heal();
	}

	@Test
	void whenTheInZoneBrokerDiesAtOnceReadsMoveToTheLeadersWithinTheRequestTimeoutAndNothingIsLost() {
		Figures figures = run("killed", (cluster) -> cluster.kill(ZONE));
		figures.assertNothingLost();
		assertThat(figures.lastReadsBeforeHeal().values()).as("analytics reads every partition from its leader")
			.containsOnly(ConsumerReadStats.LEADER);
		assertThat(figures.states()).as("health states").containsSubsequence("ACTIVE", "PARTIAL");
		assertThat(figures.bytesFromOtherZones()).as("bytes read across zones during the fault")
			.isGreaterThan(10 * figures.bytesFromZone());
		assertThat(figures.consumerRecoveredAfter("analytics")).as("analytics back to normal delays before the heal")
			.isBetween(0L, figures.healedAfter());
	}

	@Test
	void whenTheInZoneBrokerProcessDiesOnALiveHostReadsMoveToTheLeadersAndNothingIsLost() {
		Figures figures = run("refused", (cluster) -> cluster.kill(ZONE, LinkFailure.REFUSE));
		figures.assertNothingLost();
		assertThat(figures.lastReadsBeforeHeal().values()).as("analytics reads every partition from its leader")
			.containsOnly(ConsumerReadStats.LEADER);
		assertThat(figures.consumerRecoveredAfter("analytics")).as("analytics back to normal delays before the heal")
			.isLessThan(figures.healedAfter());
	}

	@Test
	void whenTheInZoneBrokerIsCutFromTheOtherBrokersReadsMoveToTheLeadersWhenTheLeaseEndsAndNothingIsLost() {
		Figures figures = run("isolated", (cluster) -> cluster.isolateBroker(ZONE));
		figures.assertNothingLost();
		assertThat(figures.lastReadsBeforeHeal().values()).as("analytics reads every partition from its leader")
			.containsOnly(ConsumerReadStats.LEADER);
		assertThat(figures.states()).as("health states").contains("LAGGING", "PARTIAL");
		assertThat(figures.consumerRecoveredAfter("analytics")).as("analytics back to normal delays before the heal")
			.isBetween(REPLICA_LEASE.toMillis() / 2, figures.healedAfter());
	}

	@Test
	void whenTheInZoneBrokerIsUnreachableFromItsZoneTheLocalityListenerWaitsForItAndNothingIsLost() {
		Figures figures = run("unreachable", (cluster) -> cluster.cutClients(ZONE, ZONE));
		figures.assertNothingLost();
		for (String partition : List.of(TOPIC_PREFIX + "unreachable-0", TOPIC_PREFIX + "unreachable-2")) {
			assertThat(figures.readsOf(partition))
				.as("analytics is sent to the unreachable in-zone follower again and again: the leader names it as "
						+ "long as it is in sync; each failed fetch clears it, so samples see it or the leader")
				.contains(cluster().brokerId(ZONE))
				.isSubsetOf(cluster().brokerId(ZONE), ConsumerReadStats.LEADER);
		}
		assertThat(figures.states()).as("health states").containsSubsequence("ACTIVE", "UNREACHABLE");
		assertThat(figures.consumerRecoveredAfter("analytics")).as("analytics waits until the heal")
			.isGreaterThanOrEqualTo(figures.healedAfter());
		assertThat(figures.bytesFromOtherZones()).as("the leaders send analytics no records, only empty answers")
			.isLessThan(4096);
		assertThat(figures.bytesFromZone())
			.as("nothing gets through from the in-zone broker, but a fetch answer that was on its way when the path "
					+ "was cut")
			.isLessThan(1024);
	}

	@Test
	void whenTheConsumersZoneLosesTheRestOfTheRegionListenersWaitForTheHealAndNothingIsLost() {
		Figures figures = run("partitioned", (cluster) -> cluster.partition(ZONE));
		figures.assertNothingLost();
		assertThat(figures.consumerRecoveredAfter("analytics")).isGreaterThanOrEqualTo(figures.healedAfter());
		assertThat(figures.consumerRecoveredAfter("payments")).isGreaterThanOrEqualTo(figures.healedAfter());
	}

	private static MultiZoneKafkaCluster cluster() {
		return kafka.cluster();
	}

	private Figures run(String scenario, Function<MultiZoneKafkaCluster, List<String>> fault) {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		String topic = TOPIC_PREFIX + scenario;
		cluster.createTopicLedByEveryZone(topic, 3, 3);
		try (ConfigurableApplicationContext context = start(topic);
				SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(PRODUCER_ZONE), topic,
						RECORDS_PER_SECOND);
				HealthTimeline health = HealthTimeline.start(context)) {
			HealthWatch watch = new HealthWatch(context, TIMEOUT);
			Listeners listeners = context.getBean(Listeners.class);
			watch.awaitState("ACTIVE", (analytics) -> analytics.get("zoneLocalPartitions").equals(3));
			Map<Integer, Long> bytesBefore = Listeners.readStats(context, "analytics").bytesByBroker();

			long faultAt = System.nanoTime();
			health.mark(faultAt);
			List<String> cut = fault.apply(cluster);
			List<String> reads = new ArrayList<>();
			List<Map<String, Integer>> readSamples = new ArrayList<>();
			long readsSampledUntil = faultAt + FAULT.toNanos();
			do {
				sleep(Duration.ofMillis(Math.min(2000, Math.max(1, millis(System.nanoTime(), readsSampledUntil)))));
				Map<String, Integer> sample = readReplicas(context);
				readSamples.add(sample);
				reads.add(millis(faultAt, System.nanoTime()) + " ms " + sample);
			}
			while (System.nanoTime() < readsSampledUntil);
			Map<String, Long> receivedBeforeHeal = Map.of("analytics", (long) listeners.keys("analytics").size(),
					"payments", (long) listeners.keys("payments").size());
			Map<Integer, Long> bytesDuringFault = since(Listeners.readStats(context, "analytics").bytesByBroker(),
					bytesBefore);
			long healAt = System.nanoTime();
			cluster.heal();
			cluster.awaitInSync(topic);
			long inSyncAt = System.nanoTime();
			Map<String, Long> produced = producer.stopAndAwaitReceived(listeners, TIMEOUT, "analytics", "payments");
			long doneAt = System.nanoTime();
			Figures figures = new Figures(scenario, produced, producer.acknowledgedAt(), listeners, faultAt, healAt,
					readSamples, health.states(), bytesDuringFault);
			System.out.printf("%n[zone-failure] %s: %d paths cut %s; fault held %d ms, in every ISR %d ms after the "
					+ "heal; consumer request.timeout.ms %d, replica lease %d ms, replica.lag.time.max.ms %d%n",
					scenario, cut.size(), cut, millis(faultAt, healAt), millis(healAt, inSyncAt),
					CONSUMER_REQUEST_TIMEOUT.toMillis(), REPLICA_LEASE.toMillis(), REPLICA_LAG_TIME_MAX.toMillis());
			System.out.printf("[zone-failure] %s: health (ms from the fault) %s%n", scenario, health.timeline());
			System.out.printf("[zone-failure] %s: analytics read replicas (ms from the fault) %s%n", scenario, reads);
			System.out.printf("[zone-failure] %s: analytics bytes by broker during the fault %s, during the test %s%n",
					scenario, bytesDuringFault,
					since(Listeners.readStats(context, "analytics").bytesByBroker(), bytesBefore));
			System.out.printf("[zone-failure] %s: received before the heal %s; all received %d ms after the heal%n",
					scenario, receivedBeforeHeal, millis(healAt, doneAt));
			figures.print();
			return figures;
		}
	}

	private ConfigurableApplicationContext start(String topic) {
		return new SpringApplicationBuilder(HealthApplication.class).web(WebApplicationType.NONE)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(ZONE),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=" + ZONE, "follower-fetch.observation.refresh-interval=200ms",
					"follower-fetch.observation.fallback-grace=1s", "follower-fetch.observation.timeout=2s",
					"follower-fetch.policy.replica-lease=" + REPLICA_LEASE.toMillis() + "ms",
					"follower-fetch.policy.replica-request-timeout=" + CONSUMER_REQUEST_TIMEOUT.toMillis() + "ms",
					"test.topic=" + topic,
					"test.group=" + UUID.randomUUID())
			.run();
	}

	private static Map<Integer, Long> since(Map<Integer, Long> now, Map<Integer, Long> before) {
		Map<Integer, Long> delta = new TreeMap<>();
		now.forEach((broker, bytes) -> delta.put(broker, bytes - before.getOrDefault(broker, 0L)));
		return delta;
	}

	private static Map<String, Integer> readReplicas(ConfigurableApplicationContext context) {
		Map<String, Integer> replicas = new TreeMap<>();
		try {
			Listeners.readStats(context, "analytics")
				.preferredReadReplicas()
				.forEach((partition, replica) -> replicas.put(partition.toString(), replica));
		}
		catch (RuntimeException ex) {
			replicas.put(ex.toString(), ConsumerReadStats.LEADER);
		}
		return replicas;
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static long millis(long fromNanos, long toNanos) {
		return Duration.ofNanos(toNanos - fromNanos).toMillis();
	}

	/**
	 * What one scenario cost each listener, from the keys produced, acknowledged and
	 * received.
	 */
	record Figures(String scenario, Map<String, Long> produced, Map<String, Long> acknowledgedAt,
			Listeners listeners, long faultAt, long healAt, List<Map<String, Integer>> readsDuringFault,
			List<String> states, Map<Integer, Long> bytesDuringFault) {

		Map<String, Integer> lastReadsBeforeHeal() {
			return this.readsDuringFault.isEmpty() ? Map.of()
					: this.readsDuringFault.get(this.readsDuringFault.size() - 1);
		}

		/**
		 * The read replica each sample during the fault saw for one partition, where it
		 * saw one.
		 * @param partition the partition
		 * @return the read replicas, in sample order
		 */
		List<Integer> readsOf(String partition) {
			return this.readsDuringFault.stream()
				.map((reads) -> reads.get(partition))
				.filter((replica) -> replica != null)
				.toList();
		}

		long bytesFromOtherZones() {
			return this.bytesDuringFault.entrySet()
				.stream()
				.filter((broker) -> broker.getKey() != kafka.cluster().brokerId(ZONE))
				.mapToLong(Map.Entry::getValue)
				.sum();
		}

		long bytesFromZone() {
			return this.bytesDuringFault.getOrDefault(kafka.cluster().brokerId(ZONE), 0L);
		}

		private static final Duration NORMAL_DELAY = Duration.ofSeconds(2);

		void assertNothingLost() {
			for (String listenerId : List.of("analytics", "payments")) {
				assertThat(this.listeners.keys(listenerId).keySet()).as("%s received every acknowledged key", listenerId)
					.containsAll(this.produced.keySet());
			}
		}

		long healedAfter() {
			return millis(this.faultAt, this.healAt);
		}

		long longestDelay(String listenerId) {
			Map<String, Long> received = this.listeners.keys(listenerId);
			return this.produced.entrySet()
				.stream()
				.mapToLong((entry) -> millis(entry.getValue(), received.get(entry.getKey())))
				.max()
				.orElse(-1);
		}

		/**
		 * The longest time a record waited for the consumer once it was acknowledged (or
		 * sent, if it was received before its acknowledgement came back).
		 */
		long longestConsumerDelay(String listenerId) {
			Map<String, Long> received = this.listeners.keys(listenerId);
			return this.produced.keySet()
				.stream()
				.mapToLong((key) -> consumerDelayNanos(key, received) / 1_000_000)
				.max()
				.orElse(-1);
		}

		long longestProducerDelay() {
			return this.produced.entrySet()
				.stream()
				.mapToLong((entry) -> millis(entry.getValue(), this.acknowledgedAt.get(entry.getKey())))
				.max()
				.orElse(-1);
		}

		private long consumerDelayNanos(String key, Map<String, Long> received) {
			long ready = Math.min(this.acknowledgedAt.get(key), received.get(key));
			return Math.max(0, received.get(key) - Math.max(ready, this.produced.get(key)));
		}

		/**
		 * Milliseconds from the fault until the last record that waited for the consumer
		 * beyond normal arrived, or -1 when none did.
		 */
		long consumerRecoveredAfter(String listenerId) {
			Map<String, Long> received = this.listeners.keys(listenerId);
			return this.produced.keySet()
				.stream()
				.filter((key) -> consumerDelayNanos(key, received) > NORMAL_DELAY.toNanos())
				.mapToLong((key) -> millis(this.faultAt, received.get(key)))
				.max()
				.orElse(-1);
		}

		void print() {
			System.out.printf("[zone-failure] %s: producer (az-a): longest send-to-acknowledgement %d ms%n",
					this.scenario, longestProducerDelay());
			for (String listenerId : List.of("analytics", "payments")) {
				long recovered = consumerRecoveredAfter(listenerId);
				System.out.printf("[zone-failure] %s: %s: %d produced, %d lost, %d redelivered, longest send-to-receive "
						+ "%d ms, longest acknowledgement-to-receive %d ms, consumer delays normal again %s%n",
						this.scenario, listenerId, this.produced.size(),
						this.produced.keySet()
							.stream()
							.filter((key) -> !this.listeners.keys(listenerId).containsKey(key))
							.count(),
						this.listeners.redelivered(listenerId), longestDelay(listenerId),
						longestConsumerDelay(listenerId),
						(recovered < 0) ? "(never delayed)"
								: (recovered + " ms after the fault, "
										+ ((recovered < healedAfter()) ? "before" : "after") + " the heal at "
										+ healedAfter() + " ms"));
			}
		}

	}

}
