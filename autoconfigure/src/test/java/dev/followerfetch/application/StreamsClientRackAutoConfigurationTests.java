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
import java.util.Properties;

import dev.followerfetch.BootApis;
import dev.followerfetch.Policy;
import dev.followerfetch.application.StreamsApplications.StreamsApplication;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StreamsClientRackAutoConfiguration}. Every effective value is read the
 * way Kafka Streams reads it, through {@link StreamsConfig}.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class StreamsClientRackAutoConfigurationTests {

	private static final String BOOTS_FACTORY = "&defaultKafkaStreamsBuilder";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
				StreamsClientRackAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:9", "spring.kafka.streams.auto-startup=false",
				"spring.kafka.streams.application-id=counts", "follower-fetch.rack=az-b");

	@Test
	void bootsFactoryGetsTheRackForItsMainRestoreAndGlobalConsumers() {
		this.contextRunner.withUserConfiguration(BootsFactory.class).run((context) -> {
			Properties config = streamsConfiguration(context, BOOTS_FACTORY);
			assertThat(config).containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b");
			assertThat(clientRacks(config)).containsExactly("az-b", "az-b", "az-b");
			StreamsApplication counts = context.getBean(StreamsApplications.class).get("counts").orElseThrow();
			assertThat(counts.policy().policy()).isEqualTo(Policy.LOCALITY);
			assertThat(counts.policy().origin()).isEqualTo(Origin.DEFAULT);
			assertThat(counts.rackAwareAssignmentStrategy()).isEqualTo("none");
			assertThat(counts.clientRacks()).isEqualTo(Map.of("main", "az-b", "restore", "az-b", "global", "az-b"));
		});
	}

	@Test
	void aFactoryTheApplicationDeclaresGetsTheRackToo() {
		this.contextRunner.withUserConfiguration(OwnFactory.class).run((context) -> {
			assertThat(clientRacks(streamsConfiguration(context, "&ownStreams"))).containsExactly("az-b", "az-b",
					"az-b");
			assertThat(context.getBean(StreamsApplications.class).applicationIds()).containsExactly("own");
		});
	}

	@Test
	void freshnessKeepsTheMainConsumerOnTheLeadersWhileRestoreAndGlobalReadInZone() {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("follower-fetch.policy.streams.counts=freshness")
			.run((context) -> {
				Properties config = streamsConfiguration(context, BOOTS_FACTORY);
				assertThat(config).containsEntry("main.consumer.client.rack", "");
				assertThat(clientRacks(config)).containsExactly("", "az-b", "az-b");
				StreamsApplication counts = context.getBean(StreamsApplications.class).get("counts").orElseThrow();
				assertThat(counts.policy().policy()).isEqualTo(Policy.FRESHNESS);
				assertThat(counts.policy().origin()).isEqualTo(Origin.PROPERTY);
			});
	}

	@Test
	void aFreshnessDefaultAppliesToStreamsApplicationsThatSayNothing() {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("follower-fetch.policy.default=freshness")
			.run((context) -> assertThat(clientRacks(streamsConfiguration(context, BOOTS_FACTORY)))
				.containsExactly("", "az-b", "az-b"));
	}

	@Test
	void aPropertyNamingAnotherApplicationLeavesThisOneAlone() {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("follower-fetch.policy.streams.other=freshness")
			.run((context) -> assertThat(clientRacks(streamsConfiguration(context, BOOTS_FACTORY)))
				.containsExactly("az-b", "az-b", "az-b"));
	}

	@ParameterizedTest(name = "{0}{1}={2}")
	@CsvSource({ "spring.kafka.streams.properties., client.rack, az-x, az-x, az-x, az-x",
			"spring.kafka.properties., client.rack, az-x, az-x, az-x, az-x",
			"spring.kafka.streams.properties., consumer.client.rack, az-x, az-x, az-x, az-x",
			"spring.kafka.streams.properties., main.consumer.client.rack, az-x, az-x, az-b, az-b",
			"spring.kafka.streams.properties., main.consumer.client.rack, '', '', az-b, az-b",
			"spring.kafka.streams.properties., restore.consumer.client.rack, '', az-b, '', az-b",
			"spring.kafka.properties., global.consumer.client.rack, '', az-b, az-b, ''" })
	void anExplicitRackInBootsPropertiesIsKept(String prefix, String name, String value, String main, String restore,
			String global) {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues(prefix + name + "=" + value)
			.run((context) -> {
				Properties config = streamsConfiguration(context, BOOTS_FACTORY);
				assertThat(config).containsEntry(name, value);
				assertThat(clientRacks(config)).containsExactly(main, restore, global);
			});
	}

	@Test
	void aRackTheMainConsumerIsGivenBeatsThePolicyProperty() {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("spring.kafka.streams.properties.client.rack=az-x",
					"follower-fetch.policy.streams.counts=freshness")
			.run((context) -> {
				assertThat(clientRacks(streamsConfiguration(context, BOOTS_FACTORY))).containsExactly("az-x", "az-x",
						"az-x");
				StreamsApplication counts = context.getBean(StreamsApplications.class).get("counts").orElseThrow();
				assertThat(counts.policy().policy()).isEqualTo(Policy.LOCALITY);
				assertThat(counts.policy().origin()).isEqualTo(Origin.OWN_CLIENT_RACK);
			});
	}

	@Test
	void anExplicitRackInTheFactorysOwnConfigurationIsKept() {
		this.contextRunner.withUserConfiguration(OwnFactory.class)
			.withPropertyValues("test.own.main.consumer.client.rack=az-c")
			.run((context) -> assertThat(clientRacks(streamsConfiguration(context, "&ownStreams")))
				.containsExactly("az-c", "az-b", "az-b"));
	}

	@Test
	void theConsumersGetTheReplicaLeaseAndTheProducerKeepsItsMetadataAge() {
		this.contextRunner.withUserConfiguration(BootsFactory.class).run((context) -> {
			StreamsConfig config = new StreamsConfig(streamsConfiguration(context, BOOTS_FACTORY));
			assertThat(config.getMainConsumerConfigs("g", "c", 0)).containsEntry("metadata.max.age.ms", "30000");
			assertThat(config.getRestoreConsumerConfigs("c")).containsEntry("metadata.max.age.ms", "30000");
			assertThat(config.getGlobalConsumerConfigs("c")).containsEntry("metadata.max.age.ms", "30000");
			assertThat(config.getProducerConfigs("c")).doesNotContainKey("metadata.max.age.ms");
		});
	}

	@Test
	void anOwnMetadataAgeIsKept() {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("spring.kafka.streams.properties.metadata.max.age.ms=60000")
			.run((context) -> {
				Properties config = streamsConfiguration(context, BOOTS_FACTORY);
				assertThat(config).doesNotContainKey("consumer.metadata.max.age.ms");
				assertThat(new StreamsConfig(config).getRestoreConsumerConfigs("c"))
					.containsEntry("metadata.max.age.ms", "60000");
			});
	}

	@Test
	void eachStreamsApplicationsPolicyIsLogged(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("follower-fetch.policy.streams.counts=freshness")
			.run((context) -> assertThat(output).contains("Kafka Streams fetch policy: counts=FRESHNESS "
					+ "(follower-fetch.policy.streams); client.rack main='', restore=az-b, global=az-b; "
					+ "rack.aware.assignment.strategy=none"));
	}

	@Test
	void aPolicyForAnUnknownApplicationIdIsReportedWithTheKnownIds(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("follower-fetch.policy.streams.cuonts=freshness")
			.run((context) -> assertThat(output).contains("follower-fetch.policy.streams names [cuonts], but there "
					+ "is no Kafka Streams application with that id. Known Kafka Streams application ids: [counts]"));
	}

	@Test
	void theRackAwareAssignmentStrategyIsShownAsConfigured() {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("spring.kafka.streams.properties.rack.aware.assignment.strategy=balance_subtopology")
			.run((context) -> assertThat(context.getBean(StreamsApplications.class).get("counts").orElseThrow())
				.extracting(StreamsApplication::rackAwareAssignmentStrategy)
				.isEqualTo("balance_subtopology"));
	}

	@Test
	void withoutKafkaStreamsOnTheClassPathStreamsSupportBacksOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(KafkaStreams.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(StreamsApplications.class)
				.doesNotHaveBean(StreamsClientRackPostProcessor.class));
	}

	@Test
	void whenDisabledStreamsApplicationsAreLeftUntouched() {
		this.contextRunner.withUserConfiguration(BootsFactory.class)
			.withPropertyValues("follower-fetch.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(StreamsClientRackPostProcessor.class);
				assertThat(streamsConfiguration(context, BOOTS_FACTORY)).doesNotContainKeys("client.rack",
						"main.consumer.client.rack", "consumer.metadata.max.age.ms");
			});
	}

	private static Properties streamsConfiguration(AssertableApplicationContext context, String factory) {
		assertThat(context).hasNotFailed();
		return context.getBean(factory, StreamsBuilderFactoryBean.class).getStreamsConfiguration();
	}

	private static String[] clientRacks(Properties properties) {
		StreamsConfig config = new StreamsConfig(properties);
		return new String[] { rack(config.getMainConsumerConfigs("g", "c", 0)),
				rack(config.getRestoreConsumerConfigs("c")), rack(config.getGlobalConsumerConfigs("c")) };
	}

	private static String rack(Map<String, Object> consumerConfig) {
		Object rack = consumerConfig.get(ConsumerConfig.CLIENT_RACK_CONFIG);
		return (rack != null) ? rack.toString() : "";
	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafkaStreams
	static class BootsFactory {

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnFactory {

		@Bean
		StreamsBuilderFactoryBean ownStreams(@Value("${test.own.main.consumer.client.rack:#{null}}") String mainRack) {
			Map<String, Object> config = new HashMap<>();
			config.put(StreamsConfig.APPLICATION_ID_CONFIG, "own");
			config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
			if (mainRack != null) {
				config.put("main.consumer.client.rack", mainRack);
			}
			StreamsBuilderFactoryBean factory = new StreamsBuilderFactoryBean(new KafkaStreamsConfiguration(config));
			factory.setAutoStartup(false);
			return factory;
		}

	}

}
