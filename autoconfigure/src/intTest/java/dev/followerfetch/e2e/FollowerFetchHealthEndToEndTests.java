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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import dev.followerfetch.BootApis;
import dev.followerfetch.observation.FollowerFetchState;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code followerFetch} health contributor and the meters, read over real HTTP from a
 * web application consuming from a real three-zone cluster.
 *
 * @author follower-fetch authors
 */
class FollowerFetchHealthEndToEndTests {

	private static final int RECORDS = 300;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	static void createTopics() {
		kafka.cluster().createTopicLedByEveryZone("orders", 6, 3);
		kafka.cluster().createTopicLedByEveryZone("clicks", 6, 2);
		kafka.cluster().produce("orders", RECORDS, 1024);
		kafka.cluster().produce("clicks", RECORDS, 1024);
	}

	@AfterEach
	void closeContexts() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void whenEveryPartitionIsReadInZoneTheStateIsActiveWithCountsPerListener() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-b");
		consumeAll(context);
		Map<String, Object> health = awaitHealth(context, "ACTIVE", 200,
				(details) -> reads(details, "analytics", 6, 0) && reads(details, "payments", 2, 4));
		assertThat(health).containsEntry("status", "UP");
		Map<String, Object> details = details(health);
		assertThat(details).containsEntry("rack", "az-b")
			.containsEntry("source", "property:follower-fetch.rack")
			.containsEntry("brokerRacks", List.of("az-a", "az-b", "az-c"));
		assertThat(listener(details, "analytics")).containsEntry("policy", "LOCALITY")
			.containsEntry("partitions", 6)
			.containsEntry("zoneLocalPartitions", 6)
			.containsEntry("crossZonePartitions", 0)
			.containsEntry("placementGaps", List.of());
		assertThat(listener(details, "payments")).containsEntry("policy", "FRESHNESS")
			.containsEntry("partitions", 6)
			.containsEntry("zoneLocalPartitions", 2)
			.containsEntry("crossZonePartitions", 4);
	}

	@Test
	void theMetersSayWhatLocalityListenersSaveAndWhatFreshnessListenersCost() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-b");
		consumeAll(context);
		awaitHealth(context, "ACTIVE", 200, (details) -> reads(details, "analytics", 6, 0));
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		await().atMost(TIMEOUT).untilAsserted(() -> {
			double analyticsLocal = bytes(registry, "analytics", "local");
			double analyticsRemote = bytes(registry, "analytics", "remote");
			assertThat(analyticsLocal).isGreaterThan(RECORDS * 1024);
			assertThat(analyticsLocal / (analyticsLocal + analyticsRemote)).isGreaterThanOrEqualTo(0.99);
			double paymentsLocal = bytes(registry, "payments", "local");
			double paymentsRemote = bytes(registry, "payments", "remote");
			assertThat(paymentsRemote / (paymentsLocal + paymentsRemote)).isBetween(0.5, 0.8);
			assertThat(registry.get("follower.fetch.partitions")
				.tags("listener", "analytics", "policy", "locality", "zone", "local", "replica", "leader")
				.gauge()
				.value()).isEqualTo(2);
			assertThat(registry.get("follower.fetch.partitions")
				.tags("listener", "analytics", "policy", "locality", "zone", "local", "replica", "follower")
				.gauge()
				.value()).isEqualTo(4);
		});
		Gauge rack = registry.get("follower.fetch.rack").gauge();
		assertThat(rack.getId().getTag("rack")).isEqualTo("az-b");
		assertThat(rack.getId().getTag("source")).isEqualTo("property:follower-fetch.rack");
		assertThat(rack.value()).isEqualTo(1);
		assertThat(registry.get("follower.fetch.state").gauges()).hasSize(FollowerFetchState.values().length)
			.allSatisfy((state) -> assertThat(state.value())
				.isEqualTo(state.getId().getTag("state").equals("ACTIVE") ? 1 : 0));
	}

	@Test
	void theStateMeterFollowsADegradedState() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-x");
		awaitHealth(context, "RACK_MISMATCH", 200);
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		assertThat(registry.get("follower.fetch.state")
			.tags("state", "RACK_MISMATCH", "degraded", "true")
			.gauge()
			.value()).isEqualTo(1);
		assertThat(registry.get("follower.fetch.state").tags("state", "ACTIVE").gauge().value()).isZero();
	}

	@Test
	void aPartitionWithoutAnInZoneReplicaMakesTheStatePartialAndIsListed() throws Exception {
		ConfigurableApplicationContext context = start("clicks", "follower-fetch.rack=az-b");
		consumeAll(context);
		Map<String, Object> health = awaitHealth(context, "PARTIAL", 200,
				(details) -> reads(details, "analytics", 4, 2));
		assertThat(health).containsEntry("status", "UP");
		assertThat(listener(details(health), "analytics")).containsEntry("placementGaps",
				List.of("clicks-2", "clicks-5"));
	}

	@Test
	void aRackNoBrokerHasIsAMismatchReportedAsUnknownByDefault() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-x");
		Map<String, Object> health = awaitHealth(context, "RACK_MISMATCH", 200);
		assertThat(health).containsEntry("status", "UNKNOWN");
	}

	@Test
	void aDegradedStateReportsTheStatusTheUserAskedFor() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-x",
				"follower-fetch.health.degraded-status=DOWN");
		Map<String, Object> health = awaitHealth(context, "RACK_MISMATCH", 503);
		assertThat(health).containsEntry("status", "DOWN");
	}

	@Test
	void withoutARackTheStateIsNoRack() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.detection.order=env");
		Map<String, Object> health = awaitHealth(context, "NO_RACK", 200);
		assertThat(health).containsEntry("status", "UNKNOWN");
	}

	@Test
	void whenSwitchedOffTheStateIsDisabledAndUp() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.enabled=false");
		Map<String, Object> health = awaitHealth(context, "DISABLED", 200);
		assertThat(health).containsEntry("status", "UP");
	}

	@Test
	void partitionsReadAcrossZonesDespiteAnInZoneReplicaTurnTheStateToFallbackAfterTheGrace() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-b", "test.misrouted=true",
				"follower-fetch.observation.fallback-grace=0s");
		consumeAll(context);
		context.getBean(Listeners.class).awaitReceived("misrouted", RECORDS);
		Map<String, Object> health = awaitHealth(context, "FALLBACK", 200,
				(details) -> reads(details, "misrouted", 0, 6)
						&& listener(details, "misrouted").get("fallbackPartitions") instanceof List<?> fallback
						&& fallback.size() == 6);
		assertThat(health).containsEntry("status", "UNKNOWN");
		Map<String, Object> misrouted = listener(details(health), "misrouted");
		assertThat(misrouted).containsEntry("policy", "LOCALITY").containsEntry("crossZonePartitions", 6);
		assertThat((List<?>) misrouted.get("fallbackPartitions")).hasSize(6);
	}

	@Test
	void crossZoneReadsWithinTheGraceDoNotTurnTheStateToFallback() throws Exception {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-b", "test.misrouted=true",
				"follower-fetch.observation.fallback-grace=10m");
		consumeAll(context);
		context.getBean(Listeners.class).awaitReceived("misrouted", RECORDS);
		Map<String, Object> health = awaitHealth(context, "ACTIVE", 200,
				(details) -> reads(details, "misrouted", 0, 6));
		assertThat(listener(details(health), "misrouted")).doesNotContainKey("fallbackPartitions");
	}

	private ConfigurableApplicationContext start(String topic, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=health",
				"management.endpoint.health.show-details=always",
				"spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
				"spring.kafka.consumer.auto-offset-reset=earliest",
				"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
				"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
				"follower-fetch.observation.refresh-interval=200ms", "test.topic=" + topic,
				"test.group=" + UUID.randomUUID()));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return context;
	}

	@Test
	void aRefreshAsksTheBrokersOnlyWhatMayHaveChangedCountedByTheBrokers() {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-b",
				"follower-fetch.observation.refresh-interval=1h");
		consumeAll(context);
		ReadLocalityMonitor monitor = awaitAssignment(context, "zone-aware");
		Map<String, Long> before = BrokerRequests.count();
		for (int i = 0; i < 10; i++) {
			monitor.refresh();
		}
		Map<String, Long> during = BrokerRequests.since(before);
		assertThat(groupDescriptions(during)).as("groups described in 10 refreshes: %s", during).isZero();
		assertThat(during.get("DescribeConfigs"))
			.as("brokers asked for their configuration in 10 refreshes, az-b having one: %s", during)
			.isEqualTo(10);
		Map<String, Long> beforeRebalance = BrokerRequests.count();
		context.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("analytics").enforceRebalance();
		awaitRebalanced(context, monitor);
		assertThat(groupDescriptions(BrokerRequests.since(beforeRebalance)))
			.as("a group that chose the zone-aware assignor again, known without asking")
			.isZero();
		assertThat(monitor.snapshot().all()).allSatisfy(
				(consumer) -> assertThat(consumer.assignment()).isEqualTo("zone-aware"));
	}

	@Test
	void aGroupOnKafkasStrategyIsDescribedAgainOnlyAfterItRebalanced() {
		ConfigurableApplicationContext context = start("orders", "follower-fetch.rack=az-b",
				"follower-fetch.observation.refresh-interval=1h", "follower-fetch.assignment.enabled=false");
		consumeAll(context);
		ReadLocalityMonitor monitor = awaitAssignment(context, "range");
		Map<String, Long> before = BrokerRequests.count();
		for (int i = 0; i < 10; i++) {
			monitor.refresh();
		}
		assertThat(groupDescriptions(BrokerRequests.since(before))).as("10 refreshes without a rebalance").isZero();
		Map<String, Long> beforeRebalance = BrokerRequests.count();
		context.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("analytics").enforceRebalance();
		awaitRebalanced(context, monitor);
		await("the group described after its rebalance").atMost(TIMEOUT).until(() -> {
			monitor.refresh();
			return groupDescriptions(BrokerRequests.since(beforeRebalance)) > 0;
		});
		Map<String, Long> afterRebalance = BrokerRequests.count();
		for (int i = 0; i < 10; i++) {
			monitor.refresh();
		}
		assertThat(groupDescriptions(BrokerRequests.since(afterRebalance))).as("10 refreshes after that").isZero();
	}

	private static ReadLocalityMonitor awaitAssignment(ConfigurableApplicationContext context, String assignment) {
		ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
		await().atMost(TIMEOUT)
			.until(monitor::refresh, (snapshot) -> snapshot.listeners().size() == 2 && snapshot.all()
				.stream()
				.allMatch((consumer) -> assignment.equals(consumer.assignment()) && consumer.partitions() == 6));
		return monitor;
	}

	private static void awaitRebalanced(ConfigurableApplicationContext context, ReadLocalityMonitor monitor) {
		MessageListenerContainer analytics = context.getBean(KafkaListenerEndpointRegistry.class)
			.getListenerContainer("analytics");
		await("the analytics group rebalanced").atMost(TIMEOUT).until(() -> {
			monitor.refresh();
			return analytics.metrics()
				.values()
				.stream()
				.flatMap((metrics) -> metrics.entrySet().stream())
				.anyMatch((metric) -> metric.getKey().name().equals("rebalance-total")
						&& ((Number) metric.getValue().metricValue()).doubleValue() >= 2);
		});
	}

	private static long groupDescriptions(Map<String, Long> requests) {
		return requests.getOrDefault("DescribeGroups", 0L) + requests.getOrDefault("ConsumerGroupDescribe", 0L);
	}

	private static void consumeAll(ConfigurableApplicationContext context) {
		Listeners listeners = context.getBean(Listeners.class);
		listeners.awaitReceived("analytics", RECORDS);
		listeners.awaitReceived("payments", RECORDS);
	}

	private Map<String, Object> awaitHealth(ConfigurableApplicationContext context, String state, int httpStatus) {
		return awaitHealth(context, state, httpStatus, (details) -> true);
	}

	/**
	 * Wait for a health answer in the given state whose details also satisfy what the test
	 * asserts: a snapshot can be in the state before every partition has been read.
	 */
	private Map<String, Object> awaitHealth(ConfigurableApplicationContext context, String state, int httpStatus,
			Predicate<Map<String, Object>> details) {
		int port = BootApis.port(context);
		URI uri = URI.create("http://127.0.0.1:" + port + "/actuator/health/followerFetch");
		return await("followerFetch state " + state).atMost(TIMEOUT).until(() -> {
			HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(uri).build(),
					HttpResponse.BodyHandlers.ofString());
			Map<String, Object> health = JsonParserFactory.getJsonParser().parseMap(response.body());
			health.put("httpStatus", response.statusCode());
			return health;
		}, (health) -> state.equals(details(health).get("state")) && health.get("httpStatus").equals(httpStatus)
				&& details.test(details(health)));
	}

	private static boolean reads(Map<String, Object> details, String listenerId, int zoneLocal, int crossZone) {
		return HealthWatch.reads(listener(details, listenerId), zoneLocal, crossZone);
	}

	private static Map<String, Object> details(Map<String, Object> health) {
		return HealthWatch.details(health);
	}

	private static Map<String, Object> listener(Map<String, Object> details, String id) {
		return HealthWatch.listener(details, id);
	}

	private static double bytes(MeterRegistry registry, String listener, String zone) {
		return HealthWatch.bytes(registry, listener, "listener", zone);
	}

}
