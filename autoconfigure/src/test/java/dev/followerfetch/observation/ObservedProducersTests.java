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

import java.util.Map;

import dev.followerfetch.BootApis;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ObservedProducers}: which producer factories the monitor lists, as
 * their beans come and go. No producer is created, so no broker is needed.
 *
 * @author follower-fetch authors
 */
class ObservedProducersTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
				FollowerFetchObservationAutoConfiguration.class))
		.withPropertyValues("follower-fetch.rack=az-b", "spring.kafka.bootstrap-servers=127.0.0.1:9");

	@Test
	void aProducerFactoryIsListedUntilItsBeanIsDestroyed() {
		this.contextRunner.run((context) -> {
			ObservedProducers producers = context.getBean(ObservedProducers.class);
			assertThat(producers.find()).extracting(ObservedProducer::name).containsExactly("kafkaProducerFactory");
			destroy(context, "kafkaProducerFactory");
			assertThat(producers.find()).isEmpty();
		});
	}

	@Test
	void destroyingATemplateLeavesItsFactoryListedWhenTheFactoryIsABeanOfItsOwn() {
		this.contextRunner.run((context) -> {
			ObservedProducers producers = context.getBean(ObservedProducers.class);
			destroy(context, "kafkaTemplate");
			assertThat(producers.find()).extracting(ObservedProducer::name).containsExactly("kafkaProducerFactory");
		});
	}

	@Test
	void aFactoryKnownOnlyThroughItsTemplateGoesWithTheTemplate() {
		this.contextRunner
			.withBean("ordersTemplate", KafkaTemplate.class,
					() -> new KafkaTemplate<>(new DefaultKafkaProducerFactory<String, String>(Map.of("bootstrap.servers",
							"127.0.0.1:9", "key.serializer", StringSerializer.class, "value.serializer",
							StringSerializer.class))))
			.run((context) -> {
				ObservedProducers producers = context.getBean(ObservedProducers.class);
				assertThat(producers.find()).extracting(ObservedProducer::name)
					.containsExactlyInAnyOrder("kafkaProducerFactory", "ordersTemplate");
				destroy(context, "ordersTemplate");
				assertThat(producers.find()).extracting(ObservedProducer::name).containsExactly("kafkaProducerFactory");
			});
	}

	private static void destroy(ConfigurableApplicationContext context, String beanName) {
		((DefaultListableBeanFactory) context.getBeanFactory()).destroySingleton(beanName);
	}

}
