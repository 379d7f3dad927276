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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.EnabledIfKafkaContainers;
import dev.followerfetch.test.MultiZoneKafkaContainers;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What only broker processes show, on three {@code apache/kafka} containers, one per
 * zone, while an application in az-b consumes a steady stream (idempotent producer,
 * {@code acks=all}, {@code min.insync.replicas=2}) with a LOCALITY listener (analytics) and
 * a FRESHNESS listener (payments): a broker killed with {@code SIGKILL} and restarted with
 * its log, and a rolling restart of every broker. Every acknowledged record reaches both
 * listeners exactly once; the figures are printed for docs/benchmarks.md.
 *
 * @author follower-fetch authors
 */
@EnabledIfKafkaContainers
class BrokerProcessesContainersTests {

	private static final String ZONE = "az-b";

	private static final int RECORDS_PER_SECOND = 50;

	private static final Duration TIMEOUT = Duration.ofSeconds(90);

	private static final Duration HOLD = Duration.ofSeconds(10);

	private static MultiZoneKafkaContainers cluster;

	@BeforeAll
	static void startCluster() {
		cluster = MultiZoneKafkaContainers.builder()
			.zones("az-a", ZONE, "az-c")
			.brokerProperty("min.insync.replicas", "2")
			.brokerProperty("replica.lag.time.max.ms", "10000")
			.start();
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void aBrokerKilledInTheApplicationsZoneRecoversItsLogAndTheLocalityListenerReturnsToItWithNothingLost() {
		cluster.createTopicLedByEveryZone("crash", 6, 3);
		int inZone = cluster.brokerId(ZONE);
		try (ConfigurableApplicationContext context = start("crash", "follower-fetch.rack=" + ZONE);
				SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(), "crash",
						RECORDS_PER_SECOND);
				HealthTimeline timeline = HealthTimeline.start(context)) {
			Listeners listeners = context.getBean(Listeners.class);
			new HealthWatch(context, TIMEOUT).awaitState("ACTIVE",
					(analytics) -> analytics.get("zoneLocalPartitions").equals(6));
			long killAt = System.nanoTime();
			timeline.mark(killAt);
			cluster.killBroker(inZone);
			awaitMoreRecords(listeners, "analytics");
			awaitMoreRecords(listeners, "payments");
			sleep(HOLD);
			long startAt = System.nanoTime();
			cluster.startBroker(inZone);
			long runningAt = System.nanoTime();
			cluster.awaitInSync("crash");
			long inSyncAt = System.nanoTime();
			await("analytics reads every partition in " + ZONE + " again").atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(readsInZone(context, "analytics", "crash", inZone)).isEqualTo(6));
			long backAt = System.nanoTime();
			new HealthWatch(context, TIMEOUT).awaitState("ACTIVE",
					(analytics) -> analytics.get("zoneLocalPartitions").equals(6));
			long activeAt = System.nanoTime();
			assertThat(cluster.logs(inZone)).as("the restarted broker's output")
				.containsPattern("Recovering \\d+ logs from \\S+ since no clean shutdown file was found");

			Map<String, Long> produced = producer.stopAndAwaitReceived(listeners, TIMEOUT, "analytics", "payments");
			assertThat(listeners.redelivered("analytics")).as("records analytics received twice").isZero();
			assertThat(listeners.redelivered("payments")).as("records payments received twice").isZero();
			System.out.printf("SIGKILL of broker %d (%s): restarted after %d ms down, serving %d ms after its start "
					+ "(log recovered), in every ISR %d ms after its start; analytics back on it %d ms after the ISR "
					+ "was full, health ACTIVE %d ms after that; %d records acknowledged, each received once by "
					+ "analytics and by payments; health from the kill on %s%n", inZone, ZONE, millis(killAt, startAt),
					millis(startAt, runningAt), millis(startAt, inSyncAt), millis(inSyncAt, backAt),
					millis(backAt, activeAt), produced.size(), timeline.timeline());
		}
	}

	@Test
	void aRollingRestartOfEveryBrokerLosesNothingWithTheStarterOrWithout() {
		cluster.createTopicLedByEveryZone("rolling", 6, 3);
		try (ConfigurableApplicationContext withStarter = start("rolling", "follower-fetch.rack=" + ZONE);
				ConfigurableApplicationContext without = start("rolling", "follower-fetch.enabled=false");
				SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(), "rolling",
						RECORDS_PER_SECOND)) {
			new HealthWatch(withStarter, TIMEOUT).awaitState("ACTIVE",
					(analytics) -> analytics.get("zoneLocalPartitions").equals(6));
			awaitMoreRecords(without.getBean(Listeners.class), "analytics");
			Map<String, Map<String, Integer>> before = Map.of("starter", rebalances(withStarter), "plain",
					rebalances(without));
			long rollAt = System.nanoTime();
			for (int broker = 0; broker < cluster.zones().size(); broker++) {
				cluster.stopBroker(broker);
				sleep(HOLD);
				cluster.startBroker(broker);
				cluster.awaitInSync("rolling");
				sleep(HOLD);
			}
			long rolledAt = System.nanoTime();

			Map<String, Long> produced = producer.stopAndAwaitReceived(withStarter.getBean(Listeners.class), TIMEOUT,
					"analytics", "payments");
			assertThat(without.getBean(Listeners.class).keys("analytics").keySet())
				.containsExactlyInAnyOrderElementsOf(produced.keySet());
			assertThat(without.getBean(Listeners.class).keys("payments").keySet())
				.containsExactlyInAnyOrderElementsOf(produced.keySet());
			List<String> rows = new ArrayList<>();
			Map<String, ConfigurableApplicationContext> applications = new LinkedHashMap<>();
			applications.put("plain", without);
			applications.put("starter", withStarter);
			applications.forEach((name, context) -> {
				Listeners listeners = context.getBean(Listeners.class);
				Map<String, Integer> rebalances = rebalances(context);
				for (String listener : List.of("analytics", "payments")) {
					rows.add("%s %s: %d rebalances, %d partitions revoked, %d records received twice".formatted(name,
							listener, rebalances.get(listener) - before.get(name).get(listener),
							revoked(context, listener), listeners.redelivered(listener)));
				}
			});
			System.out.printf("Rolling restart of brokers 0, 1, 2 (controlled shutdown, %d s down, until in sync, "
					+ "%d s) in %d ms, %d records acknowledged, all received by every listener:%n  %s%n",
					HOLD.toSeconds(), HOLD.toSeconds(), millis(rollAt, rolledAt), produced.size(),
					String.join("\n  ", rows));
		}
	}

	private ConfigurableApplicationContext start(String topic, String... properties) {
		return new SpringApplicationBuilder(HealthApplication.class).web(WebApplicationType.NONE)
			.properties(properties)
			.properties("spring.kafka.bootstrap-servers=" + cluster.bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.observation.refresh-interval=200ms", "test.topic=" + topic,
					"test.group=" + UUID.randomUUID())
			.run();
	}

	/**
	 * The partitions a listener reads from the broker of its zone, as its consumers'
	 * metrics and the leaders the brokers name say.
	 */
	private static int readsInZone(ConfigurableApplicationContext context, String listenerId, String topic,
			int inZone) {
		Map<Integer, Integer> leaders = cluster.describeTopic(topic)
			.partitions()
			.stream()
			.filter((info) -> info.leader() != null)
			.collect(Collectors.toMap(TopicPartitionInfo::partition, (info) -> info.leader().id()));
		return (int) Listeners.readStats(context, listenerId)
			.preferredReadReplicas()
			.entrySet()
			.stream()
			.filter((read) -> read.getValue() == inZone || (read.getValue() == ConsumerReadStats.LEADER
					&& Integer.valueOf(inZone).equals(leaders.get(read.getKey().partition()))))
			.count();
	}

	/**
	 * The rebalances each listener's consumers went through, from their own
	 * {@code rebalance-total} metric.
	 */
	private static Map<String, Integer> rebalances(ConfigurableApplicationContext context) {
		Map<String, Integer> rebalances = new LinkedHashMap<>();
		for (String listener : List.of("analytics", "payments")) {
			MessageListenerContainer container = context.getBean(KafkaListenerEndpointRegistry.class)
				.getListenerContainer(listener);
			int total = 0;
			for (Map<MetricName, ? extends Metric> metrics : container.metrics().values()) {
				for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
					if (metric.getKey().group().equals("consumer-coordinator-metrics")
							&& metric.getKey().name().equals("rebalance-total")) {
						total += ((Number) metric.getValue().metricValue()).intValue();
					}
				}
			}
			rebalances.put(listener, total);
		}
		return rebalances;
	}

	private static int revoked(ConfigurableApplicationContext context, String listener) {
		String group = context.getEnvironment().getProperty("test.group") + "-" + listener;
		return context.getBean(Revocations.class).revoked(group);
	}

	private static void awaitMoreRecords(Listeners listeners, String listenerId) {
		int received = listeners.keys(listenerId).size();
		await(listenerId + " keeps receiving").atMost(TIMEOUT)
			.until(() -> listeners.keys(listenerId).size() >= received + RECORDS_PER_SECOND);
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

	private static long millis(long fromNanos, long toNanos) {
		return Duration.ofNanos(toNanos - fromNanos).toMillis();
	}

}
