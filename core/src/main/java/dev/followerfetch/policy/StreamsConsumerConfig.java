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

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.jspecify.annotations.Nullable;

/**
 * How a Kafka Streams configuration sets its consumers' settings, as {@code StreamsConfig}
 * resolves them: a {@code main.consumer.}, {@code restore.consumer.} or
 * {@code global.consumer.} prefix for one consumer, then {@code consumer.} for all three,
 * then the plain setting. Written out here so that the core needs no Kafka Streams; a test
 * checks the prefixes against {@code StreamsConfig}'s.
 *
 * @author follower-fetch authors
 */
public final class StreamsConsumerConfig {

	/** The prefix of a setting of all three consumers. */
	public static final String CONSUMER_PREFIX = "consumer.";

	/** The prefixes of the main, restore and global consumers, by consumer. */
	public static final Map<String, String> PREFIXES = Map.of("main", "main.consumer.", "restore",
			"restore.consumer.", "global", "global.consumer.");

	private static final String[] CONSUMERS = { "main", "restore", "global" };

	private StreamsConsumerConfig() {
	}

	/**
	 * The effective value of a setting of one of the Streams consumers.
	 * @param config the streams configuration
	 * @param consumer {@code main}, {@code restore} or {@code global}
	 * @param name the consumer setting
	 * @return the value, or {@code null} when none is set
	 */
	public static @Nullable Object effective(Map<?, ?> config, String consumer, String name) {
		Object value = config.get(PREFIXES.get(consumer) + name);
		if (value == null) {
			value = config.get(CONSUMER_PREFIX + name);
		}
		return (value != null) ? value : config.get(name);
	}

	/**
	 * The {@code client.rack} each of the Streams consumers reads with.
	 * @param config the streams configuration
	 * @return the racks of {@code main}, {@code restore} and {@code global}, empty text for
	 * none
	 */
	public static Map<String, String> clientRacks(Map<?, ?> config) {
		Map<String, String> racks = new LinkedHashMap<>();
		for (String consumer : CONSUMERS) {
			Object rack = effective(config, consumer, ConsumerConfig.CLIENT_RACK_CONFIG);
			racks.put(consumer, (rack != null) ? rack.toString() : "");
		}
		return racks;
	}

}
