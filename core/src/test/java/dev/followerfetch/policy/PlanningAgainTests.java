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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClientRackDecider#plan(ClientRequest)} is a function of the request and the
 * decider's settings: a request planned again, whatever was planned in between, gets an
 * equal plan, the one a decider that planned nothing before gives, and planning tells
 * the observation nothing. What applying plans keeps is {@link AppliedPlansTests}'.
 *
 * @author follower-fetch authors
 */
class PlanningAgainTests {

	@Property(tries = 400)
	void aRequestPlannedAgainGetsAnEqualPlanWhateverWasPlannedInBetween(@ForAll("settings") Settings settings,
			@ForAll("requests") ClientRequest request, @ForAll("manyRequests") List<ClientRequest> others) {
		ClientRackDecider decider = settings.decider();
		ClientPlan first = decider.plan(request);
		others.forEach(decider::plan);
		assertThat(decider.plan(request)).isEqualTo(first);
		assertThat(settings.decider().plan(request)).as("a decider that planned nothing before").isEqualTo(first);
		assertThat(settings.told()).as("planning configures no consumer").isEmpty();
	}

	@Provide
	Arbitrary<Settings> settings() {
		return Combinators
			.combine(Arbitraries.of(Policy.values()), Arbitraries.of("az-b", "az b", ""),
					Arbitraries.of("none", "warpstream", "automq"), Arbitraries.of(true, false))
			.as(Settings::new);
	}

	@Provide
	Arbitrary<List<ClientRequest>> manyRequests() {
		return requests().list().ofMaxSize(12);
	}

	@Provide
	Arbitrary<ClientRequest> requests() {
		Arbitrary<Map<String, Object>> configs = configs();
		Arbitrary<String> names = Arbitraries.of("orders", "audit", "reports", "ledger-export");
		Arbitrary<@Nullable Policy> annotations = Arbitraries.of(Policy.values()).injectNull(0.4);
		return Arbitraries.oneOf(
				configs.map((config) -> ClientRequest.consumerFactory("ConsumerFactory bean 'orders'", config)),
				Combinators.combine(names.injectNull(0.2), configs, annotations, annotations)
					.as(ClientRequest::listenerAnnotation),
				Combinators.combine(names, configs, configs, annotations, annotations)
					.as((id, own, inherited, onMethod, onClass) -> ClientRequest.listener(id, own, inherited,
							onMethod, onClass, null, id)),
				Combinators.combine(names, configs, configs, Arbitraries.of(Origin.values()))
					.as((id, own, inherited, origin) -> ClientRequest.listener(id, own, inherited,
							ConsumerPolicy.listener(id, Policy.FRESHNESS, origin), "prefix", id)),
				Combinators.combine(names, configs).as(ClientRequest::streams),
				Combinators.combine(Arbitraries.of(ConsumerKind.BINDING, ConsumerKind.OTHER), names, configs)
					.as(ClientRequest::consumer),
				Combinators.combine(configs, names).as(ClientRequest::producer),
				Combinators.combine(configs, names).as(ClientRequest::client));
	}

	private static Arbitrary<Map<String, Object>> configs() {
		Arbitrary<Map.Entry<String, Object>> entries = Arbitraries.oneOf(
				Arbitraries.of("", "az-a", "az-b").map((rack) -> Map.entry("client.rack", rack)),
				Arbitraries.of("mine", "warpstream_az=az-b,mine", " ").map((id) -> Map.entry("client.id", id)),
				Arbitraries
					.of(RangeAssignor.class.getName(), CooperativeStickyAssignor.class.getName(),
							"com.example.PinnedAssignor", ZoneAwareAssignor.class.getName())
					.map((strategy) -> Map.entry("partition.assignment.strategy", strategy)),
				Arbitraries.of("consumer", "classic").map((protocol) -> Map.entry("group.protocol", protocol)),
				Arbitraries.of("1000").map((age) -> Map.entry("metadata.max.age.ms", age)),
				Arbitraries.of("", "az-c").map((rack) -> Map.entry("main.consumer.client.rack", rack)),
				Arbitraries.of("true").map((aware) -> Map.entry("partitioner.rack.aware", aware)));
		return entries.list().ofMaxSize(4).map((list) -> {
			Map<String, Object> config = new HashMap<>();
			list.forEach((entry) -> config.put(entry.getKey(), entry.getValue()));
			return config;
		});
	}

	/**
	 * A decider's settings, from which equal deciders are made: one registry of
	 * zone-aware assignors, as one application context has.
	 */
	static final class Settings {

		private final PolicySettings policies;

		private final ClientSettings clients;

		private final String rack;

		private final ZoneAwareAssignors assignors = new ZoneAwareAssignors();

		private final List<ConfiguredConsumer> told = new ArrayList<>();

		Settings(Policy defaultPolicy, String rack, String clientIdZone, boolean assignment) {
			this.policies = new PolicySettings(defaultPolicy,
					Map.of(ConsumerKind.LISTENER, Map.of("audit", Policy.FRESHNESS), ConsumerKind.OTHER,
							Map.of("ledger-export", Policy.FRESHNESS), ConsumerKind.STREAMS,
							Map.of("reports", Policy.FRESHNESS)),
					Duration.ofSeconds(30), Duration.ofSeconds(15));
			this.clients = new ClientSettings(true, new ProducerRackSupport(true, true, "4.4.0"),
					new AssignmentStrategy(assignment), ClientIdZone.of(clientIdZone));
			this.rack = rack;
		}

		ClientRackDecider decider() {
			return new ClientRackDecider(this.policies, this.clients,
					() -> DetectedRack.of(this.rack.isEmpty() ? null : this.rack, "test"), this.told::add,
					this.assignors);
		}

		List<ConfiguredConsumer> told() {
			return this.told;
		}

		@Override
		public String toString() {
			return this.policies.defaultPolicy() + ", rack '" + this.rack + "', " + this.clients.clientIdZone();
		}

	}

}
