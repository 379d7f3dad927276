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

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AppliedPlans}: what applying plans keeps, which planning does not.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class AppliedPlansTests {

	private final AppliedPlans applied = new AppliedPlans();

	@Test
	void clientsOfOneBaseWithoutAClientIdOfTheirOwnEachGetADistinctOne() {
		ClientRackDecider decider = decider("az-b", "warpstream");
		ClientRequest producer = ClientRequest.producer(Map.of(), "app-producer");
		ClientPlan plan = decider.plan(producer);
		assertThat(List.of(this.applied.applying(producer, plan), this.applied.applying(producer, plan),
				this.applied.applying(producer, decider.plan(producer))))
			.extracting(ClientPlan::clientId)
			.containsExactly("warpstream_az=az-b,app-producer", "warpstream_az=az-b,app-producer-2",
					"warpstream_az=az-b,app-producer-3");
		assertThat(decider.plan(producer)).as("the plan itself").isEqualTo(plan);
	}

	@Test
	void aClientWithAClientIdOfItsOwnKeepsItBehindTheTagHoweverOftenItIsApplied() {
		ClientRackDecider decider = decider("az-b", "warpstream");
		ClientRequest binding = ClientRequest.consumer(ConsumerKind.BINDING, "orders-in-0",
				Map.of("client.id", "orders"));
		ClientPlan plan = decider.plan(binding);
		assertThat(this.applied.applying(binding, plan)).isEqualTo(plan);
		assertThat(this.applied.applying(binding, plan).clientId()).isEqualTo("warpstream_az=az-b,orders");
	}

	@Test
	void planningSaysNothingAndApplyingSaysANoteAboutTheApplicationOnceAndOneAboutAClientEachTime(
			CapturedOutput output) {
		ClientRackDecider decider = decider("az b", "warpstream");
		List<ClientRequest> requests = List.of(
				ClientRequest.consumerFactory("ConsumerFactory bean 'pinned'", Map.of("client.rack", "az-a")),
				ClientRequest.consumer(ConsumerKind.OTHER, "audit",
						Map.of("partition.assignment.strategy", "com.example.PinnedAssignor")),
				ClientRequest.consumer(ConsumerKind.BINDING, "orders-in-0", Map.of()));
		String before = output.getAll();
		List<ClientPlan> plans = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			requests.forEach((request) -> plans.add(decider.plan(request)));
		}
		assertThat(plans).flatMap(ClientPlan::notes).isNotEmpty();
		assertThat(output.getAll()).as("planning logs nothing").isEqualTo(before);
		for (int i = 0; i < plans.size(); i++) {
			this.applied.applying(requests.get(i % requests.size()), plans.get(i));
		}
		String said = output.getAll().substring(before.length());
		assertThat(said.split("ConsumerFactory bean 'pinned' keeps its own client.rack=az-a \\(detected rack is az b"))
			.hasSize(4);
		assertThat(said.split("Consumer 'audit' keeps its own partition.assignment.strategy=")).hasSize(4);
		assertThat(said.split("follower-fetch.client-id-zone=warpstream adds no warpstream_az to client ids: "
				+ "the zone 'az b' has characters")).hasSize(2);
		assertThat(said.split("a consumer with client.rack rejoins its group twice"))
			.hasSize(BrokerBounceRejoins.ofClasspath().fixed() ? 1 : 2);
	}

	@Test
	void configureAppliesItsPlanThroughTheAppliedPlansItIsGiven() {
		ClientRackDecider decider = new ClientRackDecider(PolicySettings.defaults(),
				new ClientSettings(false, ProducerRackSupport.ofClasspath(), new AssignmentStrategy(true),
						ClientIdZone.of("warpstream")),
				() -> DetectedRack.of("az-b", "test"), (consumer) -> {
				}, new ZoneAwareAssignors(), this.applied);
		ClientRequest other = ClientRequest.consumer(ConsumerKind.OTHER, "ledger-export", Map.of());
		this.applied.applying(other, decider.plan(other));
		Map<String, Object> config = new HashMap<>();
		decider.configure(ConsumerKind.OTHER, "ledger-export", config);
		assertThat(config).containsEntry("client.id", "warpstream_az=az-b,ledger-export-2");
	}

	private static ClientRackDecider decider(String rack, String clientIdZone) {
		return new ClientRackDecider(new PolicySettings(Policy.LOCALITY, Map.of(), PolicySettings.defaults()
			.replicaLease(), PolicySettings.defaults().replicaRequestTimeout()),
				new ClientSettings(false, ProducerRackSupport.ofClasspath(), new AssignmentStrategy(true),
						ClientIdZone.of(clientIdZone)),
				() -> DetectedRack.of(rack, "test"), (consumer) -> {
				});
	}

}
