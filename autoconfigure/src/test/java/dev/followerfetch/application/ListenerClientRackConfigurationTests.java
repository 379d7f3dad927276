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

import java.util.Properties;

import dev.followerfetch.BootApis;
import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaHandler;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ListenerClientRackConfiguration}: which {@code client.rack} each
 * listener container gets, and why. Containers are not started, so no broker is needed.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class ListenerClientRackConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class))
		.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.detection.order=env",
				"spring.kafka.bootstrap-servers=127.0.0.1:9", "spring.kafka.listener.auto-startup=false");

	@Test
	void aFreshnessMethodAnnotationKeepsThatListenerOnTheLeader() {
		this.contextRunner.withUserConfiguration(Listeners.class).run((context) -> {
			assertThat(clientRack(context, "payments")).isEmpty();
			assertThat(policy(context, "payments")).isEqualTo(ConsumerPolicy.listener("payments", Policy.FRESHNESS,
					Origin.METHOD_ANNOTATION));
		});
	}

	@Test
	void aListenerThatSaysNothingFollowsTheDefaultAndReadsInZone() {
		this.contextRunner.withUserConfiguration(Listeners.class).run((context) -> {
			assertThat(clientRack(context, "analytics")).isNull();
			assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
				.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b");
			assertThat(policy(context, "analytics").origin()).isEqualTo(Origin.DEFAULT);
		});
	}

	@Test
	void aClassAnnotationAppliesToEveryListenerOfTheClassUnlessTheMethodSaysOtherwise() {
		this.contextRunner.withUserConfiguration(FreshClass.class).run((context) -> {
			assertThat(clientRack(context, "fresh-class-a")).isEmpty();
			assertThat(policy(context, "fresh-class-a").origin()).isEqualTo(Origin.CLASS_ANNOTATION);
			assertThat(clientRack(context, "fresh-class-b")).isNull();
			assertThat(policy(context, "fresh-class-b")).isEqualTo(ConsumerPolicy.listener("fresh-class-b",
					Policy.LOCALITY, Origin.METHOD_ANNOTATION));
		});
	}

	@Test
	void aClassLevelKafkaListenerWithHandlersTakesTheClassAnnotation() {
		this.contextRunner.withUserConfiguration(ClassLevelListener.class).run((context) -> {
			assertThat(clientRack(context, "class-level")).isEmpty();
			assertThat(policy(context, "class-level").origin()).isEqualTo(Origin.CLASS_ANNOTATION);
		});
	}

	@Test
	void aPolicyOnAKafkaHandlerMethodIsIgnoredWithAWarningThatSaysWhereToPutIt(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(HandlerWithItsOwnPolicy.class).run((context) -> {
			assertThat(policy(context, "handler-policy").origin()).isEqualTo(Origin.DEFAULT);
			assertThat(output).containsOnlyOnce("@FetchPolicy on @KafkaHandler method "
					+ PolicyOnHandler.class.getName() + ".handle is ignored")
				.contains("Put @FetchPolicy on the class");
		});
	}

	@Test
	void aPropertyBeatsTheAnnotationOfAListenerWhoseIdIsAnExpression() {
		this.contextRunner.withUserConfiguration(ExpressionIdListener.class)
			.withPropertyValues("follower-fetch.policy.listeners.refunds=locality")
			.run((context) -> {
				assertThat(clientRack(context, "refunds")).isNull();
				assertThat(policy(context, "refunds"))
					.isEqualTo(ConsumerPolicy.listener("refunds", Policy.LOCALITY, Origin.PROPERTY));
			});
	}

	@Test
	void aListenerWhoseIdIsAnExpressionKeepsItsAnnotationWithoutAProperty() {
		this.contextRunner.withUserConfiguration(ExpressionIdListener.class).run((context) -> {
			assertThat(clientRack(context, "refunds")).isEmpty();
			assertThat(policy(context, "refunds"))
				.isEqualTo(ConsumerPolicy.listener("refunds", Policy.FRESHNESS, Origin.METHOD_ANNOTATION));
		});
	}

	@Test
	void aPropertyBeatsTheMethodAnnotationInBothDirections() {
		this.contextRunner.withUserConfiguration(Listeners.class)
			.withPropertyValues("follower-fetch.policy.listeners.payments=locality",
					"follower-fetch.policy.listeners.analytics=freshness")
			.run((context) -> {
				assertThat(clientRack(context, "payments")).isNull();
				assertThat(policy(context, "payments"))
					.isEqualTo(ConsumerPolicy.listener("payments", Policy.LOCALITY, Origin.PROPERTY));
				assertThat(clientRack(context, "analytics")).isEmpty();
				assertThat(policy(context, "analytics").origin()).isEqualTo(Origin.PROPERTY);
			});
	}

	@Test
	void withAFreshnessDefaultOnlyLocalityListenersGetTheRack() {
		this.contextRunner.withUserConfiguration(Listeners.class, FreshClass.class)
			.withPropertyValues("follower-fetch.policy.default=freshness")
			.run((context) -> {
				assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
					.doesNotContainKey(ConsumerConfig.CLIENT_RACK_CONFIG);
				assertThat(clientRack(context, "analytics")).isEmpty();
				assertThat(clientRack(context, "fresh-class-b")).isEqualTo("az-b");
			});
	}

	@Test
	void aListenersOwnClientRackIsKept() {
		this.contextRunner.withUserConfiguration(Listeners.class)
			.withPropertyValues("follower-fetch.policy.listeners.own-rack=freshness")
			.run((context) -> {
				assertThat(clientRack(context, "own-rack")).isEqualTo("az-own");
				assertThat(policy(context, "own-rack").origin()).isEqualTo(Origin.OWN_CLIENT_RACK);
			});
	}

	@Test
	void theLinkToTheAnnotationNeverReachesTheConsumer() {
		this.contextRunner.withUserConfiguration(Listeners.class, FreshClass.class).run((context) -> {
			for (MessageListenerContainer container : context.getBean(KafkaListenerEndpointRegistry.class)
				.getAllListenerContainers()) {
				assertThat(container.getContainerProperties().getKafkaConsumerProperties().stringPropertyNames())
					.doesNotContain(ListenerPolicies.DECLARATION);
			}
		});
	}

	@Test
	void aContainerDeclaredAsABeanFollowsTheProperty() {
		this.contextRunner.withUserConfiguration(ContainerBean.class)
			.withPropertyValues("follower-fetch.policy.listeners.audit=freshness")
			.run((context) -> {
				assertThat(clientRack(context, "audit")).isEmpty();
				assertThat(policy(context, "audit").origin()).isEqualTo(Origin.PROPERTY);
			});
	}

	@Test
	void consumerOverridesThatAreNotStringsAreKept() {
		this.contextRunner.withUserConfiguration(ContainerBean.class)
			.withPropertyValues("follower-fetch.policy.listeners.audit=freshness")
			.run((context) -> {
				Properties properties = container(context, "audit").getContainerProperties()
					.getKafkaConsumerProperties();
				assertThat(properties.get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG)).isEqualTo(10);
				assertThat(properties.getProperty(ConsumerConfig.CLIENT_RACK_CONFIG)).isEmpty();
			});
	}

	@Test
	void aPropertyNamingAnUnknownListenerIsReportedWithTheKnownIds(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(Listeners.class)
			.withPropertyValues("follower-fetch.policy.listeners.paymnets=freshness")
			.run((context) -> assertThat(output).contains(
					"follower-fetch.policy.listeners names [paymnets], but there is no listener with that id. "
							+ "Known listener ids: [analytics, own-rack, payments]"));
	}


	@Test
	void theEffectivePolicyOfEveryListenerIsLoggedOnce(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(Listeners.class)
			.run((context) -> assertThat(output).containsOnlyOnce("Kafka listener fetch policies: ")
				.contains("payments=FRESHNESS (method annotation)")
				.contains("analytics=LOCALITY (default)"));
	}

	@Test
	void aListenerOnTheConsumerGroupProtocolDropsTheAssignorItsFactoryGotAsKafkaRequires() {
		this.contextRunner.withUserConfiguration(ConsumerProtocolListener.class).run((context) -> {
			assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
				.containsKey(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
			assertThat(container(context, "broker-assigned").getContainerProperties()
				.getKafkaConsumerProperties()
				.getProperty(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)).isEmpty();
			assertThat(container(context, "classic").getContainerProperties()
				.getKafkaConsumerProperties()
				.getProperty(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG)).isNull();
		});
	}

	@Test
	void aListenerThatNamesKafkasOwnStrategyGetsTheZoneAwareAssignorBeforeIt() {
		this.contextRunner.withUserConfiguration(OwnStrategyListeners.class)
			.run((context) -> assertThat(strategy(context, "cooperative"))
				.isEqualTo(ZoneAwareAssignor.class.getName() + "," + CooperativeStickyAssignor.class.getName()));
	}

	@Test
	void aListenerThatNamesItsOwnAssignorKeepsItAndTheLogSaysSo(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(OwnStrategyListeners.class).run((context) -> {
			assertThat(strategy(context, "pinned")).isEqualTo("com.example.PinnedAssignor");
			assertThat(output).containsOnlyOnce("Listener 'pinned' keeps its own partition.assignment.strategy="
					+ "[com.example.PinnedAssignor]: zone-aware assignment is not added");
		});
	}

	@Test
	void aListenersConsumerRegistersItsZoneAwareAssignorInTheContextsOneRegistry() {
		this.contextRunner.withUserConfiguration(Listeners.class).run((context) -> {
			assertThat(context).hasSingleBean(ZoneAwareAssignors.class);
			ZoneAwareAssignors assignors = context.getBean(ZoneAwareAssignors.class);
			ConsumerFactory<?, ?> factory = context.getBean(ConsumerFactory.class);
			assertThat(factory.getConfigurationProperties()).containsEntry(ZoneAwareAssignor.REGISTRY_CONFIG, assignors);
			Properties own = container(context, "analytics").getContainerProperties().getKafkaConsumerProperties();
			assertThat(own).as("the factory's registry is the listener's").doesNotContainKey(ZoneAwareAssignor.REGISTRY_CONFIG);
			try (Consumer<?, ?> consumer = factory.createConsumer("analytics", "analytics-client", "-0", own)) {
				assertThat(consumer.groupMetadata().groupId()).isEqualTo("analytics");
				assertThat(assignors.chosen("analytics-client-0")).contains(false);
			}
		});
	}

	@Test
	void aClassicListenerOverAFactoryOfTheConsumerProtocolCarriesTheRegistryInItsOwnProperties() {
		this.contextRunner.withUserConfiguration(ClassicOverConsumerProtocol.class)
			.withPropertyValues("spring.kafka.consumer.properties.group.protocol=consumer")
			.run((context) -> {
				ZoneAwareAssignors assignors = context.getBean(ZoneAwareAssignors.class);
				ConsumerFactory<?, ?> factory = context.getBean(ConsumerFactory.class);
				assertThat(factory.getConfigurationProperties()).doesNotContainKey(ZoneAwareAssignor.REGISTRY_CONFIG);
				Properties own = container(context, "classic-cooperative").getContainerProperties()
					.getKafkaConsumerProperties();
				assertThat(own.get(ZoneAwareAssignor.REGISTRY_CONFIG)).isSameAs(assignors);
				try (Consumer<?, ?> consumer = factory.createConsumer("clicks", "classic-client", "-0", own)) {
					assertThat(consumer.groupMetadata().groupId()).isEqualTo("clicks");
					assertThat(assignors.chosen("classic-client-0")).contains(false);
				}
			});
	}

	private static String strategy(AssertableApplicationContext context, String listenerId) {
		return container(context, listenerId).getContainerProperties()
			.getKafkaConsumerProperties()
			.getProperty(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
	}

	private static String clientRack(AssertableApplicationContext context, String listenerId) {
		Properties properties = container(context, listenerId).getContainerProperties().getKafkaConsumerProperties();
		return properties.getProperty(ConsumerConfig.CLIENT_RACK_CONFIG);
	}

	private static MessageListenerContainer container(AssertableApplicationContext context, String listenerId) {
		return context.getBean(KafkaListenerEndpointRegistry.class)
			.getAllListenerContainers()
			.stream()
			.filter((container) -> listenerId.equals(container.getListenerId()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no listener " + listenerId));
	}

	private static ConsumerPolicy policy(AssertableApplicationContext context, String listenerId) {
		return context.getBean(ListenerPolicies.class).get(listenerId).orElseThrow();
	}

	@Configuration(proxyBeanMethods = false)
	static class Listeners {

		@Bean
		ListenerBean listenerBean() {
			return new ListenerBean();
		}

	}

	static class ListenerBean {

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = "payments", topics = "payments")
		void payments(String payload) {
		}

		@KafkaListener(id = "analytics", topics = "clicks")
		void analytics(String payload) {
		}

		@KafkaListener(id = "own-rack", topics = "clicks", properties = "client.rack=az-own")
		void ownRack(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ExpressionIdListener {

		@Bean
		ExpressionIdListenerBean expressionIdListenerBean() {
			return new ExpressionIdListenerBean();
		}

	}

	static class ExpressionIdListenerBean {

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = "#{'refu' + 'nds'}", topics = "refunds")
		void refunds(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ConsumerProtocolListener {

		@Bean
		ConsumerProtocolListenerBean consumerProtocolListenerBean() {
			return new ConsumerProtocolListenerBean();
		}

	}

	static class ConsumerProtocolListenerBean {

		@KafkaListener(id = "broker-assigned", topics = "clicks", properties = "group.protocol=consumer")
		void brokerAssigned(String payload) {
		}

		@KafkaListener(id = "classic", topics = "clicks")
		void classic(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ClassicOverConsumerProtocol {

		@Bean
		ClassicListenerBean classicListenerBean() {
			return new ClassicListenerBean();
		}

	}

	static class ClassicListenerBean {

		@KafkaListener(id = "classic-cooperative", topics = "clicks", properties = { "group.protocol=classic",
				"partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor" })
		void cooperative(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnStrategyListeners {

		@Bean
		OwnStrategyListenerBean ownStrategyListenerBean() {
			return new OwnStrategyListenerBean();
		}

	}

	static class OwnStrategyListenerBean {

		@KafkaListener(id = "cooperative", topics = "clicks",
				properties = "partition.assignment.strategy=org.apache.kafka.clients.consumer.CooperativeStickyAssignor")
		void cooperative(String payload) {
		}

		@KafkaListener(id = "pinned", topics = "clicks",
				properties = "partition.assignment.strategy=com.example.PinnedAssignor")
		void pinned(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FreshClass {

		@Bean
		FreshListeners freshListeners() {
			return new FreshListeners();
		}

	}

	@FetchPolicy(Policy.FRESHNESS)
	static class FreshListeners {

		@KafkaListener(id = "fresh-class-a", topics = "a")
		void a(String payload) {
		}

		@FetchPolicy(Policy.LOCALITY)
		@KafkaListener(id = "fresh-class-b", topics = "b")
		void b(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ClassLevelListener {

		@Bean
		Handlers handlers() {
			return new Handlers();
		}

	}

	@FetchPolicy(Policy.FRESHNESS)
	@KafkaListener(id = "class-level", topics = "c")
	static class Handlers {

		@KafkaHandler
		void handle(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HandlerWithItsOwnPolicy {

		@Bean
		PolicyOnHandler policyOnHandler() {
			return new PolicyOnHandler();
		}

	}

	@KafkaListener(id = "handler-policy", topics = "d")
	static class PolicyOnHandler {

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaHandler
		void handle(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ContainerBean {

		@Bean
		ConcurrentMessageListenerContainer<String, String> audit(ConsumerFactory<String, String> consumerFactory) {
			ContainerProperties properties = new ContainerProperties("audit");
			properties.setGroupId("audit");
			properties.getKafkaConsumerProperties().put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10);
			properties.setMessageListener((MessageListener<String, String>) (record) -> {
			});
			ConcurrentMessageListenerContainer<String, String> container = new ConcurrentMessageListenerContainer<>(
					consumerFactory, properties);
			container.setAutoStartup(false);
			return container;
		}

	}

}
