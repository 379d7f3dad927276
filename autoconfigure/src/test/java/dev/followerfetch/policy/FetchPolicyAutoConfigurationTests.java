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

import dev.followerfetch.BootApis;
import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.Policy;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FetchPolicyAutoConfiguration}: the decider it configures from the
 * properties. What each listener gets is in {@code ListenerClientRackConfigurationTests}.
 *
 * @author follower-fetch authors
 */
class FetchPolicyAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class))
		.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.detection.order=env",
				"spring.kafka.bootstrap-servers=127.0.0.1:9", "spring.kafka.listener.auto-startup=false");

	@Test
	void thePropertiesDefaultsAreThePolicysOwn() {
		PolicySettings fromProperties = FetchPolicyAutoConfiguration
			.policySettings(new FollowerFetchProperties().getPolicy());
		PolicySettings defaults = PolicySettings.defaults();
		assertThat(fromProperties.defaultPolicy()).isEqualTo(defaults.defaultPolicy());
		assertThat(fromProperties.replicaLease()).isEqualTo(defaults.replicaLease());
		assertThat(fromProperties.replicaRequestTimeout()).isEqualTo(defaults.replicaRequestTimeout());
		assertThat(fromProperties.named().values()).allSatisfy((named) -> assertThat(named).isEmpty());
	}

	@Test
	void anEmptyDefaultPolicyMeansLocality() {
		this.contextRunner.withPropertyValues("follower-fetch.policy.default=")
			.run((context) -> assertThat(context.getBean(ClientRackDecider.class).defaultPolicy())
				.isEqualTo(Policy.LOCALITY));
	}

	@Test
	void anApplicationsOwnDeciderReplacesTheStartersOne() {
		ClientRackDecider own = new ClientRackDecider(PolicySettings.defaults(),
				() -> DetectedRack.of("az-c", "test"));
		this.contextRunner.withBean(ClientRackDecider.class, () -> own)
			.run((context) -> assertThat(context.getBean(ClientRackDecider.class)).isSameAs(own));
	}

	@Test
	void anInvalidPolicyValueFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("follower-fetch.policy.listeners.payments=fastest")
			.run((context) -> assertThat(context).getFailure()
				.hasRootCauseInstanceOf(IllegalArgumentException.class)
				.hasStackTraceContaining("Failed to bind properties under 'follower-fetch.policy.listeners.payments'")
				.hasStackTraceContaining("fastest"));
	}

}
