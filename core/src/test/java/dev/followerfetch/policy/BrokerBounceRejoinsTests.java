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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which kafka-clients versions rejoin on every broker restart.
 *
 * @author follower-fetch authors
 */
class BrokerBounceRejoinsTests {

	@Test
	void clientsBefore44RejoinAndFrom44OnTheyDoNot() {
		assertThat(BrokerBounceRejoins.of("3.9.1").fixed()).isFalse();
		assertThat(BrokerBounceRejoins.of("4.1.2").fixed()).isFalse();
		assertThat(BrokerBounceRejoins.of("4.3.1").fixed()).isFalse();
		assertThat(BrokerBounceRejoins.of("4.4.0").fixed()).isTrue();
		assertThat(BrokerBounceRejoins.of("4.4.1-SNAPSHOT").fixed()).isTrue();
		assertThat(BrokerBounceRejoins.of("5.0.0").fixed()).isTrue();
	}

	@Test
	void aVersionThatCannotBeReadIsClaimedNothingOf() {
		assertThat(BrokerBounceRejoins.of("unknown").fixed()).isTrue();
		assertThat(BrokerBounceRejoins.of("4.x").fixed()).isTrue();
	}

	@Test
	void theClientsOnTheClassPathAreRead() {
		BrokerBounceRejoins here = BrokerBounceRejoins.ofClasspath();
		assertThat(here.kafkaVersion()).matches("\\d+\\.\\d+\\.\\d+.*");
		assertThat(here.fixed()).isEqualTo(BrokerBounceRejoins.of(here.kafkaVersion()).fixed());
	}

}
