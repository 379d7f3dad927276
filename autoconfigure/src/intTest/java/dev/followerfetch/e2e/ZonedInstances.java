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
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import dev.followerfetch.BootApis;
import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Instances of one application, each in a zone of its own choosing, in one JVM: the
 * same two listener groups on one topic of six partitions, a LOCALITY one and a
 * FRESHNESS one. What each instance's consumers report, and its health.
 *
 * @author follower-fetch authors
 */
final class ZonedInstances implements AutoCloseable {

	static final String LOCALITY = "analytics";

	static final String FRESHNESS = "payments";

	static final List<String> LISTENERS = List.of(LOCALITY, FRESHNESS);

	static final int PARTITIONS = 6;

	static final Duration TIMEOUT = Duration.ofSeconds(60);

	/**
	 * How long an assignment must hold before a test measures what it reads: longer than
	 * {@code fetch.max.wait.ms} (500 ms), so that a fetch a consumer sent for a partition
	 * of its previous assignment has been answered (a record in that answer is dropped by
	 * the consumer but its bytes are counted, from a broker of another zone).
	 */
	static final Duration SETTLED = Duration.ofSeconds(2);

	private final MultiZoneKafkaCluster cluster;

	private final String topic;

	private final List<String> properties;

	private final List<Instance> instances = new ArrayList<>();

	private ZonedInstances(MultiZoneKafkaCluster cluster, String topic, List<String> properties) {
		this.cluster = cluster;
		this.topic = topic;
		this.properties = properties;
	}

	/**
	 * Create a topic of six partitions led by every zone, and start one instance per
	 * zone given.
	 */
	static ZonedInstances start(MultiZoneKafkaCluster cluster, String topic, int replicationFactor, List<String> zones,
			String... properties) {
		cluster.createTopicLedByEveryZone(topic, PARTITIONS, replicationFactor);
		ZonedInstances instances = new ZonedInstances(cluster, topic, List.of(properties));
		try {
			zones.forEach(instances::add);
		}
		catch (RuntimeException ex) {
			instances.close();
			throw ex;
		}
		return instances;
	}

	String topic() {
		return this.topic;
	}

	List<Instance> all() {
		return List.copyOf(this.instances);
	}

