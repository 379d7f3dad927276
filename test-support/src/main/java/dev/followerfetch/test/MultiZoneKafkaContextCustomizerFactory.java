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
package dev.followerfetch.test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.util.Assert;

/**
 * Starts the cluster of a test class annotated with {@link MultiZoneKafka} with its
 * application context. Registered in {@code META-INF/spring.factories}.
 *
 * @author follower-fetch authors
 */
final class MultiZoneKafkaContextCustomizerFactory implements ContextCustomizerFactory {

	/**
	 * The bean name of the cluster.
	 */
	static final String BEAN_NAME = "multiZoneKafka";

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		MultiZoneKafka kafka = TestContextAnnotationUtils.findMergedAnnotation(testClass, MultiZoneKafka.class);
		return (kafka != null) ? new Customizer(kafka) : null;
	}

	static ZonedKafkaCluster start(MultiZoneKafka kafka) {
		Map<String, String> brokerProperties = new LinkedHashMap<>();
		for (String property : kafka.brokerProperties()) {
			int equals = property.indexOf('=');
			Assert.isTrue(equals > 0, () -> "@MultiZoneKafka brokerProperties needs name=value, not '" + property + "'");
			brokerProperties.put(property.substring(0, equals).trim(), property.substring(equals + 1).trim());
		}
		ZonedKafkaCluster cluster = kafka.containers() ? containers(kafka, brokerProperties)
				: inProcess(kafka, brokerProperties);
		try {
			for (String topic : kafka.topics()) {
				cluster.createTopicLedByEveryZone(topic, kafka.partitions(), kafka.replicationFactor());
			}
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	private static ZonedKafkaCluster inProcess(MultiZoneKafka kafka, Map<String, String> brokerProperties) {
		MultiZoneKafkaCluster.Builder builder = MultiZoneKafkaCluster.builder()
			.zones(kafka.zones())
			.replicaSelector(kafka.replicaSelector());
		brokerProperties.forEach(builder::brokerProperty);
		return builder.start();
	}

	/**
	 * Kept apart: Testcontainers, an optional dependency, is loaded only here.
	 */
	private static ZonedKafkaCluster containers(MultiZoneKafka kafka, Map<String, String> brokerProperties) {
		MultiZoneKafkaContainers.Builder builder = MultiZoneKafkaContainers.builder()
			.zones(kafka.zones())
			.image(DockerImages.imageOrDefault(kafka.image()))
			.replicaSelector(kafka.replicaSelector());
		brokerProperties.forEach(builder::brokerProperty);
		return builder.start();
	}

	/**
	 * One cluster per distinct annotation: annotations are equal by their attributes, so
	 * Spring's context cache shares a context, and its cluster, between classes that ask
	 * for the same.
	 */
	private record Customizer(MultiZoneKafka kafka) implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
			ZonedKafkaCluster cluster = start(this.kafka);
			ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
			beanFactory.registerSingleton(BEAN_NAME, cluster);
			// the first disposable bean is destroyed last, after the application's clients
			((DefaultSingletonBeanRegistry) beanFactory).registerDisposableBean(BEAN_NAME, cluster::close);
			Map<String, Object> properties = new LinkedHashMap<>();
			for (String property : this.kafka.bootstrapServersProperty()) {
				properties.put(property, cluster.bootstrapServers());
			}
			context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(BEAN_NAME, properties));
		}

	}

}
