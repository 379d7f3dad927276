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

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.followerfetch.BootApis;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.detection.RackLookup;
import dev.followerfetch.detection.RackNotDetectedException;
import dev.followerfetch.detection.RackSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientRackAutoConfiguration} with {@link RackDetectionAutoConfiguration}.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientRackAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(RackDetectionAutoConfiguration.class, FetchPolicyAutoConfiguration.class, ClientRackAutoConfiguration.class))
		.withPropertyValues("follower-fetch.detection.order=env");

	@Test
	void userDefinedConsumerFactoryGetsTheConfiguredRack() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b")
			.run((context) -> assertThat(clientRack(context.getBean(ConsumerFactory.class))).isEqualTo("az-b"));
	}

	@Test
	void bootsOwnConsumerFactoryGetsTheRackFromAnEnvironmentVariable() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("KAFKA_CLIENT_RACK=use1-az2")
			.run((context) -> {
				assertThat(clientRack(context.getBean(ConsumerFactory.class))).isEqualTo("use1-az2");
				DetectedRack detected = context.getBean(DetectedRack.class);
				assertThat(detected.source()).contains("env:KAFKA_CLIENT_RACK");
			});
	}

	@Test
	void explicitClientRackInBootsConsumerPropertiesIsKeptAndReportedAsTheSource() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("spring.kafka.consumer.properties.client.rack=rack-7", "follower-fetch.rack=az-b")
			.run((context) -> {
				assertThat(clientRack(context.getBean(ConsumerFactory.class))).isEqualTo("rack-7");
				DetectedRack detected = context.getBean(DetectedRack.class);
				assertThat(detected.rack()).contains("rack-7");
				assertThat(detected.source()).contains("property:spring.kafka.consumer.properties.client.rack");
			});
	}

	@Test
	void userDefinedConsumerFactoryWithItsOwnClientRackKeepsIt() {
		this.contextRunner.withUserConfiguration(ExplicitRackConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b")
			.run((context) -> assertThat(clientRack(context.getBean(ConsumerFactory.class))).isEqualTo("az-own"));
	}

	@Test
	void everyConsumerFactoryInTheContextIsCustomizedIncludingOnesHeldOnlyByAContainerFactory() {
		this.contextRunner.withUserConfiguration(SeveralConsumerFactories.class)
			.withPropertyValues("follower-fetch.rack=az-c")
			.run((context) -> {
				assertThat(context.getBeansOfType(ConsumerFactory.class)).hasSize(2)
					.allSatisfy((name, factory) -> assertThat(clientRack(factory)).isEqualTo("az-c"));
				ConcurrentKafkaListenerContainerFactory<?, ?> containerFactory = context
					.getBean(ConcurrentKafkaListenerContainerFactory.class);
				assertThat(clientRack(containerFactory.getConsumerFactory())).isEqualTo("az-c");
			});
	}

	@Test
	void consumerFactoryHeldOnlyByAContainerDeclaredAsABeanGetsTheRack() {
		this.contextRunner.withUserConfiguration(ContainerBean.class)
			.withPropertyValues("follower-fetch.rack=az-c")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ConsumerFactory.class);
				assertThat(clientRack(context.getBean(ContainerBean.class).consumerFactory)).isEqualTo("az-c");
			});
	}

	@Test
	void bootsOwnConsumerFactoryGetsTheZoneAwareAssignorOverRangeThenCooperativeStickyToRebalanceCooperatively() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.policy.default=freshness")
			.run((context) -> {
				Map<String, Object> configs = ((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties();
				assertThat(configs).containsEntry(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
						ZoneAwareAssignor.class.getName() + "," + CooperativeStickyAssignor.class.getName())
					.containsEntry(ZoneAwareAssignor.WRAPPED_CONFIG, RangeAssignor.class.getName())
					.containsEntry(ZoneAwareAssignor.ZONE_CONFIG, "az-b");
			});
	}

	@Test
	void theZoneAwareAssignorGoesBeforeTheKafkaStrategyAFactorySetsItself() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("follower-fetch.rack=az-b",
					"spring.kafka.consumer.properties.partition.assignment.strategy="
							+ CooperativeStickyAssignor.class.getName())
			.run((context) -> assertThat(strategy(context.getBean(ConsumerFactory.class)))
				.isEqualTo(ZoneAwareAssignor.class.getName() + "," + CooperativeStickyAssignor.class.getName()));
	}

	@Test
	void aFactoryThatNamesItsOwnAssignorKeepsItAndTheLogSaysSo(CapturedOutput output) {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("follower-fetch.rack=az-b",
					"spring.kafka.consumer.properties.partition.assignment.strategy=com.example.PinnedAssignor")
			.run((context) -> {
				ConsumerFactory<?, ?> factory = context.getBean(ConsumerFactory.class);
				assertThat(strategy(factory)).isEqualTo("com.example.PinnedAssignor");
				assertThat(factory.getConfigurationProperties()).doesNotContainKey(ZoneAwareAssignor.ZONE_CONFIG);
				assertThat(output).contains("keeps its own partition.assignment.strategy=[com.example.PinnedAssignor]");
			});
	}

	@Test
	void aFactoryOfTheConsumerGroupProtocolOrWithAssignmentDisabledGetsNoAssignor() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("follower-fetch.rack=az-b", "spring.kafka.consumer.properties.group.protocol=consumer")
			.run((context) -> assertThat(strategy(context.getBean(ConsumerFactory.class))).isNull());
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.assignment.enabled=false")
			.run((context) -> assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
				.doesNotContainKeys(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, ZoneAwareAssignor.ZONE_CONFIG));
	}

	@Test
	void whenDisabledEveryConsumerIsLeftUntouched() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.enabled=false", "follower-fetch.rack=az-b")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(DetectedRack.class)
					.doesNotHaveBean(ClientRackConsumerFactoryPostProcessor.class);
				assertThat(clientRack(context.getBean(ConsumerFactory.class))).isNull();
			});
	}

	@Test
	void whenSpringKafkaIsAbsentTheAutoConfigurationBacksOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ConsumerFactory.class))
			.withPropertyValues("follower-fetch.rack=az-b")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(DetectedRack.class)
				.doesNotHaveBean(ClientRackConsumerFactoryPostProcessor.class));
	}

	@Test
	void whenNoRackIsFoundStartupGoesOnAndConsumersStayOnTheLeader() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(DetectedRack.class).rack()).isEmpty();
			assertThat(clientRack(context.getBean(ConsumerFactory.class))).isNull();
		});
	}

	@Test
	void whenARackIsRequiredAndNoneIsFoundStartupFailsNamingEverySourceTried() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.detection.required=true", "follower-fetch.detection.order=env,file")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(RackNotDetectedException.class)
				.hasMessageContaining("follower-fetch.detection.required")
				.hasMessageContaining("env: not found, KAFKA_CLIENT_RACK not set")
				.hasMessageContaining("file: not found, follower-fetch.detection.file.path not set"));
	}

	@Test
	void anApplicationsOwnRackSourceJoinsTheChainBeforeTheBuiltInOnes() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class, CustomRackSource.class)
			.withPropertyValues("KAFKA_CLIENT_RACK=az-env")
			.run((context) -> {
				DetectedRack detected = context.getBean(DetectedRack.class);
				assertThat(detected.rack()).contains("az-node");
				assertThat(detected.source()).contains("node-label:topology.kubernetes.io/zone");
				assertThat(clientRack(context.getBean(ConsumerFactory.class))).isEqualTo("az-node");
			});
	}

	@Test
	void anApplicationsOwnRackSourceCanBePlacedByNamingItInTheOrder() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class, CustomRackSource.class)
			.withPropertyValues("KAFKA_CLIENT_RACK=az-env", "follower-fetch.detection.order=env,node-label")
			.run((context) -> assertThat(context.getBean(DetectedRack.class).rack()).contains("az-env"));
	}

	@Test
	void anInvalidExplicitRackFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("follower-fetch.rack=az b\u0007")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("follower-fetch.rack"));
	}

	@Test
	void anUnknownSourceInTheOrderFailsStartupNamingTheKnownSources() {
		this.contextRunner.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.detection.order=env,k8s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("follower-fetch.detection.order")
				.hasMessageContaining("Unknown source k8s")
				.hasMessageContaining("env, file, ecs, kubernetes, aws, gcp, azure"));
	}

	@Test
	void aNonPositiveTimeoutFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("follower-fetch.detection.timeout=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("follower-fetch.detection.timeout"));
	}

	@Test
	void consumerFactoryReadingWithARackGetsTheReplicaLeaseAsItsMetadataMaxAge() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b")
			.run((context) -> assertThat(metadataMaxAge(context.getBean(ConsumerFactory.class))).isEqualTo("30000"));
	}

	@Test
	void replicaLeaseIsConfigurable() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.policy.replica-lease=10s")
			.run((context) -> assertThat(metadataMaxAge(context.getBean(ConsumerFactory.class))).isEqualTo("10000"));
	}

	@Test
	void metadataMaxAgeSetByTheApplicationIsKept() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG))
			.withPropertyValues("follower-fetch.rack=az-b", "spring.kafka.consumer.properties.metadata.max.age.ms=120000")
			.run((context) -> {
				ConsumerFactory<?, ?> factory = context.getBean(ConsumerFactory.class);
				assertThat(clientRack(factory)).isEqualTo("az-b");
				assertThat(metadataMaxAge(factory)).isEqualTo("120000");
			});
	}

	@Test
	void zeroReplicaLeaseLeavesKafkasDefaultInForce() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.policy.replica-lease=0")
			.run((context) -> {
				assertThat(clientRack(context.getBean(ConsumerFactory.class))).isEqualTo("az-b");
				assertThat(metadataMaxAge(context.getBean(ConsumerFactory.class))).isNull();
			});
	}

	@Test
	void consumerFactoryWithoutARackGetsNoReplicaLease() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.run((context) -> assertThat(metadataMaxAge(context.getBean(ConsumerFactory.class))).isNull());
	}

	@Test
	void consumerFactoryWithItsOwnRackStillGetsTheReplicaLease() {
		this.contextRunner.withUserConfiguration(ExplicitRackConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b")
			.run((context) -> assertThat(metadataMaxAge(context.getBean(ConsumerFactory.class))).isEqualTo("30000"));
	}

	@Test
	void consumerFactoryOfAFreshnessDefaultGetsTheReplicaLeaseForItsLocalityListeners() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.policy.default=freshness")
			.run((context) -> {
				assertThat(clientRack(context.getBean(ConsumerFactory.class))).isNull();
				assertThat(metadataMaxAge(context.getBean(ConsumerFactory.class))).isEqualTo("30000");
			});
	}

	@Test
	void negativeReplicaLeaseFailsStartupNamingTheProperty() {
		this.contextRunner.withUserConfiguration(OneConsumerFactory.class)
			.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.policy.replica-lease=-1s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("follower-fetch.policy.replica-lease")
				.hasMessageContaining("30s"));
	}

	private static Object metadataMaxAge(ConsumerFactory<?, ?> factory) {
		return factory.getConfigurationProperties().get(ConsumerConfig.METADATA_MAX_AGE_CONFIG);
	}

	private static Object strategy(ConsumerFactory<?, ?> factory) {
		return factory.getConfigurationProperties().get(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
	}

	private static Object clientRack(ConsumerFactory<?, ?> factory) {
		return factory.getConfigurationProperties().get(ConsumerConfig.CLIENT_RACK_CONFIG);
	}

	private static Map<String, Object> consumerConfigs() {
		Map<String, Object> configs = new HashMap<>();
		configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
		return configs;
	}

	@Configuration(proxyBeanMethods = false)
	static class OneConsumerFactory {

		@Bean
		DefaultKafkaConsumerFactory<String, String> consumerFactory() {
			return new DefaultKafkaConsumerFactory<>(consumerConfigs());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ExplicitRackConsumerFactory {

		@Bean
		DefaultKafkaConsumerFactory<String, String> consumerFactory() {
			Map<String, Object> configs = consumerConfigs();
			configs.put(ConsumerConfig.CLIENT_RACK_CONFIG, "az-own");
			return new DefaultKafkaConsumerFactory<>(configs);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SeveralConsumerFactories {

		@Bean
		DefaultKafkaConsumerFactory<String, String> ordersConsumerFactory() {
			return new DefaultKafkaConsumerFactory<>(consumerConfigs());
		}

		@Bean
		DefaultKafkaConsumerFactory<String, String> paymentsConsumerFactory() {
			return new DefaultKafkaConsumerFactory<>(consumerConfigs());
		}

		@Bean
		ConcurrentKafkaListenerContainerFactory<String, String> inlineContainerFactory() {
			ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
			factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(consumerConfigs()));
			return factory;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ContainerBean {

		private final DefaultKafkaConsumerFactory<String, String> consumerFactory = new DefaultKafkaConsumerFactory<>(
				consumerConfigs());

		@Bean
		ConcurrentMessageListenerContainer<String, String> ordersContainer() {
			ContainerProperties properties = new ContainerProperties("orders");
			properties.setGroupId("orders");
			properties.setMessageListener((MessageListener<String, String>) (record) -> {
			});
			ConcurrentMessageListenerContainer<String, String> container = new ConcurrentMessageListenerContainer<>(
					this.consumerFactory, properties);
			container.setAutoStartup(false);
			return container;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomRackSource {

		@Bean
		RackSource nodeLabelRackSource() {
			return new RackSource() {

				@Override
				public String name() {
					return "node-label";
				}

				@Override
				public RackLookup lookup(Duration timeout) {
					return RackLookup.found("topology.kubernetes.io/zone", "az-node");
				}

			};
		}

	}

}
