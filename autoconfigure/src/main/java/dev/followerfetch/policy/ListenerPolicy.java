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

/**
 * The effective fetch policy of one listener container, and where it came from.
 *
 * @param listenerId the listener id
 * @param policy the effective policy
 * @param origin what decided it
 * @author follower-fetch authors
 */
public record ListenerPolicy(String listenerId, Policy policy, Origin origin) {

	/**
	 * What decided a listener's policy, highest precedence first.
	 */
	public enum Origin {

		/**
		 * The listener sets {@code client.rack} in its own consumer properties.
		 */
		LISTENER_CLIENT_RACK,

		/**
		 * A {@code follower-fetch.policy.listeners.<listener-id>} property.
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
		return this.listenerId + "=" + this.policy + " (" + origin + ")";
	}

}
