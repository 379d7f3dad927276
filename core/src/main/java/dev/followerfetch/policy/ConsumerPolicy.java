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

import java.util.Locale;

import dev.followerfetch.Policy;
import org.jspecify.annotations.Nullable;

/**
 * The effective fetch policy of one consumer of the application, and what decided it.
 *
 * @param kind how the application consumes
 * @param name the listener id, Kafka Streams application id, binding name or client id
 * @param policy the effective policy
 * @param origin what decided it
 * @author follower-fetch authors
 */
public record ConsumerPolicy(ConsumerKind kind, @Nullable String name, Policy policy, Origin origin) {

	/**
	 * The policy of a listener.
	 * @param listenerId the listener id
	 * @param policy the effective policy
	 * @param origin what decided it
	 * @return the listener's policy
	 */
	public static ConsumerPolicy listener(String listenerId, Policy policy, Origin origin) {
		return new ConsumerPolicy(ConsumerKind.LISTENER, listenerId, policy, origin);
	}

	/**
	 * What decided a consumer's policy, highest precedence first.
	 */
	public enum Origin {

		/**
		 * The consumer sets {@code client.rack} in its own configuration: empty keeps it on
		 * the leaders, any other value reads from that rack.
		 */
		OWN_CLIENT_RACK,

		/**
		 * A {@code follower-fetch.policy.<kind>.<name>} property.
		 */
		PROPERTY,

		/**
		 * {@code @FetchPolicy} on the listener method.
		 */
		METHOD_ANNOTATION,

		/**
		 * {@code @FetchPolicy} on the listener's class.
		 */
		CLASS_ANNOTATION,

		/**
		 * {@code follower-fetch.policy.default}.
		 */
		DEFAULT

	}

	@Override
	public String toString() {
		String origin = this.origin.name().toLowerCase(Locale.ROOT).replace('_', ' ');
		return this.name + "=" + this.policy + " (" + origin + ")";
	}

}
