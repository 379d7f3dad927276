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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.followerfetch.BootApis;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.ProducerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@code follower-fetch.client-id-zone} across the clients the starter
 * configures. Client ids are read from the clients' own metrics where a client can be
 * built without a broker.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class ClientIdZoneAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				FetchPolicyAutoConfiguration.class, ClientRackAutoConfiguration.class))
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:9", "follower-fetch.rack=az-b");

	@Test
	void byDefaultNoClientIdChanges() {
		this.contextRunner.withPropertyValues("spring.kafka.consumer.client-id=billing").run((context) -> {
			assertThat(consumerConfig(context)).containsEntry("client.id",
					"billing");
			assertThat(producerClientId(context)).matches("producer-[0-9]+");
		});
	}

	@Test
	void bootsProducerFactoryPutsTheTagBeforeSpringKafkasOwnPrefixAndItsCounter() {
		this.contextRunner.withPropertyValues("follower-fetch.client-id-zone=warpstream", "spring.application.name=orders")
			.run((context) -> {
				assertThat(producerClientId(context)).isEqualTo("warpstream_az=az-b,orders-producer-1");
			});
	}

	@Test
	void aProducerFactoryWithItsOwnClientIdKeepsItAfterTheTag() {
		this.contextRunner
			.withPropertyValues("follower-fetch.client-id-zone=automq", "spring.kafka.producer.client-id=ledger")
			.run((context) -> assertThat(producerClientId(context)).isEqualTo("automq_az=az-b&ledger-1"));
	}

	@Test
	void aConsumerFactorysOwnClientIdGetsTheTagFirstAndItsConsumersTheirSuffixAfterIt() {
		this.contextRunner
			.withPropertyValues("follower-fetch.client-id-zone=inkless", "spring.kafka.consumer.client-id=billing")
			.run((context) -> {
				ConsumerFactory<?, ?> factory = (ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class);
				assertThat(factory.getConfigurationProperties()).containsEntry("client.id", "diskless_az=az-b,billing");
				try (Consumer<?, ?> consumer = factory.createConsumer("billing-group", null, "-3")) {
					assertThat(clientIds(consumer.metrics())).containsExactly("diskless_az=az-b,billing-3");
				}
			});
	}

	@Test
	void aConsumerFactoryWithoutAClientIdGetsNoneMadeUpAndEachListenerContainerAPrefixOfItsOwn() {
		this.contextRunner.withUserConfiguration(Listeners.class)
			.withPropertyValues("follower-fetch.client-id-zone=warpstream")
			.run((context) -> {
				assertThat(consumerConfig(context))
					.doesNotContainKey("client.id");
				KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
				assertThat(registry.getListenerContainer("orders").getContainerProperties().getClientId())
					.isEqualTo("warpstream_az=az-b,orders");
				assertThat(registry.getListenerContainer("audit").getContainerProperties().getClientId())
					.isEqualTo("warpstream_az=az-b,audit-trail");
			});
	}

	@Test
	void aListenerWithoutAnIdIsNamedAfterItsGroupAndAClientIdInItsPropertiesWhichSpringKafkaIgnoresIsIgnored() {
		this.contextRunner.withUserConfiguration(UnnamedListeners.class)
			.withPropertyValues("follower-fetch.client-id-zone=warpstream")
			.run((context) -> {
				List<String> prefixes = context.getBean(KafkaListenerEndpointRegistry.class)
					.getListenerContainers()
					.stream()
					.map((container) -> container.getContainerProperties().getClientId())
					.sorted()
					.toList();
				assertThat(prefixes).containsExactly("warpstream_az=az-b,consumer-ledger",
						"warpstream_az=az-b,consumer-ledger-2", "warpstream_az=az-b,named");
			});
	}

	@Test
	void listenerContainersOfAFactoryWithAClientIdFollowTheFactorysTaggedId() {
		this.contextRunner.withUserConfiguration(Listeners.class)
			.withPropertyValues("follower-fetch.client-id-zone=warpstream", "spring.kafka.consumer.client-id=billing")
			.run((context) -> {
				KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
				assertThat(registry.getListenerContainer("orders").getContainerProperties().getClientId()).isEmpty();
				assertThat(registry.getListenerContainer("audit").getContainerProperties().getClientId())
					.isEqualTo("warpstream_az=az-b,audit-trail");
			});
	}

	@Test
	void aKafkaStreamsApplicationIsNamedAfterItsApplicationIdAndAnInstanceIdBehindTheTag() {
		this.contextRunner.withUserConfiguration(Streams.class)
			.withConfiguration(AutoConfigurations.of(StreamsClientRackAutoConfiguration.class))
			.withPropertyValues("follower-fetch.client-id-zone=zone", "spring.kafka.streams.auto-startup=false",
					"spring.kafka.streams.application-id=counts")
			.run((context) -> assertThat(context.getBean("&defaultKafkaStreamsBuilder", StreamsBuilderFactoryBean.class)
				.getStreamsConfiguration()
				.getProperty(StreamsConfig.CLIENT_ID_CONFIG))
				.matches("zone=az-b,counts-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
	}

	@Test
	void aKafkaStreamsApplicationsOwnClientIdFollowsTheTag() {
		this.contextRunner.withUserConfiguration(Streams.class)
			.withConfiguration(AutoConfigurations.of(StreamsClientRackAutoConfiguration.class))
			.withPropertyValues("follower-fetch.client-id-zone=zone", "spring.kafka.streams.auto-startup=false",
					"spring.kafka.streams.application-id=counts", "spring.kafka.streams.client-id=counter")
			.run((context) -> assertThat(context.getBean("&defaultKafkaStreamsBuilder", StreamsBuilderFactoryBean.class)
				.getStreamsConfiguration()).containsEntry(StreamsConfig.CLIENT_ID_CONFIG, "zone=az-b,counter"));
	}

	@Test
	void aKeyThatIsNotOneStopsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("follower-fetch.client-id-zone=my zone")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("follower-fetch.client-id-zone")
				.hasMessageContaining("my zone"));
	}

	@Test
	void withoutADetectedZoneClientIdsAreLeftAloneAndTheLogSaysWhyOnce(CapturedOutput output) {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG,
					RackDetectionAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
					ClientRackAutoConfiguration.class))
			.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:9", "follower-fetch.detection.order=file",
					"follower-fetch.client-id-zone=warpstream", "spring.kafka.consumer.client-id=billing",
					"spring.kafka.producer.client-id=ledger")
			.run((context) -> {
				assertThat(consumerConfig(context)).containsEntry("client.id",
						"billing");
				assertThat(producerClientId(context)).isEqualTo("ledger-1");
				assertThat(output.getOut().split("follower-fetch.client-id-zone=warpstream adds no warpstream_az"))
					.hasSize(2);
				assertThat(output).contains("no zone was detected");
			});
	}

	private static Map<String, Object> consumerConfig(BeanFactory context) {
		return ((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties();
	}

	private static String producerClientId(BeanFactory context) {
		try (Producer<?, ?> producer = ((ProducerFactory<?, ?>) context.getBean(ProducerFactory.class)).createProducer()) {
			Set<String> clientIds = clientIds(producer.metrics());
			producer.close(Duration.ZERO);
			assertThat(clientIds).hasSize(1);
			return clientIds.iterator().next();
		}
	}

	private static Set<String> clientIds(Map<MetricName, ? extends Metric> metrics) {
		return metrics.keySet()
			.stream()
			.map((name) -> name.tags().get("client-id"))
			.filter((id) -> id != null)
			.collect(Collectors.toSet());
	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafka
	static class Listeners {

		@KafkaListener(id = "orders", topics = "orders", autoStartup = "false", concurrency = "2")
		void orders(String value) {
		}

		@KafkaListener(id = "audit", clientIdPrefix = "audit-trail", topics = "audit", autoStartup = "false")
		void audit(String value) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafka
	static class UnnamedListeners {

		@KafkaListener(groupId = "ledger", topics = "ledger", autoStartup = "false")
		void first(String value) {
		}

		@KafkaListener(groupId = "ledger", topics = "ledger", autoStartup = "false")
		void second(String value) {
		}

		@KafkaListener(id = "named", topics = "ledger", autoStartup = "false", properties = "client.id=ignored")
		void named(String value) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafkaStreams
	static class Streams {

	}

}
