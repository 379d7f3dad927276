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

import java.util.Map;

import dev.followerfetch.BootApis;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultShareConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.listener.ShareKafkaMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ListenerContainers} with a share listener container (KIP-932, spring-kafka
 * 4): it is no listener container of the policy's and gets no {@code client.rack}. Apart
 * from the shared suite: spring-kafka 3.3 (Spring Boot 3.5) has no share containers.
 *
 * @author follower-fetch authors
 */
class ShareListenerContainerTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class))
		.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.detection.order=env",
				"spring.kafka.bootstrap-servers=127.0.0.1:9", "spring.kafka.listener.auto-startup=false");

	@Test
	void aShareListenerContainerIsNoListenerContainerAndGetsNoRack() {
		this.contextRunner
			.withUserConfiguration(ListenerClientRackConfigurationTests.ContainerBean.class, ShareContainerBean.class)
			.withPropertyValues("follower-fetch.policy.listeners.share-audit=freshness")
			.run((context) -> {
				assertThat(context.getBean(ListenerContainers.class).all())
					.extracting(MessageListenerContainer::getListenerId)
					.containsExactly("audit");
				assertThat(context.getBean("shareAudit", ShareKafkaMessageListenerContainer.class)
					.getContainerProperties()
					.getKafkaConsumerProperties()).doesNotContainKey(ConsumerConfig.CLIENT_RACK_CONFIG);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class ShareContainerBean {

		@Bean
		ShareKafkaMessageListenerContainer<String, String> shareAudit() {
			ContainerProperties properties = new ContainerProperties("audit");
			properties.setGroupId("share-audit");
			properties.setMessageListener((MessageListener<String, String>) (record) -> {
			});
			ShareKafkaMessageListenerContainer<String, String> container = new ShareKafkaMessageListenerContainer<>(
					new DefaultShareConsumerFactory<>(Map.of("bootstrap.servers", "127.0.0.1:9")), properties);
			container.setAutoStartup(false);
			container.setBeanName("share-audit");
			return container;
		}

	}

}
