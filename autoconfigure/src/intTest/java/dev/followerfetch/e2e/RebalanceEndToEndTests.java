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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Consumers join and leave two groups that read the same steady stream: one from an
 * application in az-b with follower-fetch (its consumers have {@code client.rack}), one
 * from an application with {@code follower-fetch.enabled=false} (no {@code client.rack}).
 * Each group starts with one consumer, a second container with concurrency 2 joins, then
 * stops; then the az-c broker stops and restarts, which changes the replica racks the
 * consumers see but not the membership. No record may be lost; the number of rebalances of each group (distinct
 * generations seen in {@code onPartitionsAssigned}) is printed side by side, because
 * KAFKA-20778 reports double rebalances with {@code client.rack}. The counts are not
 * asserted beyond "at least one per membership change": they belong to Kafka. A rebalance
 * that comes more than {@link #SETTLED} after the previous one is counted in the next
 * phase. The class has its own cluster because it stops a broker.
 *
 * @author follower-fetch authors
 */
class RebalanceEndToEndTests {

	private static final String ZONE = "az-b";

	private static final String OTHER_ZONE = "az-c";

	private static final String TOPIC = "events";

	private static final int PARTITIONS = 6;

	private static final int RECORDS_PER_SECOND = 50;

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	/**
	 * How long a group's generation must stay the same to count as settled, long enough
	 * to see a second rebalance that follows the first.
	 */
	private static final Duration SETTLED = Duration.ofSeconds(5);

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", ZONE, "az-c");

	@Test
	void consumersJoinAndLeaveGroupsWithAndWithoutClientRackWithoutLoss() {
		kafka.cluster().createTopicLedByEveryZone(TOPIC, PARTITIONS, 3);
		try (ConfigurableApplicationContext rackApp = start(true);
				ConfigurableApplicationContext plainApp = start(false);
				SteadyProducer producer = SteadyProducer.start(kafka.cluster().bootstrapServers(), TOPIC,
						RECORDS_PER_SECOND)) {
			Listeners listeners = new Listeners();
			Group rack = new Group("rack", rackApp, listeners);
			Group plain = new Group("plain", plainApp, listeners);
			assertThat(rack.consumerFactory.getConfigurationProperties()).containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG,
					ZONE);
			assertThat(plain.consumerFactory.getConfigurationProperties())
				.doesNotContainKey(ConsumerConfig.CLIENT_RACK_CONFIG);
			List<Group> groups = List.of(rack, plain);
			try {
				long from = System.nanoTime();
				groups.forEach((group) -> group.startContainer(1));
				settle(groups, from, 1);

				from = System.nanoTime();
				groups.forEach((group) -> group.startContainer(2));
				settle(groups, from, 3);

				from = System.nanoTime();
				groups.forEach(Group::stopLastContainer);
				settle(groups, from, 1);

				int other = kafka.cluster().brokerId(OTHER_ZONE);
				from = System.nanoTime();
				kafka.cluster().stopBroker(other);
				try {
					settle(groups, from, 1);
				}
				finally {
					from = System.nanoTime();
					kafka.cluster().startBroker(other);
				}
				kafka.cluster().awaitInSync(TOPIC);
				settle(groups, from, 1);

				producer.stop();
				assertThat(producer.failures()).isEmpty();
				Map<String, Long> produced = producer.acknowledged();
				assertThat(produced).hasSizeGreaterThan(RECORDS_PER_SECOND);
				for (Group group : groups) {
					await(group.id + " receives all " + produced.size() + " acknowledged records").atMost(TIMEOUT)
						.until(() -> listeners.keys(group.id).keySet().containsAll(produced.keySet()));
					assertThat(listeners.keys(group.id).keySet())
						.containsExactlyInAnyOrderElementsOf(produced.keySet());
					assertThat(group.rebalancesByPhase.subList(0, 3)).as("rebalances of %s by membership change", group.id)
						.allSatisfy((count) -> assertThat(count).isPositive());
				}
				groups.forEach(Group::endPhase);
				System.out.printf("Rebalances (join / second instance with concurrency 2 joins / it leaves / "
						+ "broker in " + OTHER_ZONE + " stopped / restarted and in sync / later, until the end), "
						+ "with client.rack=%s: %s; without client.rack: %s; %d records, none lost; redelivered: "
						+ "%d with client.rack, %d without%n", ZONE, rack.rebalancesByPhase, plain.rebalancesByPhase,
						produced.size(), listeners.deliveries(rack.id) - listeners.keys(rack.id).size(),
						listeners.deliveries(plain.id) - listeners.keys(plain.id).size());
			}
			finally {
				groups.forEach(Group::stopAll);
			}
		}
	}

	/**
	 * Wait until every group settled after an action that started at {@code from}, and
	 * close the phase of each.
	 */
	private static void settle(List<Group> groups, long from, int consumers) {
		for (Group group : groups) {
			group.awaitSettled(from, consumers);
		}
		groups.forEach(Group::endPhase);
	}

	private static ConfigurableApplicationContext start(boolean followerFetch) {
		List<String> properties = new ArrayList<>(List.of(
				"spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
				"spring.kafka.consumer.auto-offset-reset=earliest",
				"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
				"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName()));
		properties.add(followerFetch ? "follower-fetch.rack=" + ZONE : "follower-fetch.enabled=false");
		return new SpringApplicationBuilder(EmptyApplication.class).web(WebApplicationType.NONE)
			.properties(properties.toArray(String[]::new))
			.run();
	}

	/**
	 * One consumer group: the containers the test starts in it, and the rebalances they
	 * see.
	 */
	private static final class Group {

		private final String id;

		private final String groupId = UUID.randomUUID().toString();

		private final ConsumerFactory<byte[], byte[]> consumerFactory;

		private final Listeners listeners;

		private final List<ConcurrentMessageListenerContainer<byte[], byte[]>> containers = new ArrayList<>();

		private final Set<Integer> generations = ConcurrentHashMap.newKeySet();

		private final Map<Integer, Set<TopicPartition>> assignedByConsumer = new ConcurrentHashMap<>();

		private final AtomicLong lastAssignedAt = new AtomicLong(System.nanoTime());

		private final AtomicInteger consumerIds = new AtomicInteger();

		private final List<Integer> rebalancesByPhase = new ArrayList<>();

		private int generationsBefore;

		@SuppressWarnings("unchecked")
		Group(String id, ConfigurableApplicationContext context, Listeners listeners) {
			this.id = id;
			this.consumerFactory = context.getBean(ConsumerFactory.class);
			this.listeners = listeners;
		}

		void startContainer(int concurrency) {
			ContainerProperties properties = new ContainerProperties(TOPIC);
			properties.setGroupId(this.groupId);
			properties.setMessageListener(
					(MessageListener<byte[], byte[]>) (record) -> this.listeners.received(this.id, record));
			properties.setConsumerRebalanceListener(new Counter());
			ConcurrentMessageListenerContainer<byte[], byte[]> container = new ConcurrentMessageListenerContainer<>(
					this.consumerFactory, properties);
			container.setConcurrency(concurrency);
			container.setBeanName(this.id + "-" + this.containers.size());
			this.containers.add(container);
			container.start();
		}

		void stopLastContainer() {
			this.containers.remove(this.containers.size() - 1).stop();
		}

		void stopAll() {
			this.containers.forEach(ConcurrentMessageListenerContainer::stop);
		}

		/**
		 * Wait until every partition is assigned, spread over the given number of
		 * consumers, and no new assignment was seen for {@link #SETTLED}, counted from
		 * the start of the last action at the earliest, so that a rebalance it triggers
		 * late is still counted in its phase.
		 */
		void awaitSettled(long from, int consumers) {
			await(this.id + " group settled on " + consumers + " consumers").atMost(TIMEOUT)
				.pollInterval(Duration.ofMillis(200))
				.until(() -> {
					Set<TopicPartition> assigned = new HashSet<>();
					this.assignedByConsumer.values().forEach(assigned::addAll);
					long holding = this.assignedByConsumer.values().stream().filter((set) -> !set.isEmpty()).count();
					return assigned.size() == PARTITIONS && holding == consumers
							&& System.nanoTime() - Math.max(from, this.lastAssignedAt.get()) > SETTLED.toNanos();
				});
		}

		void endPhase() {
			int now = this.generations.size();
			this.rebalancesByPhase.add(now - this.generationsBefore);
			this.generationsBefore = now;
		}

		/**
		 * Remembers the generation of each assignment and what each consumer holds.
		 */
		private final class Counter implements ConsumerAwareRebalanceListener {

			private final Map<Consumer<?, ?>, Integer> ids = new ConcurrentHashMap<>();

			@Override
			public void onPartitionsRevokedBeforeCommit(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
				Group.this.assignedByConsumer.computeIfAbsent(id(consumer), (key) -> ConcurrentHashMap.newKeySet())
					.removeAll(partitions);
			}

			@Override
			public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
				onPartitionsRevokedBeforeCommit(consumer, partitions);
			}

			@Override
			public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
				Group.this.generations.add(consumer.groupMetadata().generationId());
				Group.this.assignedByConsumer.computeIfAbsent(id(consumer), (key) -> ConcurrentHashMap.newKeySet())
					.addAll(partitions);
				Group.this.lastAssignedAt.set(System.nanoTime());
			}

			private int id(Consumer<?, ?> consumer) {
				return this.ids.computeIfAbsent(consumer, (key) -> Group.this.consumerIds.incrementAndGet());
			}

		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class EmptyApplication {

	}

}
