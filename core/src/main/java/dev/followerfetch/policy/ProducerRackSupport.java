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
package dev.followerfetch.policy;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * What the kafka-clients on the classpath let a producer say about its zone: producer
 * {@code client.rack} and {@code partitioner.rack.aware} arrived together in Kafka 4.4
 * (KIP-1123). Setting either on an older client only earns an unknown-configuration
 * warning, so nothing is set there.
 *
 * @param clientRack whether producers accept {@code client.rack}
 * @param rackAwarePartitioner whether producers accept {@code partitioner.rack.aware}
 * @param kafkaVersion the kafka-clients version, for log lines
 * @author follower-fetch authors
 */
public record ProducerRackSupport(boolean clientRack, boolean rackAwarePartitioner, String kafkaVersion) {

	/**
	 * {@code client.rack}, as named by producers of Kafka 4.4 and later.
	 */
	public static final String CLIENT_RACK = "client.rack";

	/**
	 * {@code partitioner.rack.aware}, as named by producers of Kafka 4.4 and later.
	 */
	public static final String RACK_AWARE = "partitioner.rack.aware";

	/**
	 * What the kafka-clients on the classpath support, from the names its
	 * {@code ProducerConfig} declares.
	 * @return the support
	 */
	public static ProducerRackSupport ofClasspath() {
		Set<String> names = ProducerConfig.configNames();
		return new ProducerRackSupport(names.contains(CLIENT_RACK), names.contains(RACK_AWARE),
				classpathKafkaVersion());
	}

	private static String classpathKafkaVersion() {
		try (InputStream in = ProducerConfig.class.getResourceAsStream("/kafka/kafka-version.properties")) {
			Properties properties = new Properties();
			if (in != null) {
				properties.load(in);
			}
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

}
