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

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.observation.ConfiguredConsumers;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientRackDecider#plan(ClientRequest)}: one plan per kind of client,
 * for an application in {@code az-b} whose default policy is locality and whose clients
 * get the WarpStream zone tag.
 *
 * @author follower-fetch authors
 */
class ClientPlanTests {

	private static final String ZONE_AWARE_FIRST = ZoneAwareAssignor.class.getName() + ","
			+ CooperativeStickyAssignor.class.getName();

	private final ConfiguredConsumers configured = new ConfiguredConsumers();

	private final ClientRackDecider decider = new ClientRackDecider(
			new PolicySettings(Policy.LOCALITY,
					Map.of(ConsumerKind.LISTENER, Map.of("audit", Policy.FRESHNESS), ConsumerKind.STREAMS,
							Map.of("reports", Policy.FRESHNESS), ConsumerKind.OTHER,
							Map.of("ledger-export", Policy.FRESHNESS)),
					Duration.ofSeconds(30), Duration.ofSeconds(15)),
			new ClientSettings(true, new ProducerRackSupport(true, true, "4.4.0"), new AssignmentStrategy(true),
					ClientIdZone.of("warpstream")),
			() -> DetectedRack.of("az-b", "test"), this.configured);

	@Test
	void aConsumerFactoryCarriesTheDefaultPolicysRackTheFollowerSettingsAndTheZoneAwareAssignor() {
		ClientPlan plan = this.decider.plan(ClientRequest.consumerFactory("ConsumerFactory bean 'orders'",
				Map.of("bootstrap.servers", "localhost:9092", "client.id", "orders")));
		assertThat(plan.policy()).isNull();
		assertThat(plan.settings()).containsOnly(Map.entry("client.rack", "az-b"),
				Map.entry("metadata.max.age.ms", "30000"), Map.entry("request.timeout.ms", "15000"),
				Map.entry("partition.assignment.strategy", ZONE_AWARE_FIRST),
				Map.entry(ZoneAwareAssignor.WRAPPED_CONFIG, RangeAssignor.class.getName()),
				Map.entry(ZoneAwareAssignor.ZONE_CONFIG, "az-b"));
		assertThat(plan.clientId()).isEqualTo("warpstream_az=az-b,orders");
	}

	@Test
	void aConsumerFactoryWithItsOwnRackKeepsItAndItsOwnSettings() {
		ClientPlan plan = this.decider.plan(ClientRequest.consumerFactory("ConsumerFactory bean 'pinned'",
				Map.of("client.rack", "az-c", "metadata.max.age.ms", "5000", "partition.assignment.strategy",
						"com.example.PinnedAssignor")));
		assertThat(plan.settings()).containsOnly(Map.entry("request.timeout.ms", "15000"));
		assertThat(plan.clientId()).isNull();
	}

	@Test
	void aListenersAnnotationCarriesOnlyTheRackItsPolicyNeedsOverItsFactory() {
		assertThat(this.decider.plan(ClientRequest.listenerAnnotation(null, Map.of(), Policy.FRESHNESS, null)))
			.isEqualTo(new ClientPlan(new ConsumerPolicy(ConsumerKind.LISTENER, null, Policy.FRESHNESS,
					Origin.METHOD_ANNOTATION), Map.of("client.rack", ""), null));
		assertThat(this.decider.plan(ClientRequest.listenerAnnotation("audit", Map.of(), null, Policy.LOCALITY)))
			.isEqualTo(new ClientPlan(ConsumerPolicy.listener("audit", Policy.FRESHNESS, Origin.PROPERTY),
					Map.of("client.rack", ""), null));
		assertThat(this.decider.plan(ClientRequest.listenerAnnotation("orders", Map.of(), null, Policy.LOCALITY)))
			.isEqualTo(new ClientPlan(ConsumerPolicy.listener("orders", Policy.LOCALITY, Origin.CLASS_ANNOTATION),
					Map.of(), null));
		assertThat(this.decider.plan(ClientRequest.listenerAnnotation("orders", Map.of(), null, null)).policy())
			.isEqualTo(ConsumerPolicy.listener("orders", Policy.LOCALITY, Origin.DEFAULT));
	}