	/**
	 * Start one more instance.
	 */
	Instance add(String zone, String... extra) {
		List<String> all = new ArrayList<>(List.of("spring.kafka.bootstrap-servers=" + this.cluster.bootstrapServers(),
				"spring.kafka.consumer.auto-offset-reset=earliest",
				"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
				"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
				"follower-fetch.rack=" + zone, "follower-fetch.observation.refresh-interval=500ms",
				"follower-fetch.observation.other-consumers=false", "zoned.topic=" + this.topic));
		all.addAll(this.properties);
		all.addAll(List.of(extra));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ZonedApplication.class)
			.web(WebApplicationType.NONE)
			.properties(all.toArray(String[]::new))
			.run();
		Instance instance = new Instance(zone + "#" + this.instances.size(), zone, context,
				context.getBean(Listeners.class), context.getBean(Rebalances.class));
		this.instances.add(instance);
		return instance;
	}

	/**
	 * Stop an instance: its consumers leave their groups.
	 */
	void remove(Instance instance) {
		this.instances.remove(instance);
		instance.context().close();
	}

	/**
	 * Wait until every partition is assigned to one instance, in the zone of its leader
	 * as the brokers describe it at each try (an election is seen once it has reached
	 * them).
	 */
	void awaitAlignment(String listener) {
		awaitAssignment(listener, (owners) -> {
			TopicDescription description = this.cluster.describeTopic(this.topic);
			for (TopicPartitionInfo partition : description.partitions()) {
				assertThat(owners.get(new TopicPartition(this.topic, partition.partition())))
					.as("zone of the owner of %s-%d", this.topic, partition.partition())
					.isEqualTo(this.cluster.rackOf(partition.leader().id()));
			}
		});
	}

	/**
	 * Wait until every partition is assigned to exactly one instance and the owners' zones
	 * satisfy a condition, and go on doing so for {@link #SETTLED}.
	 * @param listener the listener
	 * @param owners the condition, given the zone of each partition's owner
	 */
	void awaitAssignment(String listener, Consumer<Map<TopicPartition, String>> owners) {
		await(listener + " assigned as expected").during(SETTLED).atMost(TIMEOUT).untilAsserted(() -> {
			Map<TopicPartition, String> zones = new TreeMap<>(
					(a, b) -> Integer.compare(a.partition(), b.partition()));
			for (Instance instance : this.instances) {
				instance.assigned(listener)
					.forEach((tp) -> assertThat(zones.put(tp, instance.zone())).as("%s assigned twice", tp).isNull());
			}
			assertThat(zones).as("%s partitions assigned", listener).hasSize(PARTITIONS);
			owners.accept(zones);
		});
	}

	/**
	 * What every instance's consumers report now, by instance and listener.
	 */
	Map<String, Map<String, ConsumerReadStats>> stats() {
		Map<String, Map<String, ConsumerReadStats>> stats = new TreeMap<>();
		for (Instance instance : this.instances) {
			for (String listener : LISTENERS) {
				stats.computeIfAbsent(instance.id(), (id) -> new TreeMap<>())
					.put(listener, Listeners.readStats(instance.context(), listener));
			}
		}
		return stats;
	}

	/**
	 * Wait until both groups received this many distinct records in all.
	 */
	void awaitReceived(int records) {
		for (String listener : LISTENERS) {
			await(listener + " group receives " + records + " records").atMost(TIMEOUT)
				.until(() -> this.instances.stream().mapToInt((instance) -> instance.listeners().received(listener)).sum()
						>= records);
		}
	}

	/**
	 * Assert that a group received exactly this many records, none twice.
	 */
	void assertReceivedOnce(String listener, int records) {
		assertThat(this.instances.stream().mapToInt((instance) -> instance.listeners().received(listener)).sum())
			.as("%s records received", listener)
			.isEqualTo(records);
		assertThat(this.instances).as("%s records received twice", listener)
			.allSatisfy((instance) -> assertThat(instance.listeners().deliveries(listener))
				.isEqualTo(instance.listeners().received(listener)));
	}

	/**
	 * What one group's consumers read since a point, each instance's bytes judged
	 * against its own zone.
	 */
	Traffic traffic(String listener, Map<String, Map<String, ConsumerReadStats>> before) {
		long total = 0;
		long crossZone = 0;
		Map<TopicPartition, Integer> readReplicas = new TreeMap<>((a, b) -> Integer.compare(a.partition(), b.partition()));
		for (Instance instance : this.instances) {
			ConsumerReadStats read = Listeners.readStats(instance.context(), listener)
				.since(before.get(instance.id()).get(listener));
			total += read.totalBytes();
			crossZone += read.totalBytes() - read.bytesByZone(this.cluster::rackOf).getOrDefault(instance.zone(), 0L);
			read.preferredReadReplicas().forEach((tp, replica) -> {
				if (instance.assigned(listener).contains(tp)) {
					readReplicas.put(tp, replica);
				}
			});
		}
		return new Traffic(total, crossZone, readReplicas);
	}

	/**
	 * Wait until the instance whose consumer led the group's last rebalance shows what it
	 * knows of the group as expected: a snapshot of an earlier rebalance may be shown
	 * for a refresh or two.
	 * @param listener the listener
	 * @param expected the assertion on the facts
	 * @return the facts that passed
	 */
	@SuppressWarnings("unchecked")
	Map<String, Object> awaitGroupAssignment(String listener, Consumer<Map<String, Object>> expected) {
		List<Map<String, Object>> passed = new ArrayList<>();
		await(listener + " group facts of the leading instance").atMost(TIMEOUT).untilAsserted(() -> {
			List<Map<String, Object>> shown = this.instances.stream()
				.map((instance) -> instance.listenerHealth(listener).get("groupAssignment"))
				.filter((facts) -> facts != null)
				.map((facts) -> (Map<String, Object>) facts)
				.toList();
			assertThat(shown).as("instances showing the group's facts").hasSize(1);
			expected.accept(shown.get(0));
			passed.add(shown.get(0));
		});
		return passed.get(passed.size() - 1);
	}

	@Override
	public void close() {
		this.instances.forEach((instance) -> instance.context().close());
		this.instances.clear();
	}

	/**
	 * What one group read: bytes in all, bytes from brokers in another zone than the
	 * reading instance's, and each partition's preferred read replica.
	 */
	record Traffic(long total, long crossZone, Map<TopicPartition, Integer> readReplicas) {

		double crossZoneFraction() {
			return (this.total != 0) ? (double) this.crossZone / this.total : 0;
		}

	}

	record Instance(String id, String zone, ConfigurableApplicationContext context, Listeners listeners,
			Rebalances rebalances) {

		MessageListenerContainer container(String listener) {
			return this.context.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer(listener);
		}

		Collection<TopicPartition> assigned(String listener) {
			Collection<TopicPartition> assigned = container(listener).getAssignedPartitions();
			return (assigned != null) ? assigned : List.of();
		}

		Map<String, Object> health() {
			return BootApis.health(this.context).details();
		}

		Map<String, Object> listenerHealth(String listener) {
			return listenerHealth(health(), listener);
		}

		/**
		 * One listener's part of health details already read.
		 */
		@SuppressWarnings("unchecked")
		static Map<String, Object> listenerHealth(Map<String, Object> health, String listener) {
			Map<String, Object> listeners = (Map<String, Object>) health.getOrDefault("listeners", Map.of());
			return (Map<String, Object>) listeners.getOrDefault(listener, Map.of());
		}

	}

	/**
	 * The latest generation of each group this instance's consumers were assigned
	 * partitions in: one more for each rebalance of the classic protocol.
	 */
	static final class Rebalances implements ConsumerAwareRebalanceListener {

		private final Map<String, Integer> latest = new ConcurrentHashMap<>();

		@Override
		public void onPartitionsAssigned(org.apache.kafka.clients.consumer.Consumer<?, ?> consumer,
				Collection<TopicPartition> partitions) {
			this.latest.merge(consumer.groupMetadata().groupId(), consumer.groupMetadata().generationId(), Math::max);
		}

		/**
		 * The latest generation of a group seen here.
		 */
		int latest(String group) {
			return this.latest.getOrDefault(group, 0);
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
		Rebalances rebalances() {
			return new Rebalances();
		}

		@Bean
		ZonedListeners zonedListeners(Listeners listeners) {
			return new ZonedListeners(listeners);
		}

	}

	static class ZonedListeners {

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
