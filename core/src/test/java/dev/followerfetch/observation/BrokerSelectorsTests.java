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
package dev.followerfetch.observation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.Node;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BrokerSelectors}.
 *
 * @author follower-fetch authors
 */
class BrokerSelectorsTests {

	private static final ClusterView.Selector RACK_AWARE = new ClusterView.Selector(
			"org.apache.kafka.common.replica.RackAwareReplicaSelector", true);

	private static final Node A = new Node(0, "localhost", 9092, "az-a");

	private static final Node B = new Node(1, "localhost", 9093, "az-b");

	private static final Node C = new Node(2, "localhost", 9094, "az-c");

	private final AtomicLong nanos = new AtomicLong();

	private final BrokerSelectors selectors = new BrokerSelectors(this.nanos::get, new SplittableRandom(1));

	@Test
	void everyBrokerIsAskedOnceThenOnlyThoseOfThisZone() {
		assertThat(this.selectors.toAsk(List.of(A, B, C), "az-b")).containsExactly(0, 1, 2);
		answerAll(A, B, C);
		for (int i = 0; i < 20; i++) {
			this.nanos.addAndGet(Duration.ofSeconds(30).toNanos());
			assertThat(this.selectors.toAsk(List.of(A, B, C), "az-b")).containsExactly(1);
			this.selectors.answered(B, RACK_AWARE, null);
		}
		assertThat(this.selectors.selectors(List.of(0, 1, 2))).containsOnlyKeys(0, 1, 2);
	}

	@Test
	void withoutAZoneNoBrokerIsAskedAgainBeforeItsAnswerIsTenMinutesOld() {
		this.selectors.toAsk(List.of(A, B, C), null);
		answerAll(A, B, C);
		this.nanos.addAndGet(Duration.ofMinutes(10).minusSeconds(1).toNanos());
		assertThat(this.selectors.toAsk(List.of(A, B, C), null)).isEmpty();
		this.nanos.addAndGet(Duration.ofMinutes(3).toNanos());
		assertThat(this.selectors.toAsk(List.of(A, B, C), null)).containsExactly(0, 1, 2);
	}

	@Test
	void aBrokerThatWasMissingFromTheClusterIsAskedWhenItComesBack() {
		this.selectors.toAsk(List.of(A, B, C), null);
		answerAll(A, B, C);
		assertThat(this.selectors.toAsk(List.of(A, B), null)).isEmpty();
		assertThat(this.selectors.toAsk(List.of(A, B, C), null)).containsExactly(2);
	}

	@Test
	void aBrokerWithANewAddressIsAskedAgain() {
		this.selectors.toAsk(List.of(A, B, C), null);
		answerAll(A, B, C);
		assertThat(this.selectors.toAsk(List.of(A, B, new Node(2, "localhost", 9095, "az-c")), null))
			.containsExactly(2);
	}

	@Test
	void aBrokerThatDidNotAnswerIsAskedAtTheNextInspection() {
		this.selectors.toAsk(List.of(A, B, C), null);
		answerAll(A, B);
		assertThat(this.selectors.toAsk(List.of(A, B, C), null)).containsExactly(2);
		assertThat(this.selectors.selectors(List.of(0, 1, 2))).containsOnlyKeys(0, 1);
	}

	@Test
	void aKnownBrokerThatDoesNotAnswerIsAskedAgainAtTheNextInspection() {
		this.selectors.toAsk(List.of(A, B, C), null);
		answerAll(A, B, C);
		this.nanos.addAndGet(Duration.ofMinutes(13).toNanos());
		assertThat(this.selectors.toAsk(List.of(A, B, C), null)).containsExactly(0, 1, 2);
		answerAll(A, B);
		this.selectors.unanswered(C);
		assertThat(this.selectors.selectors(List.of(0, 1, 2))).containsOnlyKeys(0, 1);
		assertThat(this.selectors.toAsk(List.of(A, B, C), null)).containsExactly(2);
	}

	@Test
	void aRefusalIsKeptLikeAnAnswer() {
		this.selectors.toAsk(List.of(A, B, C), null);
		answerAll(A, B);
		this.selectors.answered(C, null, "ClusterAuthorizationException: denied");
		assertThat(this.selectors.toAsk(List.of(A, B, C), null)).isEmpty();
		assertThat(this.selectors.refusals(List.of(0, 1, 2)))
			.isEqualTo(Map.of(2, "ClusterAuthorizationException: denied"));
	}

	private void answerAll(Node... nodes) {
		for (Node node : nodes) {
			this.selectors.answered(node, RACK_AWARE, null);
		}
	}

}