	@Test
	void aListenerGetsItsRackTheAssignorBeforeItsOwnStrategyAndATaggedClientIdPrefix() {
		Map<String, Object> factory = Map.of("client.id", "app", "partition.assignment.strategy", ZONE_AWARE_FIRST);
		ClientPlan plan = this.decider.plan(ClientRequest.listener("audit",
				Map.of("partition.assignment.strategy", RangeAssignor.class.getName()), factory, null, null, null,
				"audit"));
		assertThat(plan.policy()).isEqualTo(ConsumerPolicy.listener("audit", Policy.FRESHNESS, Origin.PROPERTY));
		assertThat(plan.settings()).containsOnly(Map.entry("client.rack", ""),
				Map.entry("partition.assignment.strategy",
						ZoneAwareAssignor.class.getName() + "," + RangeAssignor.class.getName()),
				Map.entry(ZoneAwareAssignor.ZONE_CONFIG, "az-b"));
		assertThat(plan.clientId()).isEqualTo("warpstream_az=az-b,app");
	}

	@Test
	void aListenerOfTheConsumerGroupProtocolDropsTheAssignorItsFactoryNames() {
		ClientPlan plan = this.decider.plan(ClientRequest.listener("orders", Map.of("group.protocol", "consumer"),
				Map.of("partition.assignment.strategy", ZONE_AWARE_FIRST), null, null, "orders-client", "orders"));
		assertThat(plan.policy()).isEqualTo(ConsumerPolicy.listener("orders", Policy.LOCALITY, Origin.DEFAULT));
		assertThat(plan.settings()).containsOnly(Map.entry("partition.assignment.strategy", ""));
		assertThat(plan.clientId()).isEqualTo("warpstream_az=az-b,orders-client");
	}

	@Test
	void aListenerWithItsOwnRackKeepsItAndWithoutAnyClientIdTakesItsBase() {
		ClientPlan plan = this.decider.plan(
				ClientRequest.listener("pinned", Map.of("client.rack", "az-c"), Map.of(), Policy.FRESHNESS, null, null,
						"pinned"));
		assertThat(plan).isEqualTo(new ClientPlan(
				ConsumerPolicy.listener("pinned", Policy.LOCALITY, Origin.OWN_CLIENT_RACK), Map.of(),
				"warpstream_az=az-b,pinned"));
	}

	@Test
	void aFreshKafkaStreamsApplicationKeepsItsStreamThreadsOnTheLeadersAndRestoresInTheZone() {
		ClientPlan plan = this.decider.plan(ClientRequest.streams("reports", Map.of("application.id", "reports")));
		assertThat(plan.policy())
			.isEqualTo(new ConsumerPolicy(ConsumerKind.STREAMS, "reports", Policy.FRESHNESS, Origin.PROPERTY));
		assertThat(plan.settings()).containsExactly(Map.entry("client.rack", "az-b"),
				Map.entry("main.consumer.client.rack", ""), Map.entry("consumer.metadata.max.age.ms", "30000"),
				Map.entry("consumer.request.timeout.ms", "15000"));
		assertThat(plan.clientId()).startsWith("warpstream_az=az-b,reports-");
	}

	@Test
	void aKafkaStreamsApplicationKeepsTheSettingsItsConsumersSetThemselves() {
		ClientPlan plan = this.decider.plan(ClientRequest.streams("orders",
				Map.of("consumer.client.rack", "az-c", "consumer.metadata.max.age.ms", "1000", "request.timeout.ms",
						"9000", "client.id", "orders-app")));
		assertThat(plan.policy())
			.isEqualTo(new ConsumerPolicy(ConsumerKind.STREAMS, "orders", Policy.LOCALITY, Origin.OWN_CLIENT_RACK));
		assertThat(plan.settings()).isEmpty();
		assertThat(plan.clientId()).isEqualTo("warpstream_az=az-b,orders-app");
	}

