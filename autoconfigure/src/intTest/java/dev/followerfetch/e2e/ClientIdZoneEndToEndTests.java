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
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import dev.followerfetch.BootApis;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ZoneRoutingBrokers;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code follower-fetch.client-id-zone=warpstream} on a real three-zone cluster: the
 * client id every client sends, as the group coordinator and the clients' own metrics
 * report it, carries the zone where a WarpStream agent reads it, and the health still
 * recognises every consumer. No WarpStream agent runs here: what is proven is the
 * client id, not WarpStream's routing.
 *
 * @author follower-fetch authors
 */
class ClientIdZoneEndToEndTests {

	private static final String TOPIC = "orders";

	private static final int RECORDS = 600;

	private static final Duration TIMEOUT = Duration.ofSeconds(45);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	private static ConfigurableApplicationContext context;

	@BeforeAll
	static void start() {
		kafka.cluster().createTopicLedByEveryZone(TOPIC, 6, 3);
		kafka.cluster().produce(TOPIC, RECORDS, 512);
		context = new SpringApplicationBuilder(TaggedApplication.class).web(WebApplicationType.NONE)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=az-b", "follower-fetch.client-id-zone=warpstream",
					"follower-fetch.observation.refresh-interval=200ms",
					"follower-fetch.policy.consumers.ledger-leaders=freshness")
			.run();
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void everyConsumerSendsTheZoneTagFirstAndTheHealthStillRecognisesEachOne() throws Exception {
		await().atMost(TIMEOUT).until(() -> context.getBean(TaggedApplication.class).read.get() >= RECORDS * 2);
		Map<String, Object> config = BootApis.consumerProperties(context);
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "export");
		context.getBean(ClientRackDecider.class).configure(ConsumerKind.OTHER, "ledger-export", config);
		Map<String, Object> plainConfig = BootApis.consumerProperties(context);
		plainConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "leaders");
		plainConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "warpstream_az=az-b,ledger-leaders");
		try (KafkaConsumer<byte[], byte[]> export = new KafkaConsumer<>(config);
				KafkaConsumer<byte[], byte[]> plain = new KafkaConsumer<>(plainConfig);
				Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
						kafka.cluster().bootstrapServers()))) {
			export.subscribe(List.of(TOPIC));
			plain.subscribe(List.of(TOPIC));
			int[] read = { 0, 0 };
			await().atMost(TIMEOUT).until(() -> {
				read[0] += export.poll(Duration.ofMillis(100)).count();
				read[1] += plain.poll(Duration.ofMillis(100)).count();
				return read[0] >= RECORDS && read[1] >= RECORDS;
			});
			Map<String, Set<String>> sent = clientIds(admin, "orders", "audit", "export");
			System.out.println("client ids the group coordinator reports: " + sent);
			assertThat(sent).containsEntry("orders", Set.of("warpstream_az=az-b,orders-0", "warpstream_az=az-b,orders-1"))
				.containsEntry("audit", Set.of("warpstream_az=az-b,audit-trail-0"))
				.containsEntry("export", Set.of("warpstream_az=az-b,ledger-export"));
			sent.values()
				.stream()
				.flatMap(Set::stream)
				.forEach((clientId) -> assertThat(ZoneRoutingBrokers.warpstream(clientId)).as(clientId).contains("az-b"));
			BootApis.HealthReading health = awaitHealth(export, plain);
			assertThat(listener(health, "orders")).containsEntry("policy", "LOCALITY")
				.containsEntry("partitions", 6)
				.containsEntry("zoneLocalPartitions", 6);
			assertThat(listener(health, "audit")).containsEntry("zoneLocalPartitions", 6);
			assertThat(otherConsumers(health)).containsOnlyKeys("warpstream_az=az-b,ledger-export",
					"warpstream_az=az-b,ledger-leaders");
			assertThat(otherConsumers(health).get("warpstream_az=az-b,ledger-leaders"))
				.as("a consumer the application tagged itself, named by its policy property without the tag")
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("declared", false)
				.containsEntry("policy", "FRESHNESS")
				.containsEntry("origin", "PROPERTY");
			assertThat(otherConsumers(health).get("warpstream_az=az-b,ledger-export"))
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("declared", true)
				.containsEntry("configuredAs", "ledger-export")
				.containsEntry("zoneLocalPartitions", 6);
		}
		assertThat(JmxClientIds.adminClients()).as("the health monitor's admin client")
			.contains("warpstream_az=az-b,follower-fetch-monitor");
	}

	@Test
	void theProducerSendsTheTagBeforeSpringKafkasPrefixAndCounter() throws Exception {
		KafkaTemplate<?, ?> template = context.getBean(KafkaTemplate.class);
		template.send(TOPIC, null).get(30, TimeUnit.SECONDS);
		Set<String> clientIds = template.metrics()
			.keySet()
			.stream()
			.map((name) -> name.tags().get("client-id"))
			.filter((id) -> id != null)
			.collect(Collectors.toSet());
		assertThat(clientIds).containsExactly("warpstream_az=az-b,producer-1");
		assertThat(ZoneRoutingBrokers.warpstream(clientIds.iterator().next())).contains("az-b");
	}

	private static Map<String, Set<String>> clientIds(Admin admin, String... groups) throws Exception {
		return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).until(() -> {
			Map<String, ConsumerGroupDescription> described = admin.describeConsumerGroups(List.of(groups))
				.all()
				.get(10, TimeUnit.SECONDS);
			return described.entrySet()
				.stream()
				.collect(Collectors.toMap(Map.Entry::getKey, (entry) -> entry.getValue()
					.members()
					.stream()
					.map(MemberDescription::clientId)
					.collect(Collectors.toSet())));
		}, (ids) -> ids.get("orders").size() == 2 && ids.get("audit").size() == 1 && ids.get("export").size() == 1);
	}

	@SafeVarargs
	private static BootApis.HealthReading awaitHealth(KafkaConsumer<byte[], byte[]>... keptPolling) {
		return Readings.awaitReading(await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)), () -> {
			// a partition counts once a fetch answer brought it records, also for its owner after a late rebalance
			kafka.cluster().produce(TOPIC, 6, 64);
			for (KafkaConsumer<byte[], byte[]> consumer : keptPolling) {
				consumer.poll(Duration.ofMillis(10));
			}
			return BootApis.health(context);
		}, (health) -> {
			assertThat(health.details()).containsEntry("state", "ACTIVE");
			assertThat(otherConsumers(health)).containsKeys("warpstream_az=az-b,ledger-export",
					"warpstream_az=az-b,ledger-leaders");
			assertThat(listener(health, "orders")).containsEntry("zoneLocalPartitions", 6);
			assertThat(otherConsumers(health).get("warpstream_az=az-b,ledger-export"))
				.asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsEntry("zoneLocalPartitions", 6);
		});
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> listener(BootApis.HealthReading health, String id) {
		return (Map<String, Object>) ((Map<String, Object>) health.details().get("listeners")).get(id);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> otherConsumers(BootApis.HealthReading health) {
		return (Map<String, Object>) health.details().getOrDefault("otherConsumers", Map.of());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TaggedApplication {

		final AtomicInteger read = new AtomicInteger();

		@KafkaListener(id = "orders", topics = TOPIC, concurrency = "2")
		void orders(byte[] value) {
			this.read.incrementAndGet();
		}

		@KafkaListener(id = "audit", clientIdPrefix = "audit-trail", topics = TOPIC)
		void audit(byte[] value) {
			this.read.incrementAndGet();
		}

	}

}
