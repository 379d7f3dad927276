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
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import dev.followerfetch.BootApis;
import dev.followerfetch.application.BinderBindings;
import dev.followerfetch.application.BinderClientRackConfiguration;
import dev.followerfetch.policy.ZoneRoutingBrokers;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.cloud.stream.function.StreamBridge;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Spring Cloud Stream application (Kafka binder, functional consumers) on a real
 * three-zone cluster, playing a process in zone {@code az-b}: its bindings read where their
 * policy says, as the Kafka client itself reports it (preferred read replica per
 * partition, bytes per broker), and the health lists each binding.
 *
 * @author follower-fetch authors
 */
class SpringCloudStreamEndToEndTests {

	private static final String ZONE = "az-b";

	private static final int RECORDS = 300;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	private static Map<Integer, List<Integer>> replicas;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private final HttpClient http = HttpClient.newHttpClient();

	@BeforeAll
	static void createTopic() {
		replicas = kafka.cluster().createTopicLedByEveryZone("orders", 6, 3);
		kafka.cluster().produce("orders", RECORDS, 1024);
	}

	@AfterEach
	void closeContexts() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void eachBindingReadsWhereItsPolicySaysAndTheHealthListsIt() throws Exception {
		String group = UUID.randomUUID().toString();
		ConfigurableApplicationContext context = start(group, "follower-fetch.policy.bindings.audit-in-0=freshness",
				"spring.cloud.stream.kafka.binder.brokers=" + kafka.cluster().bootstrapServers());
		StreamApplication.Received received = context.getBean(StreamApplication.Received.class);
		received.awaitReceived("process-in-0", RECORDS);
		received.awaitReceived("audit-in-0", RECORDS);

		assertThat(received.customized).as("bindings the user's ConsumerConfigCustomizer saw")
			.containsExactlyInAnyOrder("process-in-0", "audit-in-0");
		assertThat(received.factories.get(group + "-process").getConfigurationProperties())
			.containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, StreamApplication.USER_MAX_POLL_RECORDS)
			.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, ZONE);
		assertThat(received.factories.get(group + "-audit").getConfigurationProperties())
			.containsEntry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, StreamApplication.USER_MAX_POLL_RECORDS)
			.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "");

		assertReadsFromZone(awaitEveryPartitionRead(() -> received.readStats(group + "-process")));
		assertReadsFromLeaders(awaitEveryPartitionRead(() -> received.readStats(group + "-audit")));

		awaitHealth(context, (details) -> {
			assertThat(details).containsEntry("state", "ACTIVE");
			assertThat(binding(details, "process-in-0")).containsEntry("policy", "LOCALITY")
				.containsEntry("partitions", 6)
				.containsEntry("zoneLocalPartitions", 6)
				.containsEntry("crossZonePartitions", 0)
				.hasEntrySatisfying("localBytes", (bytes) -> assertThat(((Number) bytes).longValue()).isPositive());
			assertThat(binding(details, "audit-in-0")).containsEntry("policy", "FRESHNESS")
				.containsEntry("zoneLocalPartitions", 2)
				.containsEntry("crossZonePartitions", 4);
		});
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		// the meters of a binding are registered after the first snapshot that has it
		await("binding meters").atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(bytes(registry, "process-in-0", "local")).isPositive();
			assertThat(bytes(registry, "process-in-0", "remote"))
				.isLessThan(0.01 * bytes(registry, "process-in-0", "local"));
			assertThat(bytes(registry, "audit-in-0", "remote")).isPositive();
		});
	}

	@Test
	void anApplicationWithOneFunctionAndNoDefinitionKeepsItsBindingAndReadsInZone() {
		String group = UUID.randomUUID().toString();
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SingleFunctionApplication.class)
			.web(WebApplicationType.NONE)
			.properties("follower-fetch.rack=" + ZONE,
					"spring.cloud.stream.kafka.binder.brokers=" + kafka.cluster().bootstrapServers(),
					"spring.cloud.stream.kafka.binder.auto-create-topics=false",
					"spring.cloud.stream.bindings.ledger-in-0.destination=orders",
					"spring.cloud.stream.bindings.ledger-in-0.group=" + group,
					"spring.cloud.stream.bindings.ledger-in-0.content-type=text/plain")
			.run();
		this.contexts.add(context);
		assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition")).isEqualTo("ledger");
		AtomicInteger received = context.getBean(SingleFunctionApplication.class).received;
		await("the ledger binding's records").atMost(TIMEOUT).until(received::get, (count) -> count >= RECORDS);
		BinderBindings bindings = context.getBean(BinderBindings.class);
		assertReadsFromZone(awaitEveryPartitionRead(() -> readStats(bindings, "ledger-in-0")));
	}

	@Test
	void withAClientIdZoneABindingsConsumersSendTheTagAndTheHealthStillListsTheBinding() throws Exception {
		String group = UUID.randomUUID().toString();
		ConfigurableApplicationContext context = start(group, "follower-fetch.client-id-zone=inkless",
				"spring.cloud.stream.kafka.binder.brokers=" + kafka.cluster().bootstrapServers());
		context.getBean(StreamApplication.Received.class).awaitReceived("process-in-0", RECORDS);
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
				kafka.cluster().bootstrapServers()))) {
			List<String> clientIds = admin.describeConsumerGroups(List.of(group + "-process"))
				.all()
				.get(30, TimeUnit.SECONDS)
				.get(group + "-process")
				.members()
				.stream()
				.map(MemberDescription::clientId)
				.toList();
			System.out.println("binding process-in-0 sends client ids " + clientIds);
			assertThat(clientIds).isNotEmpty()
				.allSatisfy((clientId) -> assertThat(clientId).startsWith("diskless_az=" + ZONE + ",process-in-0"))
				.allSatisfy((clientId) -> assertThat(ZoneRoutingBrokers.inkless(clientId)).contains(ZONE));
		}
		awaitHealth(context, (details) -> {
			assertThat(details).containsEntry("state", "ACTIVE");
			assertThat(binding(details, "process-in-0")).containsEntry("zoneLocalPartitions", 6);
		});
		assertThat(context.getBean(StreamBridge.class).send("orders", "tagged")).isTrue();
		Set<String> producers = JmxClientIds.producers();
		System.out.println("producer client ids in JMX: " + producers);
		assertThat(producers).contains("diskless_az=" + ZONE + ",orders-1");
	}

	@Test
	void aBinderInAContextOfItsOwnGetsItsPoliciesFromTheApplicationsCustomizerEvenWithoutTheRecipe() {
		String group = UUID.randomUUID().toString();
		String binder = "spring.cloud.stream.binders.zonal.environment.";
		ConfigurableApplicationContext context = start(group, "spring.cloud.stream.binders.zonal.type=kafka",
				binder + "spring.cloud.stream.kafka.binder.brokers=" + kafka.cluster().bootstrapServers(),
				"spring.cloud.stream.default-binder=zonal", "follower-fetch.policy.bindings.audit-in-0=freshness");
		assertThat(context.getBean(BinderBindings.class).all()).extracting((binding) -> binding.policy().toString())
			.containsExactlyInAnyOrder("process-in-0=LOCALITY (default)", "audit-in-0=FRESHNESS (property)");
	}

	@Test
	void aBinderInAContextOfItsOwnGetsTheRackAndIsObservedWithTheRecipe() throws Exception {
		String group = UUID.randomUUID().toString();
		String binder = "spring.cloud.stream.binders.zonal.environment.";
		ConfigurableApplicationContext context = start(group, "spring.cloud.stream.binders.zonal.type=kafka",
				binder + "spring.cloud.stream.kafka.binder.brokers=" + kafka.cluster().bootstrapServers(),
				binder + "spring.main.sources=" + BinderClientRackConfiguration.class.getName(),
				"spring.cloud.stream.default-binder=zonal", "follower-fetch.policy.bindings.audit-in-0=freshness");
		StreamApplication.Received received = context.getBean(StreamApplication.Received.class);
		received.awaitReceived("process-in-0", RECORDS);
		received.awaitReceived("audit-in-0", RECORDS);
		BinderBindings bindings = context.getBean(BinderBindings.class);
		assertReadsFromZone(awaitEveryPartitionRead(() -> readStats(bindings, "process-in-0")));
		assertReadsFromLeaders(awaitEveryPartitionRead(() -> readStats(bindings, "audit-in-0")));
		awaitHealth(context, (details) -> {
			assertThat(details).containsEntry("state", "ACTIVE");
			assertThat(binding(details, "process-in-0")).containsEntry("zoneLocalPartitions", 6)
				.containsEntry("crossZonePartitions", 0);
			assertThat(binding(details, "audit-in-0")).containsEntry("zoneLocalPartitions", 2)
				.containsEntry("crossZonePartitions", 4);
		});
	}

	private ConfigurableApplicationContext start(String group, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
				"management.endpoints.web.exposure.include=health", "management.endpoint.health.show-details=always",
				"follower-fetch.rack=" + ZONE, "follower-fetch.observation.refresh-interval=200ms",
				"spring.cloud.function.definition=process;audit",
				"spring.cloud.stream.bindings.process-in-0.destination=orders",
				"spring.cloud.stream.bindings.process-in-0.group=" + group + "-process",
				"spring.cloud.stream.bindings.process-in-0.content-type=text/plain",
				"spring.cloud.stream.bindings.audit-in-0.destination=orders",
				"spring.cloud.stream.bindings.audit-in-0.group=" + group + "-audit",
				"spring.cloud.stream.bindings.audit-in-0.content-type=text/plain",
				"spring.cloud.stream.kafka.binder.auto-create-topics=false"));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(StreamApplication.class)
			.properties(all.toArray(String[]::new))
			.run();
		this.contexts.add(context);
		return context;
	}

	/**
	 * Where a binding's consumers read from, as their own metrics say: the metrics of the
	 * consumers the binding's consumer factory has open.
	 */
	private static ConsumerReadStats readStats(BinderBindings bindings, String name) {
		return ConsumerReadStats.ofClients(bindings.all()
			.stream()
			.filter((binding) -> binding.name().equals(name))
			.findFirst()
			.orElseThrow()
			.consumers());
	}

	private static ConsumerReadStats awaitEveryPartitionRead(Supplier<ConsumerReadStats> stats) {
		return await("a read replica reported for every partition").atMost(TIMEOUT)
			.until(stats::get, (read) -> read.preferredReadReplicas().size() >= 6);
	}

	private static void assertReadsFromZone(ConsumerReadStats stats) {
		int local = kafka.cluster().brokerId(ZONE);
		replicas.forEach((partition, assigned) -> assertThat(
				stats.preferredReadReplicas().get(new TopicPartition("orders", partition)))
			.as("read replica of partition %d (leader %d)", partition, assigned.get(0))
			.isEqualTo((assigned.get(0) == local) ? ConsumerReadStats.LEADER : local));
		assertThat(stats.fractionOfBytesFrom(ZONE, rackOf())).as("bytes from %s: %s", ZONE, stats.bytesByBroker())
			.isGreaterThanOrEqualTo(0.99);
	}

	private static void assertReadsFromLeaders(ConsumerReadStats stats) {
		assertThat(stats.preferredReadReplicas()).hasSize(6)
			.allSatisfy((partition, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER));
		assertThat(stats.fractionOfBytesFrom(ZONE, rackOf())).as("bytes from %s: %s", ZONE, stats.bytesByBroker())
			.isBetween(0.2, 0.5);
	}

	private static IntFunction<String> rackOf() {
		return kafka.cluster()::rackOf;
	}

	/**
	 * Wait for a health answer whose details pass every assertion, all in that one answer:
	 * the health is the last snapshot, which may predate part of what the bindings' clients
	 * report now.
	 */
	private Map<String, Object> awaitHealth(ConfigurableApplicationContext context,
			Consumer<Map<String, Object>> details) {
		int port = BootApis.port(context);
		URI uri = URI.create("http://127.0.0.1:" + port + "/actuator/health/followerFetch");
		return Readings.awaitReading(await("followerFetch health lists the bindings").atMost(TIMEOUT), () -> {
			HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(uri).build(),
					HttpResponse.BodyHandlers.ofString());
			return details(JsonParserFactory.getJsonParser().parseMap(response.body()));
		}, (answer) -> {
			assertThat(answer.get("bindings")).isInstanceOf(Map.class);
			details.accept(answer);
		});
	}

	private static Map<String, Object> details(Map<String, Object> health) {
		return HealthWatch.details(health);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> binding(Map<String, Object> details, String name) {
		return (Map<String, Object>) ((Map<String, Object>) details.get("bindings")).get(name);
	}

	private static double bytes(MeterRegistry registry, String binding, String zone) {
		return HealthWatch.bytes(registry, binding, "binding", zone);
	}


	/**
	 * An application whose one function is found without
	 * {@code spring.cloud.function.definition}.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class SingleFunctionApplication {

		final AtomicInteger received = new AtomicInteger();

		@Bean
		java.util.function.Consumer<String> ledger() {
			return (payload) -> this.received.incrementAndGet();
		}

	}

}
