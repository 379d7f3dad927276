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
package dev.followerfetch.detection;

import java.util.List;

import dev.followerfetch.FollowerFetchProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;

/**
 * Detection as the auto-configuration runs it: settings from the properties, an explicit
 * {@code client.rack} from the environment's Kafka properties.
 *
 * @author follower-fetch authors
 */
final class Detections {

	private Detections() {
	}

	static DetectedRack detect(FollowerFetchProperties properties, Environment environment,
			@Nullable BrokerRackLookup brokers, List<? extends RackSource> sources) {
		return RackDetection.matchingBrokers(RackDetectionAutoConfiguration.detectionSettings(properties), brokers)
			.detect(List.copyOf(sources), RackDetectionAutoConfiguration.kafkaClientRack(environment));
	}

}
