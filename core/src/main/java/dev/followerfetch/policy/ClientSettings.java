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

import dev.followerfetch.assignment.AssignmentStrategy;

/**
 * What the clients of the application get besides their fetch policy: the settings of
 * {@code follower-fetch.producer.rack-aware}, {@code follower-fetch.assignment.enabled} and
 * {@code follower-fetch.client-id-zone}, and what the kafka-clients on the classpath let
 * producers say about their zone.
 *
 * @param producerRackAware {@code follower-fetch.producer.rack-aware}
 * @param producerSupport what the kafka-clients on the classpath support
 * @param assignment what consumers get for zone-aware assignment
 * @param clientIdZone {@code follower-fetch.client-id-zone}
 * @author follower-fetch authors
 */
public record ClientSettings(boolean producerRackAware, ProducerRackSupport producerSupport,
		AssignmentStrategy assignment, ClientIdZone clientIdZone) {

	/**
	 * The settings of an application that sets none, on the kafka-clients of the
	 * classpath.
	 * @return no rack-aware producers, zone-aware assignment, no client id tag
	 */
	public static ClientSettings defaults() {
		return new ClientSettings(false, ProducerRackSupport.ofClasspath(), new AssignmentStrategy(true),
				ClientIdZone.NONE);
	}

}
