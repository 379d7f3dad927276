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
package dev.followerfetch.benchmark;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.awaitility.Awaitility.await;

/**
 * A non-web Spring application that consumes from a {@link MultiZoneKafkaCluster} as a
 * process in zone {@value #ZONE}: plain Spring Kafka (Boot's Kafka auto-configuration
 * only), or the same with the starter's auto-configurations. Both get the same
 * properties; the rack is given explicitly, so no metadata endpoint is contacted.
 *
 * @author follower-fetch authors
 */
enum BenchmarkApplication {

	/**
	 * Boot's Kafka auto-configuration only: every consumer reads from the leaders.
	 */
	PLAIN("plain Spring Kafka", PlainSpringKafka.class),

	/**
	 * Boot's Kafka auto-configuration with rack detection, {@code client.rack} on every
	 * consumer factory and the per-listener fetch policy.
	 */
	STARTER("with the starter", WithStarter.class);

	static final String ZONE = "az-b";

	private static final Duration ASSIGNMENT_TIMEOUT = Duration.ofSeconds(60);

	private final String description;

	private final Class<?> configuration;

	BenchmarkApplication(String description, Class<?> configuration) {
		this.description = description;
		this.configuration = configuration;
	}

	String description() {
		return this.description;
	}

	/**
	 * Start the application with the given listeners and wait until each listener
	 * container has partitions assigned.
	 * @param cluster the cluster to consume from
	 * @param listeners a configuration class declaring the {@code @KafkaListener}s
	 * @param recorder a bean the listeners record what they receive into
	 * @param properties more properties, such as {@code benchmark.topic}
	 * @return the running application
	 */
	ConfigurableApplicationContext start(MultiZoneKafkaCluster cluster, Class<?> listeners, Object recorder,
			String... properties) {
		return start(cluster, ZONE, listeners, recorder, properties);
	}

	/**
	 * Start the application as a process in the given zone and wait until each listener
	 * container has partitions assigned.
	 * @param cluster the cluster to consume from
	 * @param zone the zone the application runs in ({@code follower-fetch.rack})
	 * @param listeners a configuration class declaring the {@code @KafkaListener}s
	 * @param recorder a bean the listeners record what they receive into
	 * @param properties more properties, such as {@code benchmark.topic}; they win over
	 * the defaults, {@code benchmark.group} (a random prefix of group ids) among them
	 * @return the running application
	 */
	ConfigurableApplicationContext start(MultiZoneKafkaCluster cluster, String zone, Class<?> listeners,
			Object recorder, String... properties) {
		List<String> all = new ArrayList<>(List.of("spring.kafka.bootstrap-servers=" + cluster.bootstrapServers(),
				"spring.kafka.consumer.auto-offset-reset=earliest",
				"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
				"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
				"follower-fetch.rack=" + zone, "follower-fetch.detection.order=env",
				"logging.level.org.springframework=WARN", "benchmark.group=" + UUID.randomUUID()));
		all.addAll(List.of(properties));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(this.configuration, listeners)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.initializers((initializing) -> initializing.getBeanFactory()
				.registerSingleton("benchmarkRecorder", recorder))
			.properties(all.toArray(String[]::new))
			.run();
		try {
			KafkaListenerEndpointRegistry registry = context.getBean(KafkaListenerEndpointRegistry.class);
			await("partitions assigned to every listener of " + this.description).atMost(ASSIGNMENT_TIMEOUT)
				.pollInterval(Duration.ofMillis(50))
				.until(() -> registry.getListenerContainers()
					.stream()
					.allMatch(BenchmarkApplication::hasPartitions));
			return context;
		}
		catch (RuntimeException ex) {
			context.close();
			throw ex;
		}
	}

	private static boolean hasPartitions(MessageListenerContainer container) {
		Collection<TopicPartition> assigned = container.getAssignedPartitions();
		return assigned != null && !assigned.isEmpty();
	}

	/**
	 * Describe the machine the benchmark runs on.
	 * @return one line with the JVM, the OS and the processor count
	 */
	static String machine() {
		return String.format("java %s (%s), %s %s, %d processors, max heap %d MiB", System.getProperty("java.version"),
				System.getProperty("java.vm.name"), System.getProperty("os.name"), System.getProperty("os.arch"),
				Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() / (1024 * 1024));
	}

	/**
	 * Return how busy the machine is: other work on it shows in the latencies.
	 * @return the system load average over the last minute
	 */
	static double loadAverage() {
		return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(KafkaAutoConfiguration.class)
	static class PlainSpringKafka {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ KafkaAutoConfiguration.class, RackDetectionAutoConfiguration.class,
			ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class })
	static class WithStarter {

	}

}
