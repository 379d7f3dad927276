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
package dev.followerfetch.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.followerfetch.BootApis;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.observation.FollowerFetchObservationAutoConfiguration;
import dev.followerfetch.observation.ProducerWrites;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.serialization.StringSerializer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.kafka.core.KafkaTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the observation keeps of an application's producers on a real three-zone cluster:
 * at most {@code max-listed-topics} of the topics a producer factory wrote to, the most
 * recently written, with a count of the others, and no meter left behind once the factory
 * is destroyed. Judged from the health details and the meter registry, after refreshes the
 * test runs itself (the background refresh interval is an hour).
 *
 * @author follower-fetch authors
 */
class ProducerObservationEndToEndTests {

	private static final List<String> TOPICS = List.of("audit-1", "audit-2", "audit-3");

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@BeforeAll
	static void createTopics() {
		TOPICS.forEach((topic) -> kafka.cluster().createTopicLedByEveryZone(topic, 3, 3));
	}

	@Test
	void aProducerFactoryListsItsMostRecentlyWrittenTopicsAndItsMetersGoWithItsBean() {
		withStarter().run((context) -> {
			KafkaTemplate<String, String> template = template(context);
			for (String topic : TOPICS) {
				template.send(topic, "first").get(30, TimeUnit.SECONDS);
			}
			ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
			ProducerWrites first = monitor.refresh().producers().get("kafkaProducerFactory");
			assertThat(first.topics()).hasSize(2);
			assertThat(first.topicsNotListed()).isOne();
			assertThat(first.partitions()).as("3 partitions of each listed topic").isEqualTo(6);
			List<String> unlisted = new ArrayList<>(TOPICS);
			unlisted.removeAll(first.topics());
			template.send(unlisted.get(0), "again").get(30, TimeUnit.SECONDS);
			ProducerWrites second = monitor.refresh().producers().get("kafkaProducerFactory");
			assertThat(second.topics()).as("the topic written last").contains(unlisted.get(0)).hasSize(2);
			assertThat(second.topicsNotListed()).isOne();
			assertThat(BootApis.health(context).details()).extractingByKey("producers", InstanceOfAssertFactories.MAP)
				.extractingByKey("kafkaProducerFactory", InstanceOfAssertFactories.MAP)
				.containsEntry("topics", second.topics())
				.containsEntry("topicsNotListed", 1);
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(MeterBinder.class).bindTo(registry);
			assertThat(registry.find("follower.fetch.produced.bytes").tag("producer", "kafkaProducerFactory").meters())
				.hasSize(2);
			// a refresh scope or a child context destroys a factory and its template while the application runs
			((DefaultListableBeanFactory) context.getBeanFactory()).destroySingleton("kafkaProducerFactory");
			monitor.refresh();
			assertThat(monitor.listsProducer("kafkaProducerFactory")).isFalse();
			assertThat(registry.find("follower.fetch.produced.bytes").meters()).isEmpty();
			assertThat(BootApis.health(context).details()).doesNotContainKey("producers");
		});
	}

	private static ApplicationContextRunner withStarter() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
					FetchPolicyAutoConfiguration.class, ClientRackAutoConfiguration.class,
					FollowerFetchObservationAutoConfiguration.class))
			.withPropertyValues("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.producer.key-serializer=" + StringSerializer.class.getName(),
					"spring.kafka.producer.value-serializer=" + StringSerializer.class.getName(),
					"follower-fetch.detection.order=env", "follower-fetch.rack=az-b",
					"follower-fetch.observation.refresh-interval=1h", "follower-fetch.observation.max-listed-topics=2");
	}

	@SuppressWarnings("unchecked")
	private static KafkaTemplate<String, String> template(ApplicationContext context) {
		return context.getBean(KafkaTemplate.class);
	}

}
