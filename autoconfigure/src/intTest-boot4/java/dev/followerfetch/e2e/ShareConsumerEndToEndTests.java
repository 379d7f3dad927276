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
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.server.common.ShareVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ShareKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultShareConsumerFactory;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A share group (KIP-932) beside a classic listener, on a real three-zone cluster: the
 * share consumer reads every partition from its leader, and the health lists it under
 * {@code shareConsumers} with its bytes split in and out of the zone as its own per-broker
 * metrics say, while the state stays {@code ACTIVE}. Share groups are generally available
 * from Kafka 4.2; on 4.1 they are a preview, enabled here by moving the cluster to the
 * first metadata version that has them ({@code share.version=1} needs 4.2-IV0, an unstable
 * version there).
 *
 * @author follower-fetch authors
 */
class ShareConsumerEndToEndTests {

	private static final String SHARED = "work";

	private static final String LEDGER = "ledger";

	private static final String SHARE_GROUP = "workers";

	private static final int RECORDS = 600;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	/**
	 * Whether this Kafka line's brokers run share groups at their production metadata
	 * version, without unstable versions.
	 */
	private static final boolean SHARE_GROUPS_GA = MetadataVersion.latestProduction()
		.isAtLeast(ShareVersion.SV_1.bootstrapMetadataVersion());

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = withShareGroups(
			MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c"));

	private static ConfigurableApplicationContext context;

	private static MultiZoneKafkaExtension withShareGroups(MultiZoneKafkaExtension extension) {
		return SHARE_GROUPS_GA ? extension
				: extension.withBrokerProperty("unstable.api.versions.enable", "true")
					.withBrokerProperty("unstable.feature.versions.enable", "true");
	}

	@BeforeAll
	static void start() throws Exception {
		try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.cluster().bootstrapServers()))) {
			enableShareGroups(admin);
			admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, SHARE_GROUP),
					List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
							AlterConfigOp.OpType.SET))))
				.all()
				.get();
		}
		kafka.cluster().createTopicLedByEveryZone(SHARED, 3, 3);
		kafka.cluster().createTopicLedByEveryZone(LEDGER, 3, 3);
		kafka.cluster().produce(SHARED, RECORDS, 1024);
		kafka.cluster().produce(LEDGER, RECORDS, 1024);
		context = new SpringApplicationBuilder(ShareApplication.class)
			.properties("server.port=0", "server.address=127.0.0.1",
					"management.endpoints.web.exposure.include=health",
					"management.endpoint.health.show-details=always",
					"spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=az-b", "follower-fetch.observation.refresh-interval=200ms")
			.run();
	}

	/**
	 * On a line where share groups are a preview, move the metadata version to the one
	 * {@code share.version=1} needs, then turn the feature on; on the others it is on
	 * already at the production metadata version.
	 */
	private static void enableShareGroups(Admin admin) throws Exception {
		FinalizedVersionRange share = admin.describeFeatures()
			.featureMetadata()
			.get()
			.finalizedFeatures()
			.get(ShareVersion.FEATURE_NAME);
		System.out.println("share groups: Kafka line " + (SHARE_GROUPS_GA ? "GA" : "preview") + ", share.version "
				+ ((share != null) ? share.maxVersionLevel() : 0) + " at start, metadata version "
				+ MetadataVersion.latestProduction());
		if (share != null && share.maxVersionLevel() >= 1) {
			return;
		}
		if (!SHARE_GROUPS_GA) {
			MetadataVersion needed = ShareVersion.SV_1.bootstrapMetadataVersion();
			admin.updateFeatures(Map.of(MetadataVersion.FEATURE_NAME,
					new FeatureUpdate(needed.featureLevel(), FeatureUpdate.UpgradeType.UPGRADE)),
					new UpdateFeaturesOptions())
				.all()
				.get();
		}
		admin.updateFeatures(Map.of(ShareVersion.FEATURE_NAME,
				new FeatureUpdate(ShareVersion.SV_1.featureLevel(), FeatureUpdate.UpgradeType.UPGRADE)),
				new UpdateFeaturesOptions())
			.all()
			.get();
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	@Test
	void aShareListenerIsListedAsLeaderOnlyWithItsBytesInAndOutOfTheZoneAndTheStateStaysActive() throws Exception {
		ShareApplication application = context.getBean(ShareApplication.class);
		await().atMost(TIMEOUT).until(() -> application.shared.get() >= RECORDS && application.ledger.get() >= RECORDS);
		MessageListenerContainer container = context.getBean(KafkaListenerEndpointRegistry.class)
			.getListenerContainer("share-work");
		assertThat(container).isNotNull();
		ConsumerReadStats atEnd = ConsumerReadStats.ofClients(container.metrics());
		String clientId = container.metrics().keySet().iterator().next();
		Map<String, Object> details = awaitHealth((health) -> {
			assertThat(health).containsEntry("state", "ACTIVE");
			Map<String, Object> share = section(health, "shareConsumers", clientId);
			assertThat(((Number) share.get("localBytes")).longValue() + ((Number) share.get("remoteBytes")).longValue())
				.isGreaterThanOrEqualTo(atEnd.totalBytes());
			assertThat(section(health, "listeners", "ledger")).containsEntry("zoneLocalPartitions", 3);
			// a share consumer looked for before it joined its group is looked for again at the next refresh
			assertThat(share).containsEntry("partitions", 3);
		});
		ConsumerReadStats now = ConsumerReadStats.ofClients(container.metrics());
		Map<String, Long> atEndByZone = atEnd.bytesByZone(kafka.cluster()::rackOf);
		Map<String, Long> nowByZone = now.bytesByZone(kafka.cluster()::rackOf);
		Map<String, Object> share = section(details, "shareConsumers", clientId);
		long local = ((Number) share.get("localBytes")).longValue();
		long remote = ((Number) share.get("remoteBytes")).longValue();
		System.out.println("share consumer " + clientId + ": health " + share + "; its own per-broker bytes by zone "
				+ atEndByZone + " after the records, " + nowByZone + " after the health answer");
		assertThat(share).containsEntry("shareGroup", SHARE_GROUP)
			.containsEntry("policy", "FRESHNESS")
			.containsEntry("partitions", 3)
			.containsEntry("zoneLocalPartitions", 1)
			.containsEntry("zoneLocalLeaderPartitions", 1)
			.containsEntry("crossZonePartitions", 2)
			.containsEntry("note", "share groups fetch from the leaders: KIP-932 has no follower fetching")
			.doesNotContainKeys("uncoveredPartitions", "fallbackPartitions");
		assertThat(local).isBetween(atEndByZone.getOrDefault("az-b", 0L), nowByZone.getOrDefault("az-b", 0L));
		long remoteAtEnd = atEnd.totalBytes() - atEndByZone.getOrDefault("az-b", 0L);
		long remoteNow = now.totalBytes() - nowByZone.getOrDefault("az-b", 0L);
		assertThat(remote).isBetween(remoteAtEnd, remoteNow);
		assertThat(local).isGreaterThan(RECORDS * 1024 / 3 / 2);
		assertThat(remote).isGreaterThan(RECORDS * 1024 * 2 / 3 / 2);
		assertThat(details).doesNotContainKey("otherConsumers");
		assertThat(((Map<?, ?>) details.get("listeners")).keySet()).isEqualTo(java.util.Set.of("ledger"));
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		await().atMost(TIMEOUT).untilAsserted(() -> {
			assertThat(registry.get("follower.fetch.bytes")
				.tags("listener", clientId, "kind", "share", "policy", "freshness", "zone", "remote")
				.functionCounter()
				.count()).isGreaterThan(RECORDS * 1024 * 2 / 3 / 2);
			assertThat(registry.get("follower.fetch.partitions")
				.tags("listener", clientId, "kind", "share", "zone", "local", "replica", "leader")
				.gauge()
				.value()).isEqualTo(1);
		});
		assertThat(registry.get("follower.fetch.state").tags("state", "ACTIVE").gauge().value()).isEqualTo(1);
	}

	private static Map<String, Object> awaitHealth(java.util.function.Consumer<Map<String, Object>> assertions) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		URI uri = URI.create("http://127.0.0.1:" + port + "/actuator/health/followerFetch");
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		return Readings.awaitReading(await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)), () -> {
			HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(),
					HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			return details(JsonParserFactory.getJsonParser().parseMap(response.body()));
		}, assertions);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> details(Map<String, Object> health) {
		return (Map<String, Object>) health.get("details");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> section(Map<String, Object> details, String section, String name) {
		Map<String, Object> entries = (Map<String, Object>) details.getOrDefault(section, Map.of());
		assertThat(entries).as("%s in %s", name, section).containsKey(name);
		return (Map<String, Object>) entries.get(name);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ShareApplication {

		final AtomicInteger shared = new AtomicInteger();

		final AtomicInteger ledger = new AtomicInteger();

		@Bean
		static ShareKafkaListenerContainerFactory<byte[], byte[]> shareContainerFactory(KafkaProperties properties) {
			Map<String, Object> config = Map.of("bootstrap.servers", properties.getBootstrapServers(),
					"key.deserializer", ByteArrayDeserializer.class, "value.deserializer", ByteArrayDeserializer.class);
			return new ShareKafkaListenerContainerFactory<>(new DefaultShareConsumerFactory<>(config));
		}

		@KafkaListener(id = "share-work", topics = SHARED, groupId = SHARE_GROUP,
				containerFactory = "shareContainerFactory")
		void work(ConsumerRecord<byte[], byte[]> record) {
			this.shared.incrementAndGet();
		}

		@KafkaListener(id = "ledger", topics = LEDGER, groupId = "ledger-readers")
		void ledger(ConsumerRecord<byte[], byte[]> record) {
			this.ledger.incrementAndGet();
		}

	}

}
