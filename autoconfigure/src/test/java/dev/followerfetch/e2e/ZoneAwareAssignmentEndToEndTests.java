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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
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
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Instances of one application in every zone, with the same listener groups, on a real
 * three-zone cluster: the zone-aware assignor gives each partition to the instance in
 * its leader's zone, so the FRESHNESS listener reads its leaders without crossing zones
 * and the LOCALITY listener reads in-zone leaders instead of followers. Judged from the
 * consumers' own metrics: bytes per broker, preferred read replica, assignment.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignmentEndToEndTests {

	private static final List<String> ZONES = List.of("az-a", "az-b", "az-c");

	private static final int RECORDS = 1200;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@Test
	void instancesInEveryZoneReadEveryPartitionFromALeaderInTheirZoneWhateverTheirPolicy() {
		readsFromInZoneLeaders("orders", List.of());
	}

	@Test
	void theCooperativeProtocolReachesTheSameAssignmentInTwoRebalancesWithoutOwningAPartitionTwice() {
		readsFromInZoneLeaders("refunds", List.of(
				"spring.kafka.consumer.properties.partition.assignment.strategy=" + CooperativeStickyAssignor.class.getName()));
	}

	private void readsFromInZoneLeaders(String topic, List<String> properties) {
		kafka.cluster().createTopicLedByEveryZone(topic, 6, 3);
		List<Instance> instances = new ArrayList<>();
		try {
			for (String zone : ZONES) {
				instances.add(Instance.start(zone, topic, properties));
			}
			for (String listener : List.of(ZonedListeners.LOCALITY, ZonedListeners.FRESHNESS)) {
				awaitAlignment(topic, instances, listener);
			}
			Map<String, Map<String, ConsumerReadStats>> before = stats(instances);
			kafka.cluster().produce(topic, RECORDS, 1024);
			for (String listener : List.of(ZonedListeners.LOCALITY, ZonedListeners.FRESHNESS)) {
				await(listener + " group receives every record").atMost(TIMEOUT)
					.until(() -> instances.stream().mapToInt((instance) -> instance.listeners.received(listener)).sum() >= RECORDS);
			}
			Map<String, Map<String, ConsumerReadStats>> after = stats(instances);
			for (String listener : List.of(ZonedListeners.LOCALITY, ZonedListeners.FRESHNESS)) {
				long total = 0;
				long crossZone = 0;
				for (Instance instance : instances) {
					ConsumerReadStats read = after.get(instance.zone).get(listener).since(before.get(instance.zone).get(listener));
					Map<String, Long> byZone = read.bytesByZone(kafka.cluster()::rackOf);
					total += read.totalBytes();
					crossZone += read.totalBytes() - byZone.getOrDefault(instance.zone, 0L);
					assertThat(read.preferredReadReplicas()).as("%s in %s reads its leaders", listener, instance.zone)
						.hasSize(2)
						.allSatisfy((tp, replica) -> assertThat(replica).isEqualTo(ConsumerReadStats.LEADER));
				}
				double fraction = (double) crossZone / total;
				System.out.printf("zone-aware %s %s: %d of %d bytes across zones (%.2f%%)%n", topic, listener, crossZone,
						total, 100 * fraction);
				assertThat(fraction).as("%s bytes across zones", listener)
					.isLessThanOrEqualTo(listener.equals(ZonedListeners.LOCALITY) ? 0.005 : 0.01);
			}
			for (String listener : List.of(ZonedListeners.LOCALITY, ZonedListeners.FRESHNESS)) {
				assertThat(instances.stream().mapToInt((instance) -> instance.listeners.received(listener)).sum())
					.as("%s records received", listener)
					.isEqualTo(RECORDS);
				assertThat(instances).as("%s records received twice", listener)
					.allSatisfy((instance) -> assertThat(instance.listeners.deliveries(listener))
						.isEqualTo(instance.listeners.received(listener)));
			}
		}
		finally {
			instances.forEach((instance) -> instance.context.close());
		}
	}

	/**
	 * Wait until every partition of the topic is assigned to the listener's consumer in
	 * its leader's zone, once each.
	 */
	private static void awaitAlignment(String topic, List<Instance> instances, String listener) {
		TopicDescription description = kafka.cluster().describeTopic(topic);
		await(listener + " partitions assigned to their leaders' zones").atMost(TIMEOUT).untilAsserted(() -> {
			Map<TopicPartition, String> assignedTo = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
			for (Instance instance : instances) {
				Collection<TopicPartition> assigned = instance.container(listener).getAssignedPartitions();
				assertThat(assigned).as("%s in %s", listener, instance.zone).isNotNull();
				assigned.forEach((tp) -> assertThat(assignedTo.put(tp, instance.zone)).as("%s assigned twice", tp).isNull());
			}
			for (TopicPartitionInfo partition : description.partitions()) {
				assertThat(assignedTo.get(new TopicPartition(topic, partition.partition())))
					.as("owner of %s-%d", topic, partition.partition())
					.isEqualTo(kafka.cluster().rackOf(partition.leader().id()));
			}
		});
	}

	private static Map<String, Map<String, ConsumerReadStats>> stats(List<Instance> instances) {
		Map<String, Map<String, ConsumerReadStats>> stats = new TreeMap<>();
		for (Instance instance : instances) {
			for (String listener : List.of(ZonedListeners.LOCALITY, ZonedListeners.FRESHNESS)) {
				stats.computeIfAbsent(instance.zone, (zone) -> new TreeMap<>())
					.put(listener, Listeners.readStats(instance.context, listener));
			}
		}
		return stats;
	}

	private record Instance(String zone, ConfigurableApplicationContext context, Listeners listeners) {

		static Instance start(String zone, String topic, List<String> properties) {
			List<String> all = new ArrayList<>(List.of("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"follower-fetch.rack=" + zone, "follower-fetch.observation.refresh-interval=500ms",
					"follower-fetch.observation.other-consumers=false", "zoned.topic=" + topic));
			all.addAll(properties);
			ConfigurableApplicationContext context = new SpringApplicationBuilder(ZonedApplication.class)
				.web(WebApplicationType.NONE)
				.properties(all.toArray(String[]::new))
				.run();
			return new Instance(zone, context, context.getBean(Listeners.class));
		}

		MessageListenerContainer container(String listener) {
			return this.context.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer(listener);
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ZonedApplication {

		@Bean
		Listeners listeners() {
			return new Listeners();
		}

		@Bean
		ZonedListeners zonedListeners(Listeners listeners) {
			return new ZonedListeners(listeners);
		}

	}

	static class ZonedListeners {

		static final String LOCALITY = "analytics";

		static final String FRESHNESS = "payments";

		private final Listeners listeners;

		ZonedListeners(Listeners listeners) {
			this.listeners = listeners;
		}

		@KafkaListener(id = LOCALITY, groupId = "${zoned.topic}-" + LOCALITY, topics = "${zoned.topic}")
		void analytics(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received(LOCALITY, record);
		}

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = FRESHNESS, groupId = "${zoned.topic}-" + FRESHNESS, topics = "${zoned.topic}")
		void payments(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received(FRESHNESS, record);
		}

	}

}
