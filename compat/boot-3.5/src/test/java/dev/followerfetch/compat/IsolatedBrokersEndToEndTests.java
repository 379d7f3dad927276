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

package dev.followerfetch.compat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What this leg runs on, as the JVM and the brokers report it: Spring Boot 3.5 and the
 * application's kafka-clients 3.9, against brokers of Kafka 4.1 or later that run in a
 * class loader of their own ({@code follower-fetch-test-brokers}).
 *
 * @author follower-fetch authors
 */
class IsolatedBrokersEndToEndTests {

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withDefaultZones();

	@Test
	void theApplicationsClientsAreKafkaThreeNineAndTheBrokersAnotherKafka() throws Exception {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(AppInfoParser.getVersion()).startsWith("3.9.");
		kafka.cluster().createTopicLedByEveryZone("versions", 3, 3);
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers(),
				ConsumerConfig.GROUP_ID_CONFIG, "versions");
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
				new ByteArrayDeserializer())) {
			consumer.subscribe(List.of("versions"));
			consumer.poll(Duration.ofSeconds(2));
			Map<String, Set<String>> versions = clientVersionsByListener();
			System.out.println("Java client versions the brokers see, by listener: " + versions);
			assertThat(versions.get("EXTERNAL")).as("the application's clients")
				.containsExactly(AppInfoParser.getVersion());
			assertThat(versions.get("CONTROLLER")).as("the brokers' own, to the controller")
				.singleElement()
				.asString()
				.matches("4\\.[1-9]\\d*\\..*");
		}
	}

	/**
	 * The versions of the Java clients connected to the brokers, as the brokers'
	 * {@code socket-server-metrics} name them.
	 */
	private static Map<String, Set<String>> clientVersionsByListener() throws Exception {
		MBeanServer server = ManagementFactory.getPlatformMBeanServer();
		ObjectName javaClients = new ObjectName(
				"kafka.server:type=socket-server-metrics,clientSoftwareName=apache-kafka-java,*");
		return server.queryNames(javaClients, null)
			.stream()
			.collect(Collectors.groupingBy((name) -> name.getKeyProperty("listener"), TreeMap::new,
					Collectors.mapping((name) -> name.getKeyProperty("clientSoftwareVersion"), Collectors.toSet())));
	}

}
