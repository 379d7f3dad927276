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
package dev.followerfetch.assignment;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientSettings;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.PolicySettings;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Whether a consumer's group chose the zone-aware assignor, as the registry its
 * consumers were handed says it and as the group's coordinator reports it, on a real
 * three-zone cluster: plain {@link KafkaConsumer}s configured through
 * {@link ClientRackDecider#configure(ConsumerKind, String, Map)}, beside one configured
 * without the starter.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignorsEndToEndTests {

	private static final String TOPIC = "chosen";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	private final ZoneAwareAssignors assignors = new ZoneAwareAssignors();

	private final ClientRackDecider decider = new ClientRackDecider(PolicySettings.defaults(),
			ClientSettings.defaults(), () -> DetectedRack.of("az-a", "test"), (consumer) -> {
			}, this.assignors);

	@BeforeAll
	static void topic() {
		kafka.cluster().createTopicLedByEveryZone(TOPIC, 6, 3);
	}

	@Test
	void aGroupWhoseMembersAllHaveTheZoneAwareAssignorChoseIt() throws Exception {
		try (KafkaConsumer<byte[], byte[]> first = zoneAware("everyone", "everyone-a", Map.of());
				KafkaConsumer<byte[], byte[]> second = zoneAware("everyone", "everyone-b", Map.of());
				Admin admin = admin()) {
			List<KafkaConsumer<byte[], byte[]>> members = List.of(first, second);
			await("both members assigned on the zone-aware assignor").atMost(TIMEOUT).untilAsserted(() -> {
				poll(members);
				assertThat(first.assignment().size() + second.assignment().size()).isEqualTo(6);
				assertThat(describe(admin, "everyone").partitionAssignor()).isEqualTo(ZoneAwareAssignor.NAME);
				assertThat(this.assignors.chosen("everyone-a")).contains(true);
				assertThat(this.assignors.chosen("everyone-b")).contains(true);
			});
			assertThat(this.assignors.leaderships()).hasSize(1)
				.allSatisfy((clientId, leadership) -> assertThat(leadership.groupId()).isEqualTo("everyone"));
		}
	}

	@Test
	void aGroupWithOnePlainMemberChoseTheStrategyItSharesAndTheZoneAwareMemberSaysSo() throws Exception {
		try (KafkaConsumer<byte[], byte[]> zoneAware = zoneAware("mixed", "mixed-a",
				Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName()));
				Admin admin = admin()) {
			await("alone on the zone-aware assignor").atMost(TIMEOUT).untilAsserted(() -> {
				poll(List.of(zoneAware));
				assertThat(zoneAware.assignment()).hasSize(6);
				assertThat(this.assignors.chosen("mixed-a")).contains(true);
			});
			try (KafkaConsumer<byte[], byte[]> plain = plain("mixed", "mixed-b")) {
				List<KafkaConsumer<byte[], byte[]>> members = List.of(zoneAware, plain);
				await("both members assigned on range").atMost(TIMEOUT).untilAsserted(() -> {
					poll(members);
					assertThat(zoneAware.assignment()).isNotEmpty();
					assertThat(plain.assignment()).isNotEmpty();
					ConsumerGroupDescription group = describe(admin, "mixed");
					assertThat(group.members()).hasSize(2);
					assertThat(group.partitionAssignor()).isEqualTo("range");
				});
				assertThat(this.assignors.chosen("mixed-a")).contains(false);
				assertThat(this.assignors.chosen("mixed-b")).as("not configured by the starter").isEmpty();
			}
		}
	}

	private KafkaConsumer<byte[], byte[]> zoneAware(String group, String clientId, Map<String, Object> own) {
		Map<String, Object> config = config(group, clientId);
		config.putAll(own);
		this.decider.configure(ConsumerKind.OTHER, clientId, config);
		return subscribed(config);
	}

	private static KafkaConsumer<byte[], byte[]> plain(String group, String clientId) {
		Map<String, Object> config = config(group, clientId);
		config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
		return subscribed(config);
	}

	private static Map<String, Object> config(String group, String clientId) {
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers());
		config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
		config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
		config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		return config;
	}

	private static KafkaConsumer<byte[], byte[]> subscribed(Map<String, Object> config) {
		KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config);
		consumer.subscribe(List.of(TOPIC));
		return consumer;
	}

	/**
	 * One poll of each member in turn: a rebalance completes once every member has
	 * joined.
	 */
	private static void poll(List<KafkaConsumer<byte[], byte[]>> members) {
		members.forEach((member) -> member.poll(Duration.ofMillis(100)));
	}

	private static Admin admin() {
		return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers()));
	}

	private static ConsumerGroupDescription describe(Admin admin, String group) throws Exception {
		return admin.describeConsumerGroups(List.of(group)).all().get().get(group);
	}

}
