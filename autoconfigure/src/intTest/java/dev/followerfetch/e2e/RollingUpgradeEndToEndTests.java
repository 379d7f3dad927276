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
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.e2e.previous.PreviousZoneAwareAssignor;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rolling upgrade of an application's instances from the previous release of the
 * starter to this one, in a group with an instance that has no starter at all, while a
 * steady stream is read: two instances of the previous release (its zone-aware assignor
 * before range, then cooperative-sticky: eager) and one without the starter; each
 * previous-release instance is replaced by one of this release in turn (its zone-aware
 * assignor wrapping range, then cooperative-sticky: cooperative); at the end the instance
 * without the starter leaves. Whatever strategy Kafka's protocol selection picks in each
 * mix, every acknowledged record is read exactly once by the group, and once only this
 * release is left the zone-aware assignor leads it again.
 *
 * @author follower-fetch authors
 */
class RollingUpgradeEndToEndTests {

	private static final int RECORDS_PER_SECOND = 50;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@Test
	void everyRecordIsReadOnceWhileInstancesMoveFromThePreviousReleaseToThisOneBesideOneWithoutTheStarter()
			throws Exception {
		MultiZoneKafkaCluster cluster = kafka.cluster();
		cluster.createTopicLedByEveryZone("upgrade", 6, 3);
		String group = UUID.randomUUID().toString();
		List<ConfigurableApplicationContext> everyInstance = new ArrayList<>();
		// what each instance received, also once it has stopped
		List<Listeners> received = new ArrayList<>();
		Set<String> strategies = new LinkedHashSet<>();
		try (SteadyProducer producer = SteadyProducer.start(cluster.bootstrapServers(), "upgrade", RECORDS_PER_SECOND);
				Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
						cluster.bootstrapServers()))) {
			ConfigurableApplicationContext previousA = track(everyInstance, received, previousRelease("az-a", group));
			ConfigurableApplicationContext previousB = track(everyInstance, received, previousRelease("az-b", group));
			ConfigurableApplicationContext plain = track(everyInstance, received, withoutStarter(group));
			strategies.add(settle(admin, group, everyInstance, received));

			previousA.close();
			track(everyInstance, received, thisRelease("az-a", group));
			strategies.add(settle(admin, group, everyInstance, received));

			previousB.close();
			track(everyInstance, received, thisRelease("az-b", group));
			strategies.add(settle(admin, group, everyInstance, received));

			plain.close();
			String last = settle(admin, group, everyInstance, received);
			strategies.add(last);

			producer.stop();
			assertThat(producer.failures()).isEmpty();
			Set<String> produced = producer.acknowledged().keySet();
			for (String listener : List.of("analytics", "payments")) {
				await(listener + " of the group reads every acknowledged record").atMost(TIMEOUT)
					.until(() -> keys(received, listener).containsAll(produced));
				assertThat(keys(received, listener)).containsExactlyInAnyOrderElementsOf(produced);
				assertThat(received.stream().mapToInt((listeners) -> listeners.deliveries(listener)).sum())
					.as("%s deliveries: each record once", listener)
					.isEqualTo(produced.size());
			}
			System.out.printf("Rolling upgrade: %d records acknowledged, each read once by each listener's group; "
					+ "strategies selected in turn: %s%n", produced.size(), strategies);
			assertThat(last).isEqualTo(ZoneAwareAssignor.NAME);
		}
		finally {
			everyInstance.forEach(ConfigurableApplicationContext::close);
		}
	}

	/**
	 * Wait until every partition is assigned once over the running instances and records
	 * keep coming, and return the strategy the group selected.
	 */
	private static String settle(Admin admin, String group, List<ConfigurableApplicationContext> instances,
			List<Listeners> received) throws Exception {
		for (String listener : List.of("analytics", "payments")) {
			await(listener + " assigned every partition once").atMost(TIMEOUT).until(() -> {
				List<Integer> assigned = new ArrayList<>();
				instances.stream()
					.filter(ConfigurableApplicationContext::isActive)
					.forEach((context) -> context.getBean(KafkaListenerEndpointRegistry.class)
						.getListenerContainer(listener)
						.getAssignedPartitions()
						.forEach((tp) -> assigned.add(tp.partition())));
				return assigned.size() == 6 && new HashSet<>(assigned).size() == 6;
			});
			int before = keys(received, listener).size();
			await(listener + " keeps reading").atMost(TIMEOUT)
				.until(() -> keys(received, listener).size() >= before + RECORDS_PER_SECOND);
		}
		ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group + "-analytics"))
			.describedGroups()
			.get(group + "-analytics")
			.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		return description.partitionAssignor();
	}

	private static Set<String> keys(List<Listeners> received, String listener) {
		Set<String> keys = new HashSet<>();
		received.forEach((listeners) -> keys.addAll(listeners.keys(listener).keySet()));
		return keys;
	}

	private static ConfigurableApplicationContext track(List<ConfigurableApplicationContext> instances,
			List<Listeners> received, ConfigurableApplicationContext instance) {
		instances.add(instance);
		received.add(instance.getBean(Listeners.class));
		return instance;
	}

	private static ConfigurableApplicationContext thisRelease(String zone, String group) {
		return start(group, "follower-fetch.rack=" + zone);
	}

	/**
	 * An instance of the previous release, as its consumers were configured: its
	 * zone-aware assignor before Kafka's default list, the zone, {@code client.rack}.
	 */
	private static ConfigurableApplicationContext previousRelease(String zone, String group) {
		return start(group, "follower-fetch.enabled=false", "spring.kafka.consumer.properties.client.rack=" + zone,
				"spring.kafka.consumer.properties." + ZoneAwareAssignor.ZONE_CONFIG + "=" + zone,
				"spring.kafka.consumer.properties.partition.assignment.strategy="
						+ PreviousZoneAwareAssignor.class.getName() + "," + RangeAssignor.class.getName() + ","
						+ CooperativeStickyAssignor.class.getName());
	}

	private static ConfigurableApplicationContext withoutStarter(String group) {
		return start(group, "follower-fetch.enabled=false");
	}

	private static ConfigurableApplicationContext start(String group, String... properties) {
		return new SpringApplicationBuilder(HealthApplication.class).web(WebApplicationType.NONE)
			.properties(properties)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.observation.refresh-interval=500ms", "test.topic=upgrade", "test.group=" + group)
			.run();
	}

}
