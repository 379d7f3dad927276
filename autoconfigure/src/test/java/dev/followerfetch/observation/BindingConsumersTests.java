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

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.BootApis;
import dev.followerfetch.Policy;
import dev.followerfetch.application.BinderClientRackAutoConfiguration;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.stream.binder.kafka.config.ClientFactoryCustomizer;
import org.springframework.cloud.stream.binder.kafka.support.ConsumerConfigCustomizer;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BindingConsumers}, the observation of Spring Cloud Stream bindings.
 *
 * @author follower-fetch authors
 */
class BindingConsumersTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
				BinderClientRackAutoConfiguration.class, FollowerFetchObservationAutoConfiguration.class))
		.withPropertyValues("follower-fetch.rack=az-b", "spring.kafka.bootstrap-servers=127.0.0.1:9",
				"follower-fetch.observation.timeout=300ms", "follower-fetch.policy.bindings.audit-in-0=freshness");

	@Test
	void eachBindingIsObservedUnderItsNameWithTheConfigurationItsBinderBuilt() {
		this.contextRunner.run((context) -> {
			Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "audit",
					ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:19092"));
			context.getBean(ConsumerConfigCustomizer.class).configure(config, "audit-in-0", "orders");
			context.getBean(ClientFactoryCustomizer.class).configure(new DefaultKafkaConsumerFactory<>(config));
			List<ObservedConsumer> observed = context.getBean(BindingConsumers.class).find().stream().toList();
			assertThat(observed).singleElement().satisfies((binding) -> {
				assertThat(binding.kind()).isEqualTo(ConsumerKind.BINDING);
				assertThat(binding.name()).isEqualTo("audit-in-0");
				assertThat(binding.policy()).isEqualTo(Policy.FRESHNESS);
				assertThat(binding.config()).containsEntry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:19092");
				assertThat(binding.assigned()).isNull();
				assertThat(binding.metrics().get()).isEmpty();
				assertThat(binding.details()).containsEntry("destinations", List.of("orders"))
					.containsEntry("clientRack", "")
					.containsEntry("origin", "PROPERTY");
			});
		});
	}

	@Test
	void withoutTheKafkaBinderNoBindingIsObserved() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ConsumerConfigCustomizer.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(BindingConsumers.class));
	}

	@Test
	void whenDisabledNoBindingIsObserved() {
		this.contextRunner.withPropertyValues("follower-fetch.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(BindingConsumers.class));
	}

}
