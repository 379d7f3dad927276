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
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.LinkedHashMap;
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
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.followerfetch.InvalidSettingException;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ClientRackDecider}.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientRackDeciderTests {

	private static final Map.Entry<String, String> ZONE_AWARE_FIRST = Map.entry("partition.assignment.strategy",
			ZoneAwareAssignor.class.getName() + "," + CooperativeStickyAssignor.class.getName());

	private static final Map.Entry<String, String> RANGE_WRAPPED = Map.entry(ZoneAwareAssignor.WRAPPED_CONFIG,
			RangeAssignor.class.getName());

	private static final ProducerRackSupport SUPPORTED = new ProducerRackSupport(true, true, "4.4.0");

	private final Policies policies = new Policies();

	private final ConfiguredConsumers configuredConsumers = new ConfiguredConsumers();

	private final ZoneAwareAssignors assignors = new ZoneAwareAssignors();

	private final Map.Entry<String, Object> registered = Map.entry(ZoneAwareAssignor.REGISTRY_CONFIG, this.assignors);

	@Test
	void aConsumersOwnRackBeatsEverythingElseAndAnEmptyOneMeansFreshness() {
		this.policies.of(ConsumerKind.LISTENER).put("payments", Policy.LOCALITY);
		ClientRackDecider decider = decider("az-b");
		assertThat(decider.decide(ConsumerKind.LISTENER, "payments", "", Policy.LOCALITY, Policy.LOCALITY))
			.isEqualTo(ConsumerPolicy.listener("payments", Policy.FRESHNESS, Origin.OWN_CLIENT_RACK));
		assertThat(decider.decide(ConsumerKind.LISTENER, "payments", "az-c", Policy.FRESHNESS, null))
			.isEqualTo(ConsumerPolicy.listener("payments", Policy.LOCALITY, Origin.OWN_CLIENT_RACK));
	}

	@Test
	void aBlankRackOfItsOwnKeepsAConsumerOnTheLeadersWithoutTheFollowerSettings() {
		ClientRackDecider decider = decider("az-b");
		assertThat(decider.decide(ConsumerKind.OTHER, "reports", " ", null, null))
			.isEqualTo(new ConsumerPolicy(ConsumerKind.OTHER, "reports", Policy.FRESHNESS, Origin.OWN_CLIENT_RACK));
		assertThat(decider.replicaLease(" ", Map.of())).isEmpty();
		assertThat(decider.replicaRequestTimeout(" ", Map.of())).isEmpty();
	}

	@Test
	void thePropertyOfTheConsumersKindBeatsTheAnnotations() {
		this.policies.of(ConsumerKind.STREAMS).put("counts", Policy.FRESHNESS);
		this.policies.of(ConsumerKind.LISTENER).put("audit", Policy.LOCALITY);
		ClientRackDecider decider = decider("az-b");
		assertThat(decider.decide(ConsumerKind.STREAMS, "counts", null, null, null))
			.isEqualTo(new ConsumerPolicy(ConsumerKind.STREAMS, "counts", Policy.FRESHNESS, Origin.PROPERTY));
		assertThat(decider.decide(ConsumerKind.BINDING, "counts", null, null, null).origin()).isEqualTo(Origin.DEFAULT);
		assertThat(decider.decide(ConsumerKind.LISTENER, "audit", null, Policy.FRESHNESS, Policy.FRESHNESS))
			.isEqualTo(ConsumerPolicy.listener("audit", Policy.LOCALITY, Origin.PROPERTY));
	}

	@Test
	void policyPropertiesNamingNoConsumerOfTheirKindAreWarnedAboutWithTheKnownNames(CapturedOutput output) {
		this.policies.of(ConsumerKind.BINDING).put("proces-in-0", Policy.FRESHNESS);
		this.policies.of(ConsumerKind.BINDING).put("audti-in-0", Policy.FRESHNESS);
		this.policies.of(ConsumerKind.BINDING).put("process-out-0", Policy.FRESHNESS);
		this.policies.of(ConsumerKind.LISTENER).put("payments", Policy.FRESHNESS);
		ClientRackDecider decider = decider("az-b");
		assertThat(decider.warnUnknownNames(ConsumerKind.BINDING, List.of("process-out-0", "audit-in-0")))
			.containsExactly("audti-in-0", "proces-in-0");
		assertThat(decider.warnUnknownNames(ConsumerKind.LISTENER, List.of("payments"))).isEmpty();
		assertThat(output).contains("follower-fetch.policy.bindings names [audti-in-0, proces-in-0], but there is "
				+ "no Kafka consumer binding with those names. Known Kafka consumer binding names: "
				+ "[audit-in-0, process-out-0]")
			.doesNotContain("follower-fetch.policy.listeners names");
	}

	@Test
	void aConsumerTheApplicationBuildsTakesItsPolicyPropertyByNameOrByClientId() {
		this.policies.of(ConsumerKind.OTHER).put("ledger-export", Policy.FRESHNESS);
		ClientRackDecider decider = decider("az-b");
		Map<String, Object> byClientId = new HashMap<>(Map.of("client.id", "ledger-export"));
		assertThat(decider.configure(ConsumerKind.OTHER, "export", byClientId))
			.isEqualTo(new ConsumerPolicy(ConsumerKind.OTHER, "export", Policy.FRESHNESS, Origin.PROPERTY));
		assertThat(byClientId).containsEntry("client.rack", "");
		Map<String, Object> byName = new HashMap<>();
		assertThat(decider.configure(ConsumerKind.OTHER, "ledger-export", byName).origin()).isEqualTo(Origin.PROPERTY);
		Map<String, Object> other = new HashMap<>(Map.of("client.id", "ledger-import"));
		assertThat(decider.configure(ConsumerKind.OTHER, "import", other).policy()).isEqualTo(Policy.LOCALITY);
		assertThat(other).containsEntry("client.rack", "az-b");
		assertThat(decider.decide(ConsumerKind.LISTENER, "ledger-export", null, null, null).origin())
			.isEqualTo(Origin.DEFAULT);
	}

	@Test
	void theMethodAnnotationBeatsTheClassAnnotationWhichBeatsTheDefault() {
		this.policies.defaultPolicy = Policy.FRESHNESS;
		ClientRackDecider decider = decider("az-b");
		assertThat(decider.decide(ConsumerKind.LISTENER, "a", null, Policy.LOCALITY, Policy.FRESHNESS))
			.isEqualTo(ConsumerPolicy.listener("a", Policy.LOCALITY, Origin.METHOD_ANNOTATION));
		assertThat(decider.decide(ConsumerKind.LISTENER, "a", null, null, Policy.LOCALITY))
			.isEqualTo(ConsumerPolicy.listener("a", Policy.LOCALITY, Origin.CLASS_ANNOTATION));
		assertThat(decider.decide(ConsumerKind.LISTENER, null, null, null, null))
			.isEqualTo(ConsumerPolicy.listener(null, Policy.FRESHNESS, Origin.DEFAULT));
	}

	@Test
	void freshnessMeansAnEmptyRackAndLocalityTheDetectedOne() {
		assertThat(decider("az-b").clientRack(Policy.FRESHNESS)).hasValue("");
		assertThat(decider("az-b").clientRack(Policy.LOCALITY)).hasValue("az-b");
		assertThat(decider(null).clientRack(Policy.LOCALITY)).isEmpty();
	}

	@Test
	void overAFactoryFreshnessAlwaysSaysSoAndLocalityOnlyWhenTheFactoryHasNoRack() {
		assertThat(decider("az-b").clientRackOverFactory(Policy.LOCALITY)).isEmpty();
		assertThat(decider("az-b").clientRackOverFactory(Policy.FRESHNESS)).hasValue("");
		this.policies.defaultPolicy = Policy.FRESHNESS;
		assertThat(decider("az-b").clientRackOverFactory(Policy.LOCALITY)).hasValue("az-b");
		assertThat(decider("az-b").clientRackOverFactory(Policy.FRESHNESS)).hasValue("");
	}

	@Test
	void theReplicaLeaseGoesOnlyToConsumersThatReadFromAFollowerAndSetNoneThemselves() {
		ClientRackDecider decider = decider("az-b");
		assertThat(decider.replicaLease("az-b", Map.of())).hasValue("30000");
		assertThat(decider.replicaLease("", Map.of())).isEmpty();
		assertThat(decider.replicaLease(null, Map.of())).isEmpty();
		assertThat(decider.replicaLease("az-b", Map.of("metadata.max.age.ms", "1000"))).isEmpty();
		this.policies.lease = Duration.ZERO;
		assertThat(decider("az-b").replicaLease("az-b", Map.of())).isEmpty();
	}

	@Test
	void theReplicaRequestTimeoutGoesOnlyToConsumersThatReadFromAFollowerAndSetNoneThemselves() {
		ClientRackDecider decider = decider("az-b");
		assertThat(decider.replicaRequestTimeout("az-b", Map.of())).hasValue("15000");
		assertThat(decider.replicaRequestTimeout("", Map.of())).isEmpty();
		assertThat(decider.replicaRequestTimeout("az-b", Map.of("request.timeout.ms", "40000"))).isEmpty();
		this.policies.requestTimeout = Duration.ZERO;
		assertThat(decider("az-b").replicaRequestTimeout("az-b", Map.of())).isEmpty();
		this.policies.requestTimeout = Duration.ofSeconds(-1);
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(() -> decider("az-b"))
			.withMessageContaining("follower-fetch.policy.replica-request-timeout");
	}

	@Test
	void configureAddsTheRackAndLeaseButKeepsWhatTheConfigurationSets() {
		this.policies.of(ConsumerKind.BINDING).put("audit-in-0", Policy.FRESHNESS);
		ClientRackDecider decider = decider("az-b");
		Map<String, Object> plain = new HashMap<>();
		assertThat(decider.configure(ConsumerKind.BINDING, "process-in-0", plain).policy()).isEqualTo(Policy.LOCALITY);
		assertThat(plain).containsOnly(Map.entry("client.rack", "az-b"), Map.entry("metadata.max.age.ms", "30000"),
				Map.entry("request.timeout.ms", "15000"), ZONE_AWARE_FIRST, RANGE_WRAPPED,
				Map.entry("follower.fetch.zone", "az-b"), this.registered);
		Map<String, Object> fresh = new HashMap<>();
		assertThat(decider.configure(ConsumerKind.BINDING, "audit-in-0", fresh).origin()).isEqualTo(Origin.PROPERTY);
		assertThat(fresh).containsOnly(Map.entry("client.rack", ""), ZONE_AWARE_FIRST, RANGE_WRAPPED,
				Map.entry("follower.fetch.zone", "az-b"), this.registered);
		Map<String, Object> own = new HashMap<>(Map.of("client.rack", "az-c", "metadata.max.age.ms", "5000",
				"request.timeout.ms", "9000", "partition.assignment.strategy", "com.example.PinnedAssignor"));
		assertThat(decider.configure(ConsumerKind.BINDING, "audit-in-0", own).origin())
			.isEqualTo(Origin.OWN_CLIENT_RACK);
		assertThat(own).containsOnly(Map.entry("client.rack", "az-c"), Map.entry("metadata.max.age.ms", "5000"),
				Map.entry("request.timeout.ms", "9000"),
				Map.entry("partition.assignment.strategy", "com.example.PinnedAssignor"));
	}

	@Test
	void aBindingThatKeepsItsOwnAssignorIsNamedInTheLog(CapturedOutput output) {
		Map<String, Object> config = new HashMap<>(
				Map.of("partition.assignment.strategy", "com.example.PinnedAssignor"));
		decider("az-b").configure(ConsumerKind.BINDING, "process-in-0", config);
		assertThat(output).contains("Kafka consumer binding 'process-in-0' keeps its own "
				+ "partition.assignment.strategy=[com.example.PinnedAssignor]: zone-aware assignment is not added");
	}

	@Test
	void withoutADetectedRackConfigureLeavesALocalityConsumerOnItsZonelessAssignmentOnly() {
		Map<String, Object> config = new HashMap<>();
		decider(null).configure(ConsumerKind.OTHER, "hand-built", config);
		assertThat(config).containsOnly(ZONE_AWARE_FIRST, RANGE_WRAPPED, this.registered);
	}

	@Test
	void theZoneAwareAssignorGoesBeforeKafkasOwnStrategiesTheConfigurationNames() {
		Map<String, Object> config = new HashMap<>(
				Map.of("partition.assignment.strategy", List.of(CooperativeStickyAssignor.class)));
		AssignmentStrategy.Decision decision = decider("az-b").assignment(null, config);
		assertThat(decision.outcome()).isEqualTo(AssignmentStrategy.Outcome.ADDED);
		assertThat(decision.settings()).containsEntry("partition.assignment.strategy",
				ZoneAwareAssignor.class.getName() + "," + CooperativeStickyAssignor.class.getName());
	}

	@Test
	void aConsumerOfTheConsumerGroupProtocolOrWithAssignmentDisabledGetsNoAssignor() {
		assertThat(decider("az-b").assignment(null, Map.of("group.protocol", "CONSUMER")).outcome())
			.isEqualTo(AssignmentStrategy.Outcome.BROKER);
		ClientRackDecider disabled = decider(clients(false, ClientIdZone.NONE), "az-b");
		Map<String, Object> config = new HashMap<>();
		disabled.configure(ConsumerKind.OTHER, "hand-built", config);
		assertThat(config).doesNotContainKeys("partition.assignment.strategy", "follower.fetch.zone");
	}

	@Test
	void withAClientIdZoneAConfiguredConsumerSendsTheTagAndIsRememberedByTheIdItSends() {
		ClientRackDecider decider = decider(clients(true, ClientIdZone.of("warpstream")), "az-b");
		Map<String, Object> named = new HashMap<>();
		decider.configure(ConsumerKind.OTHER, "ledger-export", named);
		Map<String, Object> own = new HashMap<>(Map.of("client.id", "ledger-audit"));
		decider.configure(ConsumerKind.OTHER, "audit", own);
		Map<String, Object> binding = new HashMap<>();
		decider.configure(ConsumerKind.BINDING, "orders-in-0", binding);
		assertThat(named).containsEntry("client.id", "warpstream_az=az-b,ledger-export");
		assertThat(own).containsEntry("client.id", "warpstream_az=az-b,ledger-audit");
		assertThat(binding).containsEntry("client.id", "warpstream_az=az-b,orders-in-0");
		assertThat(this.configuredConsumers.list()).extracting(ConfiguredConsumer::clientId)
			.containsExactly("warpstream_az=az-b,ledger-export", "warpstream_az=az-b,ledger-audit");
		decider.configure(ConsumerKind.OTHER, "audit", own);
		assertThat(own).containsEntry("client.id", "warpstream_az=az-b,ledger-audit");
	}

	@Test
	void aShareConsumerCannotBeConfiguredForItTakesNoneOfIt() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> decider("az-b").configure(ConsumerKind.SHARE, "share-work", new HashMap<>()))
			.withMessageContaining("share-work")
			.withMessageContaining("share groups fetch from the leaders");
	}

	@Test
	void consumersConfiguredUnderOneNameWithoutAClientIdEachGetADistinctOne() {
		ClientRackDecider decider = decider(clients(true, ClientIdZone.of("warpstream")), "az-b");
		List<Object> clientIds = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			Map<String, Object> config = new HashMap<>();
			decider.configure(ConsumerKind.BINDING, "process-in-0", config);
			clientIds.add(config.get("client.id"));
		}
		assertThat(clientIds).containsExactly("warpstream_az=az-b,process-in-0", "warpstream_az=az-b,process-in-0-2",
				"warpstream_az=az-b,process-in-0-3");
		assertThat(decider.untagged("warpstream_az=az-b,process-in-0-2")).isEqualTo("process-in-0-2");
	}

	@Test
	void aPropertyNamingAConsumersOwnClientIdStillAppliesWhenTheTagIsAdded() {
		this.policies.of(ConsumerKind.OTHER).put("ledger-audit", Policy.FRESHNESS);
		ClientRackDecider decider = decider(clients(true, ClientIdZone.of("inkless")), "az-b");
		Map<String, Object> own = new HashMap<>(Map.of("client.id", "ledger-audit"));
		assertThat(decider.configure(ConsumerKind.OTHER, "audit", own).policy()).isEqualTo(Policy.FRESHNESS);
		assertThat(own).containsEntry("client.id", "diskless_az=az-b,ledger-audit").containsEntry("client.rack", "");
	}

	@Test
	void aConfigurationThatListsTheZoneAwareAssignorItselfGetsOnlyTheZone() {
		Map<String, Object> config = new HashMap<>(Map.of("client.rack", "",
				"partition.assignment.strategy", ZoneAwareAssignor.class.getName()));
		decider("az-b").configure(ConsumerKind.OTHER, "hand-built", config);
		assertThat(config).containsOnly(Map.entry("client.rack", ""),
				Map.entry("partition.assignment.strategy", ZoneAwareAssignor.class.getName()),
				Map.entry("follower.fetch.zone", "az-b"), this.registered);
	}

	@Test
	void aNegativeReplicaLeaseIsRejectedNamingTheProperty() {
		this.policies.lease = Duration.ofSeconds(-1);
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(() -> decider("az-b"))
			.withMessageContaining("follower-fetch.policy.replica-lease");
	}

	@Test
	void onKafkaClientsWithoutProducerRacksNothingIsAddedToAProducer() {
		ClientRackDecider decider = producerDecider("az-b", true, new ProducerRackSupport(false, false, "4.1.2"));
		assertThat(producerSettings(decider, Map.of())).isEmpty();
		assertThat(decider.producerRackAware(Map.of("client.rack", "az-b", "partitioner.rack.aware", "true"))).isFalse();
	}

	@Test
	void onKafkaClientsWithProducerRacksAProducerGetsTheRackButRackAwarePartitioningOnlyWhenAskedFor() {
		assertThat(producerSettings(producerDecider("az-b", false, SUPPORTED), Map.of()))
			.containsExactly(Map.entry("client.rack", "az-b"));
		assertThat(producerSettings(producerDecider("az-b", true, SUPPORTED), Map.of()))
			.containsExactly(Map.entry("client.rack", "az-b"), Map.entry("partitioner.rack.aware", "true"));
	}

	@Test
	void aProducersOwnRackAndRackAwarenessAreNeverOverwritten() {
		ClientRackDecider decider = producerDecider("az-b", true, SUPPORTED);
		assertThat(producerSettings(decider, Map.of("client.rack", "az-own")))
			.containsExactly(Map.entry("partitioner.rack.aware", "true"));
		assertThat(producerSettings(decider, Map.of("partitioner.rack.aware", "false")))
			.containsExactly(Map.entry("client.rack", "az-b"));
		assertThat(producerSettings(decider, Map.of("client.rack", "az-own", "partitioner.rack.aware", false)))
			.isEmpty();
	}

	@Test
	void withoutARackAProducerGetsNoRackAwarePartitioning() {
		assertThat(producerSettings(producerDecider(null, true, SUPPORTED), Map.of())).isEmpty();
		assertThat(producerSettings(producerDecider("az-b", true, SUPPORTED), Map.of("client.rack", ""))).isEmpty();
	}

	@Test
	void rackAwarePartitioningIsInEffectOnlyWithARackAndKafkasOwnPartitioner() {
		ClientRackDecider decider = producerDecider("az-b", true, SUPPORTED);
		assertThat(decider.producerRackAware(Map.of("client.rack", "az-b", "partitioner.rack.aware", "true"))).isTrue();
		assertThat(decider.producerRackAware(Map.of("client.rack", "az-b", "partitioner.rack.aware", true))).isTrue();
		assertThat(decider.producerRackAware(Map.of("client.rack", "az-b"))).isFalse();
		assertThat(decider.producerRackAware(Map.of("partitioner.rack.aware", "true"))).isFalse();
		assertThat(decider.producerRackAware(Map.of("client.rack", "az-b", "partitioner.rack.aware", "true",
				"partitioner.class", "com.example.MyPartitioner")))
			.isFalse();
	}

	private static Map<String, String> producerSettings(ClientRackDecider decider, Map<String, ?> config) {
		return decider.plan(ClientRequest.producer(config, "producer")).settings();
	}

	private ClientRackDecider producerDecider(String rack, boolean rackAware, ProducerRackSupport support) {
		return decider(new ClientSettings(rackAware, support, new AssignmentStrategy(true), ClientIdZone.NONE), rack);
	}

	private static ClientSettings clients(boolean assignment, ClientIdZone clientIdZone) {
		return new ClientSettings(false, ProducerRackSupport.ofClasspath(), new AssignmentStrategy(assignment),
				clientIdZone);
	}

	private ClientRackDecider decider(ClientSettings clients, @Nullable String rack) {
		return new ClientRackDecider(this.policies.settings(), clients, () -> DetectedRack.of(rack, "test"),
				this.configuredConsumers, this.assignors);
	}

	private ClientRackDecider decider(@Nullable String rack) {
		return new ClientRackDecider(this.policies.settings(), ClientSettings.defaults(),
				() -> DetectedRack.of(rack, "test"), (consumer) -> {
				}, this.assignors);
	}

	/**
	 * Policy settings as a test changes them, one at a time.
	 */
	private static final class Policies {

		private Policy defaultPolicy = Policy.LOCALITY;

		private final Map<ConsumerKind, Map<String, Policy>> named = new EnumMap<>(ConsumerKind.class);

		private Duration lease = PolicySettings.defaults().replicaLease();

		private Duration requestTimeout = PolicySettings.defaults().replicaRequestTimeout();

		Map<String, Policy> of(ConsumerKind kind) {
			return this.named.computeIfAbsent(kind, (key) -> new LinkedHashMap<>());
		}

		PolicySettings settings() {
			return new PolicySettings(this.defaultPolicy, this.named, this.lease, this.requestTimeout);
		}

	}

}
