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
package dev.followerfetch.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry of zone-aware assignors as Kafka's own consumer takes it from a
 * configuration {@link ClientRackDecider#configure(ConsumerKind, String, Map)} filled:
 * the consumer hands the object to the assignor it creates, and counts the setting as
 * used, as it counts the assignor's other settings. No broker: a consumer connects only
 * once it polls.
 *
 * @author follower-fetch authors
 */
class RegistryInKafkaConsumerTests {

	private final ZoneAwareAssignors assignors = new ZoneAwareAssignors();

	private final ClientRackDecider decider = new ClientRackDecider(PolicySettings.defaults(),
			ClientSettings.defaults(), () -> DetectedRack.of("az-b", "test"), (consumer) -> {
			}, this.assignors);

	@Test
	void aConsumerBuiltFromAConfiguredMapRegistersItsAssignorAndLogsNoUnusedSettingOfTheStarter() {
		Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9",
				ConsumerConfig.GROUP_ID_CONFIG, "audit", ConsumerConfig.CLIENT_ID_CONFIG, "audit-0",
				ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
				ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
		this.decider.configure(ConsumerKind.OTHER, "audit", config);
		assertThat(config).containsKeys(ZoneAwareAssignor.REGISTRY_CONFIG, ZoneAwareAssignor.ZONE_CONFIG);
		// a setting nobody reads, which Kafka does name
		config.put("follower.fetch.unread", "x");
		ListAppender<ILoggingEvent> log = new ListAppender<>();
		log.start();
		// kafka-clients 4 logs it as AbstractConfig, 3.9 as the configuration's own class
		List<Logger> kafkaConfigs = List.of((Logger) LoggerFactory.getLogger(AbstractConfig.class),
				(Logger) LoggerFactory.getLogger(ConsumerConfig.class));
		List<Level> levels = kafkaConfigs.stream().map(Logger::getLevel).toList();
		kafkaConfigs.forEach((kafkaConfig) -> {
			kafkaConfig.setLevel(Level.INFO);
			kafkaConfig.addAppender(log);
		});
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
			assertThat(consumer.groupMetadata().groupId()).isEqualTo("audit");
			assertThat(this.assignors.chosen("audit-0")).as("registered, its group not joined yet").contains(false);
		}
		finally {
			for (int i = 0; i < kafkaConfigs.size(); i++) {
				kafkaConfigs.get(i).detachAppender(log);
				kafkaConfigs.get(i).setLevel(levels.get(i));
			}
		}
		assertThat(log.list).map(ILoggingEvent::getFormattedMessage)
			.filteredOn((message) -> message.contains("were supplied but are not used yet"))
			.singleElement()
			.satisfies((message) -> assertThat(message).contains("follower.fetch.unread")
				.doesNotContain(ZoneAwareAssignor.REGISTRY_CONFIG, ZoneAwareAssignor.ZONE_CONFIG,
						ZoneAwareAssignor.WRAPPED_CONFIG));
	}

}
