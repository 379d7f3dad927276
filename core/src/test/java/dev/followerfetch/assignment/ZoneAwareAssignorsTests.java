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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.followerfetch.Policy;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What one application's registry knows of the zone-aware assignors that registered in
 * it, and nothing of another's, whatever their client ids.
 *
 * @author follower-fetch authors
 */
class ZoneAwareAssignorsTests {

	private static final List<Node> BROKERS = List.of(new Node(0, "localhost", 9092, "az-a"),
			new Node(1, "localhost", 9093, "az-b"), new Node(2, "localhost", 9094, "az-c"));

	private final ZoneAwareAssignors assignors = new ZoneAwareAssignors();

	@Test
	void aRegisteredAssignorsGroupHasNotChosenItBeforeItsFirstRebalance() {
		configured(this.assignors, "orders-0");
		assertThat(this.assignors.chosen("orders-0")).contains(false);
		assertThat(this.assignors.chosen("payments-0")).as("no assignor of that client id").isEmpty();
		assertThat(this.assignors.realignNext("payments-0")).isFalse();
		assertThat(this.assignors.leaderships()).isEmpty();
	}

	@Test
	void theGroupChoseTheAssignorOnceItsRebalanceCompletesAndNoLongerOnceTheMemberJoinsAgain() {
		ZoneAwareAssignor member = configured(this.assignors, "orders-0");
		member.subscriptionUserData(Set.of("events"));
		member.onAssignment(new Assignment(List.of(tp(0))), metadata(4));
		assertThat(this.assignors.chosen("orders-0")).contains(true);
		member.subscriptionUserData(Set.of("events"));
		assertThat(this.assignors.chosen("orders-0")).as("joining again").contains(false);
		member.onAssignment(new Assignment(List.of(tp(0))), metadata(5));
		assertThat(this.assignors.chosen("orders-0")).contains(true);
	}

	@Test
	void askedWithItsGroupTheRegistryAnswersOnlyForAConsumerOfThatGroup() {
		ZoneAwareAssignor member = configured(this.assignors, "orders-0");
		member.subscriptionUserData(Set.of("events"));
		member.onAssignment(new Assignment(List.of(tp(0))), metadata(4));
		assertThat(this.assignors.chosen("orders-0", "orders")).contains(true);
		assertThat(this.assignors.chosen("orders-0", "payments")).as("another group's consumer, same client id")
			.isEmpty();
	}

	@Test
	void twoRegistriesKeepTheirAssignorsApartThoughTheirConsumersShareAClientId() {
		ZoneAwareAssignors other = new ZoneAwareAssignors();
		ZoneAwareAssignor leader = configured(this.assignors, "shared-0");
		ZoneAwareAssignor member = configured(other, "shared-0");
		Map<String, Assignment> assignments = leader.assign(cluster("one"),
				new GroupSubscription(Map.of("member-a", subscription("az-a"), "member-b", subscription("az-b"))))
			.groupAssignment();
		leader.onAssignment(assignments.get("member-a"), metadata(2));
		member.subscriptionUserData(Set.of("events"));

		assertThat(this.assignors.leaderships()).containsOnlyKeys("shared-0");
		assertThat(this.assignors.leaderships().get("shared-0").groupId()).isEqualTo("orders");
		assertThat(other.leaderships()).isEmpty();
		assertThat(this.assignors.chosen("shared-0")).contains(true);
		assertThat(other.chosen("shared-0")).contains(false);
		assertThat(other.realignNext("shared-0")).isTrue();
		assertThat(this.assignors.brokerRacks("one")).isEqualTo(Map.of(0, "az-a", 1, "az-b", 2, "az-c"));
		assertThat(other.brokerRacks("one")).isEmpty();
	}

	@Test
	void aLaterAssignorOfTheSameClientIdReplacesTheEarlierOne() {
		ZoneAwareAssignor earlier = configured(this.assignors, "orders-0");
		configured(this.assignors, "orders-0");
		earlier.onAssignment(new Assignment(List.of(tp(0))), metadata(3));
		assertThat(this.assignors.chosen("orders-0")).contains(false);
	}

	@Test
	void theRacksOfABrokerThatWentDownAreRememberedPerCluster() {
		ZoneAwareAssignor leader = configured(this.assignors, "orders-0");
		leader.assign(cluster("one"), new GroupSubscription(Map.of("member-a", subscription("az-a"))));
		Cluster withoutBroker0 = new Cluster("one", List.of(BROKERS.get(1), BROKERS.get(2)), List.of(), Set.of(),
				Set.of());
		leader.assign(withoutBroker0, new GroupSubscription(Map.of("member-a", subscription("az-a"))));
		assertThat(this.assignors.brokerRacks("one")).isEqualTo(Map.of(0, "az-a", 1, "az-b", 2, "az-c"));
		assertThat(this.assignors.brokerRacks("two")).isEmpty();
	}

	@Test
	void anAssignorGivenSomethingElseThanARegistryWorksAloneAndSaysSo() {
		ListAppender<ILoggingEvent> log = new ListAppender<>();
		log.start();
		Logger logger = (Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class);
		logger.addAppender(log);
		try {
			Map<String, Object> settings = new HashMap<>(Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "orders-0",
					ConsumerConfig.GROUP_ID_CONFIG, "orders", ZoneAwareAssignor.REGISTRY_CONFIG, "registry"));
			ZoneAwareAssignor alone = new ZoneAwareAssignor();
			alone.configure(settings);
			Map<String, Assignment> assignments = alone
				.assign(cluster("one"), new GroupSubscription(Map.of("member-a", subscription("az-a"))))
				.groupAssignment();
			assertThat(assignments.get("member-a").partitions()).hasSize(6);
			assertThat(log.list).filteredOn((event) -> event.getLevel().toString().equals("WARN"))
				.singleElement()
				.satisfies((event) -> assertThat(event.getFormattedMessage()).contains(
						"Ignoring follower.fetch.assignment.registry of type java.lang.String",
						"works alone, unseen by the application's health and realignment"));
		}
		finally {
			logger.detachAppender(log);
		}
	}

	private static ZoneAwareAssignor configured(ZoneAwareAssignors registry, String clientId) {
		Map<String, Object> settings = new HashMap<>();
		settings.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
		settings.put(ConsumerConfig.GROUP_ID_CONFIG, "orders");
		settings.put(ZoneAwareAssignor.REGISTRY_CONFIG, registry);
		ZoneAwareAssignor assignor = new ZoneAwareAssignor();
		assignor.configure(settings);
		return assignor;
	}

	private static Subscription subscription(String zone) {
		return new Subscription(List.of("events"), new MemberData(zone, Policy.LOCALITY, -1, null).encode(), List.of(),
				-1, Optional.of(zone));
	}

	/**
	 * Six partitions, partition p led by broker p % 3.
	 */
	private static Cluster cluster(String clusterId) {
		List<PartitionInfo> infos = new ArrayList<>();
		for (int p = 0; p < 6; p++) {
			Node[] replicas = { BROKERS.get(p % 3), BROKERS.get((p + 1) % 3), BROKERS.get((p + 2) % 3) };
			infos.add(new PartitionInfo("events", p, replicas[0], replicas, replicas));
		}
		return new Cluster(clusterId, BROKERS, infos, Set.of(), Set.of());
	}

	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	private static ConsumerGroupMetadata metadata(int generation) {
		return new ConsumerGroupMetadata("orders", generation, "member-a", Optional.empty());
	}

	private static TopicPartition tp(int partition) {
		return new TopicPartition("events", partition);
	}

}
