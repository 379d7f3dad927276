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

import org.jspecify.annotations.Nullable;

/**
 * The ways an application consumes Kafka, each with its own policy properties and its
 * own section in the health details.
 *
 * @author follower-fetch authors
 */
public enum ConsumerKind {

	/**
	 * A listener container ({@code @KafkaListener} or a container bean), named by its
	 * listener id.
	 */
	LISTENER("follower-fetch.policy.listeners", "listener", "id"),

	/**
	 * A Kafka Streams application, named by its {@code application.id}.
	 */
	STREAMS("follower-fetch.policy.streams", "Kafka Streams application", "id"),

	/**
	 * A Spring Cloud Stream binding, named by its binding name.
	 */
	BINDING("follower-fetch.policy.bindings", "Kafka consumer binding", "name"),

	/**
	 * A consumer the application builds itself, named by its client id.
	 */
	OTHER("follower-fetch.policy.consumers", "consumer", "client id"),

	/**
	 * A share consumer (KIP-932), named by its client id. Share groups fetch from the
	 * partition leaders whatever the consumer's configuration: no policy applies to it.
	 */
	SHARE(null, "share consumer", "client id");

	private final @Nullable String property;

	private final String noun;

	private final String key;

	ConsumerKind(@Nullable String property, String noun, String key) {
		this.property = property;
		this.noun = noun;
		this.key = key;
	}

	/**
	 * The value of the meters' {@code kind} tag.
	 * @return {@code listener}, {@code streams}, {@code binding}, {@code other} or
	 * {@code share}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The property that sets a policy per consumer of this kind.
	 * @return the property prefix, {@code null} for {@link #SHARE}
	 */
	public @Nullable String property() {
		return this.property;
	}

	/**
	 * What a consumer of this kind is called in messages.
	 * @return for example {@code listener} or {@code Kafka consumer binding}
	 */
	public String noun() {
		return this.noun;
	}

	/**
	 * One consumer of this kind as a log line starts with it.
	 * @param name the consumer's name
	 * @return for example {@code Listener 'orders'} or
	 * {@code Kafka consumer binding 'process-in-0'}
	 */
	public String describe(String name) {
		return Character.toUpperCase(this.noun.charAt(0)) + this.noun.substring(1) + " '" + name + "'";
	}

	/**
	 * What names a consumer of this kind in the policy properties.
	 * @return for example {@code id} or {@code name}
	 */
	public String key() {
		return this.key;
	}

}
