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

import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafka;
import dev.followerfetch.test.ZonedKafkaCluster;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application's own {@code @SpringBootTest} on the three-zone cluster, the one
 * docs/testing.md quotes: the cluster and its topic from {@code @MultiZoneKafka}, an
 * explicit rack, a short refresh, and the wait for what the listener's Kafka consumer
 * reports and for the starter's {@code ACTIVE} state; {@code @DirtiesContext} closes the
 * application and its cluster after the class. It uses no API that differs between Spring
 * Boot 3.5 and 4.
 *
 * @author follower-fetch authors
 */
@SpringBootTest(classes = OrdersApplicationEndToEndTests.OrdersApplication.class,
		properties = { "follower-fetch.rack=az-b", "follower-fetch.observation.refresh-interval=1s",
				"spring.kafka.consumer.auto-offset-reset=earliest" })
@MultiZoneKafka(zones = { "az-a", "az-b", "az-c" }, topics = "orders")
@DirtiesContext
class OrdersApplicationEndToEndTests {

	@Autowired
	private ZonedKafkaCluster kafka;

	@Autowired
	private KafkaListenerEndpointRegistry listeners;

	@Autowired
	private MeterRegistry meters;

	@Test
	void theListenerReadsEveryPartitionInItsZone() {
		this.kafka.produce("orders", 600, 1024);
		MessageListenerContainer orders = this.listeners.getListenerContainer("orders");
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			ConsumerReadStats reads = ConsumerReadStats.ofClients(orders.metrics());
			assertThat(reads.preferredReadReplicas()).as("%s", reads).hasSize(6);
			assertThat(reads.fractionOfBytesFrom("az-b", this.kafka::rackOf)).as("%s", reads).isGreaterThan(0.99);
			assertThat(this.meters.get("follower.fetch.state").tag("state", "ACTIVE").gauge().value()).isOne();
		});
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class OrdersApplication {

		@KafkaListener(id = "orders", topics = "orders")
		void onOrder(ConsumerRecord<String, String> order) {
		}

	}

}