	@Test
	void aConsumerFromAMapFollowsThePropertyByNameAndIsReportedToTheObservation() {
		ClientPlan plan = this.decider.plan(ClientRequest.consumer(ConsumerKind.OTHER, "ledger-export", Map.of()));
		assertThat(plan.policy())
			.isEqualTo(new ConsumerPolicy(ConsumerKind.OTHER, "ledger-export", Policy.FRESHNESS, Origin.PROPERTY));
		assertThat(plan.settings()).containsOnly(Map.entry("client.rack", ""),
				Map.entry("partition.assignment.strategy", ZONE_AWARE_FIRST),
				Map.entry(ZoneAwareAssignor.WRAPPED_CONFIG, RangeAssignor.class.getName()),
				Map.entry(ZoneAwareAssignor.ZONE_CONFIG, "az-b"));
		assertThat(plan.clientId()).isEqualTo("warpstream_az=az-b,ledger-export");
		assertThat(this.configured.list()).isEmpty();
		Map<String, Object> config = new HashMap<>();
		this.decider.configure(ConsumerKind.OTHER, "ledger-export", config);
		assertThat(this.configured.list()).singleElement()
			.satisfies((consumer) -> assertThat(consumer.clientId()).isEqualTo(config.get("client.id")));
	}

	@Test
	void aBindingReadsFromItsZoneWithTheFollowerSettings() {
		ClientPlan plan = this.decider.plan(ClientRequest.consumer(ConsumerKind.BINDING, "orders-in-0",
				Map.of("group.protocol", "consumer", "client.id", "orders")));
		assertThat(plan.policy())
			.isEqualTo(new ConsumerPolicy(ConsumerKind.BINDING, "orders-in-0", Policy.LOCALITY, Origin.DEFAULT));
		assertThat(plan.settings()).containsOnly(Map.entry("client.rack", "az-b"),
				Map.entry("metadata.max.age.ms", "30000"), Map.entry("request.timeout.ms", "15000"));
		assertThat(plan.clientId()).isEqualTo("warpstream_az=az-b,orders");
	}

	@Test
	void aProducerGetsTheRackAndRackAwarePartitioningButKeepsItsOwn() {
		assertThat(this.decider.plan(ClientRequest.producer(Map.of(), "app-producer")))
			.isEqualTo(new ClientPlan(null, Map.of("client.rack", "az-b", "partitioner.rack.aware", "true"),
					"warpstream_az=az-b,app-producer"));
		assertThat(this.decider.plan(ClientRequest.producer(Map.of("partitioner.rack.aware", "false",
				"client.rack", "az-c", "client.id", "warpstream_az=az-c,mine"), "app-producer")))
			.isEqualTo(new ClientPlan(null, Map.of(), null));
	}

	@Test
	void everyConsumerWhoseStrategiesNameTheZoneAwareAssignorIsHandedTheApplicationsRegistry() {
		ZoneAwareAssignors assignors = new ZoneAwareAssignors();
		ClientRackDecider decider = decider(true, assignors);
		Map<String, Object> listed = Map.of("partition.assignment.strategy", ZoneAwareAssignor.class.getName());
		ClientPlan factory = decider.plan(ClientRequest.consumerFactory("ConsumerFactory bean 'orders'", Map.of()));
		assertThat(factory.assignors()).isSameAs(assignors);
		assertThat(factory.configs()).containsEntry(ZoneAwareAssignor.REGISTRY_CONFIG, assignors);
		assertThat(decider.plan(ClientRequest.listener("audit",
				Map.of("partition.assignment.strategy", RangeAssignor.class.getName()), Map.of(), null, null, null,
				"audit"))
			.assignors()).as("a listener's own strategy").isSameAs(assignors);
		assertThat(decider.plan(ClientRequest.consumer(ConsumerKind.BINDING, "orders-in-0", Map.of())).assignors())
			.isSameAs(assignors);
		assertThat(decider.plan(ClientRequest.consumer(ConsumerKind.OTHER, "audit", listed)).assignors())
			.isSameAs(assignors);
		assertThat(decider(false, assignors).plan(ClientRequest.consumer(ConsumerKind.OTHER, "audit", listed))
			.assignors()).as("listed by the application with assignment disabled").isSameAs(assignors);
		Map<String, Object> configured = new HashMap<>();
		decider.configure(ConsumerKind.OTHER, "audit", configured);
		assertThat(configured).containsEntry(ZoneAwareAssignor.REGISTRY_CONFIG, assignors);
	}

