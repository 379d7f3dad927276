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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.followerfetch.policy.BrokerBounceRejoins;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rolling restart of the brokers (each broker-only node stopped with a controlled
 * shutdown and started again in turn) while four consumer groups of each listener read a
 * steady stream: one instance in az-b with the starter, the same without it
 * ({@code follower-fetch.enabled=false}), three instances with the starter (one per
 * zone), and three without. Before kafka-clients 4.4 the starter's LOCALITY consumers
 * rejoin their group on every broker restart (KAFKA-20778; consumers without
 * {@code client.rack} do not), so the rejoins are counted, not bounded; what the starter
 * controls is their cost: its groups revoke no more partitions than the plain ones, and
 * no record is lost or read twice. With kafka-clients 4.4 and later they rebalance no more
 * than the plain ones either. The figures are printed per kafka-clients line for
 * docs/benchmarks.md.
 *
 * @author follower-fetch authors
 */
class RollingRestartEndToEndTests {

	private static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	private static final int RECORDS_PER_SECOND = 50;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final Duration HOLD = Duration.ofSeconds(3);

	private static final List<String> LISTENERS = List.of("analytics", "payments");

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c")
		.withBrokerProperty("replica.lag.time.max.ms", "3000");

	@Test
	void aRollingRestartCostsTheStartersGroupsNoRevokedPartitionLossOrDuplicateThePlainGroupsDoNotPay() {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		cluster.createTopicLedByEveryZone("rolling", 6, 3);
		Map<String, List<ConfigurableApplicationContext>> groups = new LinkedHashMap<>();
		try (SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(), "rolling",
				RECORDS_PER_SECOND)) {
			groups.put("plain, one instance", List.of(start(null)));
			groups.put("starter, one instance in az-b", List.of(start("az-b")));
			// the starter's list before it rebalanced cooperatively: range in it keeps the group eager
			groups.put("starter eager, one in az-b", List.of(start("az-b", UUID.randomUUID().toString(),
					"spring.kafka.consumer.properties.partition.assignment.strategy="
							+ "org.apache.kafka.clients.consumer.RangeAssignor,"
							+ "org.apache.kafka.clients.consumer.CooperativeStickyAssignor")));
			String plainGroup = UUID.randomUUID().toString();
			String starterGroup = UUID.randomUUID().toString();
			groups.put("plain, three instances",
					ZONES.stream().map((zone) -> start(null, plainGroup)).toList());
			groups.put("starter, one instance per zone",
					ZONES.stream().map((zone) -> start(zone, starterGroup)).toList());
			groups.values().forEach(RollingRestartEndToEndTests::awaitEveryPartitionAssigned);
			Map<String, Map<String, Integer>> before = new HashMap<>();
			Map<String, Map<String, Integer>> revokedBefore = new HashMap<>();
			groups.forEach((name, instances) -> {
				before.put(name, rebalances(instances));
				revokedBefore.put(name, revoked(instances));
			});

			long rollAt = System.nanoTime();
			for (int broker : List.of(1, 2)) {
				cluster.stopBroker(broker);
				sleep(HOLD);
				cluster.startBroker(broker);
				cluster.awaitInSync("rolling");
				sleep(HOLD);
			}
			long rolledAt = System.nanoTime();

			producer.stop();
			assertThat(producer.failures()).isEmpty();
			Map<String, Long> produced = producer.acknowledged();
			List<String> rows = new ArrayList<>();
			Map<String, Map<String, Integer>> revoked = new HashMap<>();
			Map<String, Map<String, Integer>> rebalanced = new HashMap<>();
			groups.forEach((name, instances) -> {
				Map<String, Integer> after = rebalances(instances);
				for (String listener : LISTENERS) {
					await(name + " " + listener + " receives every acknowledged record").atMost(TIMEOUT)
						.until(() -> received(instances, listener).keySet().containsAll(produced.keySet()));
					Map<String, Long> received = received(instances, listener);
					assertThat(received.keySet()).as("%s %s", name, listener)
						.containsExactlyInAnyOrderElementsOf(produced.keySet());
					int deliveries = instances.stream()
						.mapToInt((context) -> context.getBean(Listeners.class).deliveries(listener))
						.sum();
					assertThat(deliveries).as("%s %s: records received twice", name, listener)
						.isEqualTo(produced.size());
					int rebalances = after.get(listener) - before.get(name).get(listener);
					int revokedPartitions = revoked(instances).get(listener) - revokedBefore.get(name).get(listener);
					revoked.computeIfAbsent(name, (key) -> new HashMap<>()).put(listener, revokedPartitions);
					rebalanced.computeIfAbsent(name, (key) -> new HashMap<>()).put(listener, rebalances);
					rows.add("%-31s %-9s  rebalances %d, partitions revoked %2d, lost 0, read twice 0, longest gap %5d ms, p99 %5d ms"
						.formatted(name, listener, rebalances, revokedPartitions, longestGap(received, rollAt, rolledAt),
								p99(produced, received, rollAt, rolledAt)));
				}
			});
			System.out.printf("Rolling restart of brokers 1 and 2 on kafka-clients %s (controlled shutdown, %d s down, "
					+ "until in sync, %d s) in %d ms, %d records acknowledged:%n  %s%n",
					BrokerBounceRejoins.ofClasspath().kafkaVersion(), HOLD.toSeconds(), HOLD.toSeconds(),
					Duration.ofNanos(rolledAt - rollAt).toMillis(), produced.size(), String.join("\n  ", rows));
			for (String listener : LISTENERS) {
				assertThat(revoked.get("starter, one instance in az-b").get(listener)).as(listener)
					.isLessThanOrEqualTo(revoked.get("plain, one instance").get(listener));
				assertThat(revoked.get("starter, one instance per zone").get(listener)).as(listener)
					.isLessThanOrEqualTo(revoked.get("plain, three instances").get(listener));
				if (BrokerBounceRejoins.ofClasspath().fixed()) {
					assertThat(rebalanced.get("starter, one instance in az-b").get(listener)).as(listener)
						.isLessThanOrEqualTo(rebalanced.get("plain, one instance").get(listener));
					assertThat(rebalanced.get("starter, one instance per zone").get(listener)).as(listener)
						.isLessThanOrEqualTo(rebalanced.get("plain, three instances").get(listener));
				}
			}
		}
		finally {
			groups.values().forEach((instances) -> instances.forEach(ConfigurableApplicationContext::close));
		}
	}

	private ConfigurableApplicationContext start(String zone) {
		return start(zone, UUID.randomUUID().toString());
	}

	/**
	 * An instance of the test application: with the starter in a zone, or without it
	 * ({@code zone} null).
	 */
	private ConfigurableApplicationContext start(String zone, String group, String... properties) {
		return new SpringApplicationBuilder(HealthApplication.class).web(WebApplicationType.NONE)
			.properties(properties)
			.properties((zone != null) ? "follower-fetch.rack=" + zone : "follower-fetch.enabled=false")
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.observation.refresh-interval=500ms", "test.topic=rolling", "test.group=" + group)
			.run();
	}

	/**
	 * Wait until every instance reads a share of each listener's partitions, all six are
	 * assigned, and no rebalance has come for two seconds: the group has formed.
	 */
	private static void awaitEveryPartitionAssigned(List<ConfigurableApplicationContext> instances) {
		for (String listener : LISTENERS) {
			await(listener + " assigned every partition").atMost(TIMEOUT).until(() -> instances.stream()
				.allMatch((context) -> !container(context, listener).getAssignedPartitions().isEmpty())
					&& instances.stream()
						.mapToInt((context) -> container(context, listener).getAssignedPartitions().size())
						.sum() == 6);
		}
		AtomicReference<Map<String, Integer>> last = new AtomicReference<>(rebalances(instances));
		long[] since = { System.nanoTime() };
		await("no rebalance for 2 s").atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
			Map<String, Integer> now = rebalances(instances);
			if (!now.equals(last.get())) {
				last.set(now);
				since[0] = System.nanoTime();
			}
			return System.nanoTime() - since[0] > Duration.ofSeconds(2).toNanos();
		});
	}

	private static Map<String, Long> received(List<ConfigurableApplicationContext> instances, String listener) {
		Map<String, Long> received = new HashMap<>();
		instances.forEach((context) -> context.getBean(Listeners.class)
			.keys(listener)
			.forEach((key, at) -> received.merge(key, at, Math::min)));
		return received;
	}

	/**
	 * The rebalances each listener's group went through: the most any of its consumers
	 * counts in its own {@code rebalance-total} metric (every member takes part in each).
	 */
	private static Map<String, Integer> rebalances(List<ConfigurableApplicationContext> instances) {
		Map<String, Integer> rebalances = new HashMap<>();
		for (String listener : LISTENERS) {
			int most = 0;
			for (ConfigurableApplicationContext context : instances) {
				int total = 0;
				for (Map<MetricName, ? extends Metric> metrics : container(context, listener).metrics().values()) {
					for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
						if (metric.getKey().group().equals("consumer-coordinator-metrics")
								&& metric.getKey().name().equals("rebalance-total")) {
							total += ((Number) metric.getValue().metricValue()).intValue();
						}
					}
				}
				most = Math.max(most, total);
			}
			rebalances.put(listener, most);
		}
		return rebalances;
	}

	/**
	 * The partitions each listener's consumers had revoked, over every instance.
	 */
	private static Map<String, Integer> revoked(List<ConfigurableApplicationContext> instances) {
		Map<String, Integer> revoked = new HashMap<>();
		for (String listener : LISTENERS) {
			revoked.put(listener, instances.stream()
				.mapToInt((context) -> context.getBean(Revocations.class)
					.revoked(context.getEnvironment().getProperty("test.group") + "-" + listener))
				.sum());
		}
		return revoked;
	}

	private static MessageListenerContainer container(ConfigurableApplicationContext context, String listener) {
		return context.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer(listener);
	}

	/**
	 * The longest time between two records received during the window, in order of
	 * reception: how long consumption stopped.
	 */
	private static long longestGap(Map<String, Long> received, long from, long to) {
		List<Long> times = received.values().stream().filter((at) -> at >= from && at <= to).sorted().toList();
		long longest = 0;
		for (int i = 1; i < times.size(); i++) {
			longest = Math.max(longest, times.get(i) - times.get(i - 1));
		}
		return Duration.ofNanos(longest).toMillis();
	}

	/**
	 * The 99th percentile of send-to-receive delays of the records sent during the window.
	 */
	private static long p99(Map<String, Long> produced, Map<String, Long> received, long from, long to) {
		List<Long> delays = produced.entrySet()
			.stream()
			.filter((sent) -> sent.getValue() >= from && sent.getValue() <= to)
			.map((sent) -> received.get(sent.getKey()) - sent.getValue())
			.sorted()
			.toList();
		return delays.isEmpty() ? -1 : Duration.ofNanos(delays.get((int) (delays.size() * 0.99))).toMillis();
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

}
