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

package dev.followerfetch.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link IsolatedBrokers}: when the brokers run isolated, and what an
 * application without the brokers' jar is told. The brokers themselves run isolated in the
 * Spring Boot 3.5 application of the boot-3.5 CI leg ({@code compat/boot-3.5}).
 *
 * @author follower-fetch authors
 */
class IsolatedBrokersTests {

	@AfterEach
	void clearMode() {
		System.clearProperty(IsolatedBrokers.MODE_PROPERTY);
	}

	@Test
	void kafkaOlderThanFourOneRunsTheBrokersIsolated() {
		assertThat(IsolatedBrokers.inProcessLine("3.9.1")).isFalse();
		assertThat(IsolatedBrokers.inProcessLine("3.7.0")).isFalse();
		assertThat(IsolatedBrokers.inProcessLine("4.0.0")).isFalse();
		assertThat(IsolatedBrokers.inProcessLine("2.8.2")).isFalse();
	}

	@Test
	void kafkaFourOneAndLaterRunsTheBrokersInProcess() {
		assertThat(IsolatedBrokers.inProcessLine("4.1.2")).isTrue();
		assertThat(IsolatedBrokers.inProcessLine("4.4.0")).isTrue();
		assertThat(IsolatedBrokers.inProcessLine("5.0.0-SNAPSHOT")).isTrue();
		assertThat(IsolatedBrokers.inProcessLine("unknown")).as("left to KafkaInternals to say what fails").isTrue();
	}

	@Test
	void onThisClassPathTheBrokersRunInProcessUnlessTheModeSaysOtherwise() {
		assertThat(IsolatedBrokers.needed()).isFalse();
		System.setProperty(IsolatedBrokers.MODE_PROPERTY, "isolated");
		assertThat(IsolatedBrokers.needed()).isTrue();
		System.setProperty(IsolatedBrokers.MODE_PROPERTY, " in-process ");
		assertThat(IsolatedBrokers.needed()).isFalse();
	}

	@Test
	void anUnknownModeNamesTheProperty() {
		System.setProperty(IsolatedBrokers.MODE_PROPERTY, "forked");
		assertThatIllegalStateException().isThrownBy(IsolatedBrokers::needed)
			.withMessage("follower-fetch.test.brokers=forked is neither 'isolated' nor 'in-process'");
	}

	@Test
	void theZoneNetworkNeedsTheBrokersInProcessAndSaysSo() {
		System.setProperty(IsolatedBrokers.MODE_PROPERTY, "isolated");
		assertThatIllegalStateException().isThrownBy(() -> MultiZoneKafkaCluster.builder().zoneNetwork().start())
			.withMessageContaining("The zone network needs the brokers on the application's class path");
	}

	@Test
	void isolatedBrokersWithoutTheirJarNameTheDependencyToAdd() {
		assertThatIllegalStateException()
			.isThrownBy(() -> IsolatedBrokers.build(List.of("az-a"), true, Map.of(), Duration.ofSeconds(5)))
			.withMessageContaining("dev.followerfetch:follower-fetch-test-brokers")
			.withMessageContaining("docs/testing.md");
	}

}