	@Test
	void aConsumerThatRunsNoZoneAwareAssignorOrHoldsARegistryAlreadyIsHandedNone() {
		ZoneAwareAssignors assignors = new ZoneAwareAssignors();
		ClientRackDecider decider = decider(true, assignors);
		assertThat(decider.plan(ClientRequest.consumerFactory("ConsumerFactory bean 'pinned'",
				Map.of("partition.assignment.strategy", "com.example.PinnedAssignor")))
			.assignors()).isNull();
		assertThat(decider.plan(ClientRequest.consumer(ConsumerKind.BINDING, "orders-in-0",
				Map.of("group.protocol", "consumer", "partition.assignment.strategy", ZoneAwareAssignor.class.getName())))
			.assignors()).isNull();
		assertThat(decider(false, assignors).plan(ClientRequest.consumer(ConsumerKind.OTHER, "audit", Map.of()))
			.assignors()).isNull();
		assertThat(decider.plan(ClientRequest.listener("orders", Map.of(),
				Map.of("partition.assignment.strategy", ZONE_AWARE_FIRST, ZoneAwareAssignor.REGISTRY_CONFIG, assignors),
				null, null, null, "orders"))
			.assignors()).as("a listener that takes its factory's").isNull();
		ZoneAwareAssignors own = new ZoneAwareAssignors();
		Map<String, Object> config = new HashMap<>(Map.of(ZoneAwareAssignor.REGISTRY_CONFIG, own));
		decider.configure(ConsumerKind.OTHER, "audit", config);
		assertThat(config).containsEntry(ZoneAwareAssignor.REGISTRY_CONFIG, own);
		ClientPlan streams = decider.plan(ClientRequest.streams("reports", Map.of("application.id", "reports")));
		assertThat(streams.assignors()).as("Kafka Streams keeps its own assignor").isNull();
		assertThat(streams.configs()).doesNotContainKey(ZoneAwareAssignor.REGISTRY_CONFIG);
	}

	@Test
	void aPlanThatAddsNothingLeavesTheConfigurationUntouched() {
		Map<String, Object> unmodifiable = Collections.unmodifiableMap(new HashMap<>(Map.of("client.id", "mine")));
		new ClientPlan(null, Map.of(), null).applyTo(unmodifiable);
		assertThat(unmodifiable).containsOnly(Map.entry("client.id", "mine"));
	}

	@Test
	void anyOtherClientTakesOnlyTheZoneTag() {
		assertThat(this.decider.plan(ClientRequest.client(Map.of("client.rack", ""), "binder-admin")))
			.isEqualTo(new ClientPlan(null, Map.of(), "warpstream_az=az-b,binder-admin"));
	}

	private static ClientRackDecider decider(boolean assignment, ZoneAwareAssignors assignors) {
		return new ClientRackDecider(PolicySettings.defaults(),
				new ClientSettings(false, ProducerRackSupport.ofClasspath(), new AssignmentStrategy(assignment),
						ClientIdZone.NONE),
				() -> DetectedRack.of("az-b", "test"), (consumer) -> {
				}, assignors);
	}

}
