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

import dev.followerfetch.NamedSettings;
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
		return of(NamedSettings.defaults(NamedSettings.SPRING_BOOT_PREFIX), ProducerRackSupport.ofClasspath());
	}

	/**
	 * Settings by name, the one place that names each of these settings and gives its
	 * default: {@code producer.rack-aware}, {@code assignment.enabled} and
	 * {@code client-id-zone}.
	 * @param given the settings by name
	 * @param producerSupport what the kafka-clients on the classpath support
	 * @return the settings
	 * @throws dev.followerfetch.InvalidSettingException for a client id tag it cannot use
	 */
	public static ClientSettings of(NamedSettings given, ProducerRackSupport producerSupport) {
		return new ClientSettings(given.bool("producer.rack-aware", false), producerSupport,
				new AssignmentStrategy(assignmentEnabled(given)), ClientIdZone.of(given.word("client-id-zone", "none")));
	}

	/**
	 * Whether consumers get the zone-aware assignor: {@code assignment.enabled}.
	 * @param given the settings by name
	 * @return whether they do
	 */
	public static boolean assignmentEnabled(NamedSettings given) {
		return given.bool("assignment.enabled", true);
	}

}
