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
import java.util.Map;

import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application's own {@code @SpringBootTest} on the three-zone cluster, the one
 * docs/testing.md quotes: the cluster wired in with {@code @DynamicPropertySource}, an
 * explicit rack, a short refresh, the wait for {@code ACTIVE}, and the application
 * stopped before the cluster ({@code @DirtiesContext}: the extension stops the cluster
 * after Spring's {@code afterAll}).
 *
 * @author follower-fetch authors
 */
@SpringBootTest(classes = OrdersApplicationEndToEndTests.OrdersApplication.class,
		properties = { "follower-fetch.rack=az-b", "follower-fetch.observation.refresh-interval=1s",
				"spring.kafka.consumer.auto-offset-reset=earliest" })
@DirtiesContext
class OrdersApplicationEndToEndTests {

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@DynamicPropertySource
	static void kafkaProperties(DynamicPropertyRegistry registry) {
		registry.add("spring.kafka.bootstrap-servers", () -> kafka.cluster().bootstrapServers());
	}

	@BeforeAll
	static void createTopic() {
		kafka.cluster().createTopicLedByEveryZone("orders", 6, 3);
		kafka.cluster().produce("orders", 600, 1024);
	}

	@Autowired
	@Qualifier("followerFetchHealthIndicator")
	private HealthIndicator followerFetch;

	@Test
	void theListenerReadsEveryPartitionInItsZone() {
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			Map<String, Object> details = this.followerFetch.health(true).getDetails();
			assertThat(details).containsEntry("state", "ACTIVE");
			assertThat(listener(details, "orders")).containsEntry("zoneLocalPartitions", 6)
				.containsEntry("crossZonePartitions", 0);
		});
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> listener(Map<String, Object> health, String id) {
		return (Map<String, Object>) ((Map<String, Object>) health.get("listeners")).get(id);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class OrdersApplication {

		@KafkaListener(id = "orders", topics = "orders")
		void onOrder(ConsumerRecord<String, String> order) {
		}

	}

}
