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

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.NamedSettings;
import dev.followerfetch.Policy;
import org.jspecify.annotations.Nullable;

/**
 * The fetch policy settings ({@code follower-fetch.policy.*}): the default, the policies
 * given to consumers by name, and the follower-read timings.
 *
 * @param defaultPolicy {@code follower-fetch.policy.default}
 * @param named the policies by consumer kind and name ({@code follower-fetch.policy.listeners},
 * {@code .streams}, {@code .bindings}, {@code .consumers})
 * @param replicaLease {@code follower-fetch.policy.replica-lease}: zero keeps Kafka's default
 * @param replicaRequestTimeout {@code follower-fetch.policy.replica-request-timeout}: zero
 * keeps Kafka's default
 * @author follower-fetch authors
 */
public record PolicySettings(Policy defaultPolicy, Map<ConsumerKind, Map<String, Policy>> named,
		Duration replicaLease, Duration replicaRequestTimeout) {

	private static final PolicySettings DEFAULTS = of(NamedSettings.defaults(NamedSettings.SPRING_BOOT_PREFIX));

	/**
	 * Check the timings and copy the names.
	 * @throws InvalidSettingException for a negative timing
	 */
	public PolicySettings {
		Map<ConsumerKind, Map<String, Policy>> copy = new EnumMap<>(ConsumerKind.class);
		named.forEach((kind, policies) -> copy.put(kind, Map.copyOf(policies)));
		named = Map.copyOf(copy);
		nonNegative("follower-fetch.policy.replica-lease", replicaLease, "Kafka's default of 5 minutes", "30s");
		nonNegative("follower-fetch.policy.replica-request-timeout", replicaRequestTimeout,
				"Kafka's default of 30 seconds", "15s");
	}

	/**
	 * The settings of an application that sets none.
	 * @return LOCALITY by default, no names, a 30 s lease and a 15 s request timeout
	 */
	public static PolicySettings defaults() {
		return DEFAULTS;
	}

	/**
	 * Settings by name, the one place that names each policy setting and gives its
	 * default: {@code policy.*}.
	 * @param given the settings by name
	 * @return the settings
	 * @throws InvalidSettingException for a negative timing
	 */
	public static PolicySettings of(NamedSettings given) {
		return new PolicySettings(defaultPolicy(given),
				Map.of(ConsumerKind.LISTENER, given.map("policy.listeners", Policy.class), ConsumerKind.STREAMS,
						given.map("policy.streams", Policy.class), ConsumerKind.BINDING,
						given.map("policy.bindings", Policy.class), ConsumerKind.OTHER,
						given.map("policy.consumers", Policy.class)),
				given.duration("policy.replica-lease", Duration.ofSeconds(30)),
				given.duration("policy.replica-request-timeout", Duration.ofSeconds(15)));
	}

	/**
	 * The policy of consumers that choose none: {@code policy.default}.
	 * @param given the settings by name
	 * @return the policy
	 */
	public static Policy defaultPolicy(NamedSettings given) {
		return given.choice("policy.default", Policy.class, Policy.LOCALITY, "Must be locality or freshness.");
	}

	private static void nonNegative(String setting, @Nullable Duration value, String zeroMeans, String example) {
		InvalidSettingException.requireNotNegative(setting, value,
				"Must be zero (" + zeroMeans + ") or a positive duration, for example " + example + ".");
	}

}
