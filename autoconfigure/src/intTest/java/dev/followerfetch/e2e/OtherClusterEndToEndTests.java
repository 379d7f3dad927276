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
import java.util.UUID;

import dev.followerfetch.observation.FollowerFetchSnapshot;
import dev.followerfetch.observation.FollowerFetchState;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A listener that reads from a second cluster, which the application's {@code KafkaAdmin}
 * does not know: its reads are judged against its own cluster's brokers, read with the
 * admin settings of its own consumers, and the listeners of the main cluster are reported
 * as before.
 *
 * @author follower-fetch authors
 */
class OtherClusterEndToEndTests {

	@RegisterExtension
	static final MultiZoneKafkaExtension main = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@RegisterExtension
	static final MultiZoneKafkaExtension other = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@Test
	void aListenerOnAnotherClusterIsObservedOnThatCluster() {
		main.cluster().createTopicLedByEveryZone("orders", 3, 3);
		main.cluster().produce("orders", 30, 100);
		other.cluster().createTopicLedByEveryZone("archive", 3, 3);
		other.cluster().produce("archive", 30, 100);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.kafka.bootstrap-servers=" + main.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=az-b", "follower-fetch.observation.refresh-interval=200ms",
					"test.topic=orders", "test.group=" + UUID.randomUUID(),
					"test.other-cluster=" + other.cluster().bootstrapServers(), "test.other-topic=archive")
			.run()) {
			Listeners listeners = context.getBean(Listeners.class);
			listeners.awaitReceived("analytics", 30);
			listeners.awaitReceived("elsewhere", 30);
			ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
			String rackAware = "org.apache.kafka.common.replica.RackAwareReplicaSelector on brokers [0, 1, 2]";
			// all on one snapshot: payments, whose records the test does not wait for, may not be assigned yet
			await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
				FollowerFetchSnapshot snapshot = monitor.refresh();
				assertThat(snapshot.state()).isEqualTo(FollowerFetchState.ACTIVE);
				assertThat(snapshot.listeners()).containsKeys("analytics", "elsewhere", "payments");
				assertThat(snapshot.listeners().get("analytics").zoneLocalPartitions()).isEqualTo(3);
				assertThat(snapshot.listeners().get("elsewhere").zoneLocalPartitions()).isEqualTo(3);
				assertThat(snapshot.listeners().get("payments").partitions()).isEqualTo(3);
				assertThat(snapshot.listeners().get("elsewhere").crossZonePartitions()).isZero();
				assertThat(snapshot.problems()).isEmpty();
				assertThat(snapshot.selector()).startsWith("KafkaAdmin: " + rackAware + " | ")
					.endsWith(": " + rackAware)
					.contains(other.cluster().bootstrapServers().split(","));
			});
		}
	}

}
