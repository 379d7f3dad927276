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

import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignor.Leadership;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two applications in one JVM whose listeners have the same client id, each in a group of
 * its own, on a real three-zone cluster: each application's registry of zone-aware
 * assignors, and the monitor that reads it, sees its own consumer's group and nothing of
 * the other's. The second group has a member without the starter, which only offers
 * Kafka's range assignor.
 *
 * @author follower-fetch authors
 */
class SharedClientIdsEndToEndTests {

	private static final String TOPIC = "shared-client-ids";

	private static final String CLIENT_ID = "shared-0";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@Test
	void eachApplicationSeesOnlyItsOwnConsumersGroupThoughTheirClientIdsAreTheSame() throws Exception {
		kafka.cluster().createTopicLedByEveryZone(TOPIC, 6, 3);
		try (ConfigurableApplicationContext first = start("first", "az-a");
				ConfigurableApplicationContext second = start("second", "az-b",
						"spring.kafka.consumer.properties.partition.assignment.strategy=" + RangeAssignor.class.getName());
				KafkaConsumer<byte[], byte[]> plain = plain("second");
				Admin admin = Admin.create(
						Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers()))) {
			ZoneAwareAssignors firsts = first.getBean(ZoneAwareAssignors.class);
			ZoneAwareAssignors seconds = second.getBean(ZoneAwareAssignors.class);
			assertThat(firsts).isNotSameAs(seconds);
			await("the first group on the zone-aware assignor, the second on range").atMost(TIMEOUT)
				.untilAsserted(() -> {
					plain.poll(Duration.ofMillis(100));
					assertThat(plain.assignment()).isNotEmpty();
					assertThat(admin.describeConsumerGroups(List.of("first", "second")).all().get())
						.hasEntrySatisfying("first",
								(group) -> assertThat(group.partitionAssignor()).isEqualTo(ZoneAwareAssignor.NAME))
						.hasEntrySatisfying("second",
								(group) -> assertThat(group.partitionAssignor()).isEqualTo("range"));
					assertThat(firsts.chosen(CLIENT_ID)).contains(true);
					assertThat(seconds.chosen(CLIENT_ID)).contains(false);
					assertThat(firsts.leaderships()).containsOnlyKeys(CLIENT_ID);
					assertThat(first.getBean(ReadLocalityMonitor.class).assignmentFallbackGroups())
						.containsExactly("first");
				});
			assertThat(firsts.leaderships().get(CLIENT_ID).groupId()).isEqualTo("first");
			assertThat(seconds.leaderships().values()).extracting(Leadership::groupId).doesNotContain("first");
			assertThat(second.getBean(ReadLocalityMonitor.class).assignmentFallbackGroups()).doesNotContain("first");
		}
	}

	private static ConfigurableApplicationContext start(String group, String zone, String... extra) {
		return new SpringApplicationBuilder(OrdersApplication.class).web(WebApplicationType.NONE)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.client-id=shared", "spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=" + zone, "follower-fetch.observation.refresh-interval=500ms",
					"follower-fetch.observation.other-consumers=false", "test.topic=" + TOPIC, "test.group=" + group)
			.properties(extra)
			.run();
	}

	private static KafkaConsumer<byte[], byte[]> plain(String group) {
		KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
				kafka.cluster().bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, group,
				ConsumerConfig.CLIENT_ID_CONFIG, "plain", ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
				RangeAssignor.class.getName(), ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
				ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
		consumer.subscribe(List.of(TOPIC));
		return consumer;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class OrdersApplication {

		@Bean
		OrdersListener ordersListener() {
			return new OrdersListener();
		}

	}

	static class OrdersListener {

		@KafkaListener(id = "orders", groupId = "${test.group}", topics = "${test.topic}")
		void orders(byte[] record) {
		}

	}

}
