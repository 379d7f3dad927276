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

import dev.followerfetch.BootApis;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.observation.FollowerFetchObservationAutoConfiguration;
import dev.followerfetch.observation.FollowerFetchSnapshot;
import dev.followerfetch.observation.FollowerFetchState;
import dev.followerfetch.observation.ConsumerReads;
import dev.followerfetch.observation.Problem;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Brokers without the rack-aware replica selector: {@code client.rack} is set, yet every
 * read goes to the leader, and the health contributor says why.
 *
 * @author follower-fetch authors
 */
class SelectorDisabledEndToEndTests {

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c")
		.withoutReplicaSelector();

	@Test
	void brokersWithoutTheRackAwareSelectorAreReportedByName() {
		kafka.cluster().createTopicLedByEveryZone("orders", 3, 3);
		kafka.cluster().produce("orders", 30, 100);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthApplication.class)
			.web(WebApplicationType.NONE)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=az-b", "follower-fetch.observation.refresh-interval=200ms",
					"test.topic=orders", "test.group=" + UUID.randomUUID())
			.run()) {
			context.getBean(Listeners.class).awaitReceived("analytics", 30);
			ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
			FollowerFetchSnapshot snapshot = await().atMost(Duration.ofSeconds(60)).until(monitor::refresh,
					(candidate) -> candidate.state() == FollowerFetchState.SELECTOR_DISABLED
							&& readPartitions(candidate.listeners().get("analytics")) == 3);
			assertThat(snapshot.selector()).isEqualTo("default (LeaderSelector) on brokers [0, 1, 2]");
			BootApis.HealthReading health = BootApis.health(context);
			assertThat(health.status()).isEqualTo("UNKNOWN");
			assertThat(health.details()).containsEntry("state", "SELECTOR_DISABLED");
			assertThat(snapshot.listeners().get("analytics").zoneLocalPartitions()).isEqualTo(1);
			assertThat(snapshot.listeners().get("analytics").crossZonePartitions()).isEqualTo(2);
			assertThat(health.details().get("listeners")).asInstanceOf(InstanceOfAssertFactories.MAP)
				.containsKey("analytics");
		}
	}

	@Test
	void anApplicationWithoutListenersIsStillToldThatTheSelectorIsOff() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
					ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
					FollowerFetchObservationAutoConfiguration.class))
			.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"follower-fetch.rack=az-b")
			.run((context) -> {
				FollowerFetchSnapshot snapshot = await().atMost(Duration.ofSeconds(60))
					.until(context.getBean(ReadLocalityMonitor.class)::refresh,
							(candidate) -> candidate.state() != FollowerFetchState.STARTING);
				assertThat(snapshot.state()).isEqualTo(FollowerFetchState.SELECTOR_DISABLED);
				assertThat(snapshot.listeners()).isEmpty();
				assertThat(snapshot.problems()).extracting(Problem::message)
					.containsExactly("no consumer to observe: only the rack and the brokers are checked");
			});
	}

	private static int readPartitions(ConsumerReads reads) {
		return (reads != null) ? reads.zoneLocalPartitions() + reads.crossZonePartitions() : 0;
	}

}
