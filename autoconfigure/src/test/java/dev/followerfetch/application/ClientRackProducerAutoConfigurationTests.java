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
package dev.followerfetch.application;

import java.util.HashMap;
import java.util.Map;

import dev.followerfetch.BootApis;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.policy.ProducerRackSupport;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientRackAutoConfiguration} and producer factories, with the
 * kafka-clients capability injected so both branches run on any Kafka version.
 *
 * @author follower-fetch authors
 */
class ClientRackProducerAutoConfigurationTests {

	private static final ProducerRackSupport KAFKA_4_4 = new ProducerRackSupport(true, true, "4.4.0");

	private static final ProducerRackSupport KAFKA_4_1 = new ProducerRackSupport(false, false, "4.1.2");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RackDetectionAutoConfiguration.class, FetchPolicyAutoConfiguration.class, ClientRackAutoConfiguration.class))
		.withPropertyValues("follower-fetch.detection.order=env", "follower-fetch.rack=az-b");

	@Test
	void bootsOwnProducerFactoryGetsTheRackButNoRackAwarePartitioningByDefault() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withBean(ProducerRackSupport.class, () -> KAFKA_4_4)
			.run((context) -> {
				Map<String, Object> configs = ((ProducerFactory<?, ?>) context.getBean(ProducerFactory.class)).getConfigurationProperties();
				assertThat(configs).containsEntry("client.rack", "az-b").doesNotContainKey("partitioner.rack.aware");
			});
	}

	@Test
	void withTheOptionOnEveryProducerFactoryGetsRackAwarePartitioningIncludingOneHeldOnlyByATemplate() {
		this.contextRunner.withUserConfiguration(TemplateOnly.class)
			.withBean(ProducerRackSupport.class, () -> KAFKA_4_4)
			.withPropertyValues("follower-fetch.producer.rack-aware=true")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ProducerFactory.class);
				assertThat(((KafkaTemplate<?, ?>) context.getBean(KafkaTemplate.class)).getProducerFactory().getConfigurationProperties())
					.containsEntry("client.rack", "az-b")
					.containsEntry("partitioner.rack.aware", "true");
			});
	}

	@Test
	void aProducerFactorysOwnRackAndRackAwarenessAreItsOverride() {
		this.contextRunner.withUserConfiguration(ExplicitProducerFactory.class)
			.withBean(ProducerRackSupport.class, () -> KAFKA_4_4)
			.withPropertyValues("follower-fetch.producer.rack-aware=true")
			.run((context) -> assertThat(((ProducerFactory<?, ?>) context.getBean(ProducerFactory.class)).getConfigurationProperties())
				.containsEntry("client.rack", "az-own")
				.containsEntry("partitioner.rack.aware", "false"));
	}

	@Test
	void onKafkaClientsWithoutProducerRacksProducerFactoriesAreLeftUntouched() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withBean(ProducerRackSupport.class, () -> KAFKA_4_1)
			.withPropertyValues("follower-fetch.producer.rack-aware=true")
			.run((context) -> assertThat(((ProducerFactory<?, ?>) context.getBean(ProducerFactory.class)).getConfigurationProperties())
				.doesNotContainKeys("client.rack", "partitioner.rack.aware"));
	}

	@Test
	void theKafkaClientsOnTheClasspathDecideWhetherProducersGetARack() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("follower-fetch.producer.rack-aware=true")
			.run((context) -> {
				boolean supported = ProducerRackSupport.ofClasspath().clientRack();
				Map<String, Object> configs = ((ProducerFactory<?, ?>) context.getBean(ProducerFactory.class)).getConfigurationProperties();
				assertThat(configs.containsKey("client.rack")).isEqualTo(supported);
				assertThat(configs.containsKey("partitioner.rack.aware")).isEqualTo(supported);
			});
	}

	@Test
	void whenDisabledEveryProducerIsLeftUntouched() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withBean(ProducerRackSupport.class, () -> KAFKA_4_4)
			.withPropertyValues("follower-fetch.enabled=false", "follower-fetch.producer.rack-aware=true")
			.run((context) -> assertThat(((ProducerFactory<?, ?>) context.getBean(ProducerFactory.class)).getConfigurationProperties())
				.doesNotContainKeys("client.rack", "partitioner.rack.aware"));
	}

	private static Map<String, Object> producerConfig() {
		return Map.of("bootstrap.servers", "localhost:9092", "key.serializer", StringSerializer.class,
				"value.serializer", StringSerializer.class);
	}

	@Configuration(proxyBeanMethods = false)
	static class TemplateOnly {

		@Bean
		KafkaTemplate<String, String> template() {
			return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(producerConfig()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ExplicitProducerFactory {

		@Bean
		ProducerFactory<String, String> producerFactory() {
			Map<String, Object> config = new HashMap<>(producerConfig());
			config.put("client.rack", "az-own");
			config.put("partitioner.rack.aware", "false");
			return new DefaultKafkaProducerFactory<>(config);
		}

	}

}
