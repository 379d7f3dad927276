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

import java.util.Arrays;

/**
 * Whether the kafka-clients on the class path make a consumer with {@code client.rack}
 * rejoin its group when a broker restarts: the classic protocol's group leader rejoins
 * when the racks of a partition's replicas change, and before kafka-clients 4.4 an
 * offline replica counts as a change of rack, twice per restart (KAFKA-20778).
 *
 * @param kafkaVersion the kafka-clients version
 * @param fixed whether it has the fix
 * @author follower-fetch authors
 */
public record BrokerBounceRejoins(String kafkaVersion, boolean fixed) {

	/**
	 * The first kafka-clients version with the fix.
	 */
	public static final String FIXED_IN = "4.4.0";

	/**
	 * What the kafka-clients on the class path do.
	 * @return the answer
	 */
	public static BrokerBounceRejoins ofClasspath() {
		return of(ProducerRackSupport.ofClasspath().kafkaVersion());
	}

	/**
	 * What a kafka-clients version does; one that cannot be read counts as fixed, so that
	 * nothing is claimed of it.
	 * @param kafkaVersion a version such as {@code 4.1.2} or {@code 4.4.0-SNAPSHOT}
	 * @return the answer
	 */
	public static BrokerBounceRejoins of(String kafkaVersion) {
		int[] version = numbers(kafkaVersion);
		int[] fixedIn = numbers(FIXED_IN);
		return new BrokerBounceRejoins(kafkaVersion, version.length == 0 || Arrays.compare(version, fixedIn) >= 0);
	}

	private static int[] numbers(String version) {
		String[] parts = version.split("[.-]");
		int[] numbers = new int[Math.min(3, parts.length)];
		for (int i = 0; i < numbers.length; i++) {
			try {
				numbers[i] = Integer.parseInt(parts[i]);
			}
			catch (NumberFormatException ex) {
				return new int[0];
			}
		}
		return (numbers.length == 3) ? numbers : new int[0];
	}

}
