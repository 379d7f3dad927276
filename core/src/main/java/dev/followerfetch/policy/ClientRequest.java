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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import dev.followerfetch.Policy;
import org.apache.kafka.clients.CommonClientConfigs;
import org.jspecify.annotations.Nullable;

/**
 * A client of the application, as the adapter that found it describes it to the
 * {@link ClientRackDecider}: its kind, its name, the configuration it has and, for a
 * listener, the configuration it inherits and its {@code @FetchPolicy}. One request gets
 * one {@link ClientPlan}.
 *
 * @param kind what kind of client it is
 * @param name the listener id, Kafka Streams application id, binding name or client id it
 * is known by, or a description of a factory for the log
 * @param config its own configuration, as the application set it: a consumer or producer
 * factory's, a listener's own consumer properties (with its containers' client id prefix
 * as {@code client.id}), a Kafka Streams configuration, a binding's or a hand-built
 * consumer's map
 * @param inherited what a listener's consumers take from its consumer factory; empty for
 * the other kinds
 * @param onMethod {@code @FetchPolicy} on a listener's method, or {@code null}
 * @param onClass {@code @FetchPolicy} on a listener's class, or {@code null}
 * @param consumerKind how the application consumes, for the kinds of client that consume
 * @param clientIdBase what follows the zone tag of {@code follower-fetch.client-id-zone}
 * in a {@code client.id} when the client has none, or {@code null} to leave such a client
 * alone
 * @param decided for a listener container whose annotation was planned, the policy that
 * plan decided (not decided again); {@code null} to decide it
 * @author follower-fetch authors
 */
public record ClientRequest(Kind kind, @Nullable String name, Map<String, ?> config, Map<String, ?> inherited,
		@Nullable Policy onMethod, @Nullable Policy onClass, @Nullable ConsumerKind consumerKind,
		@Nullable String clientIdBase, @Nullable ConsumerPolicy decided) {

	public ClientRequest {
		config = copy(config);
		inherited = copy(inherited);
	}

	/**
	 * A consumer factory, shared by the listeners and templates that use it: it carries the
	 * default policy.
	 * @param description the factory in the log, for example
	 * {@code ConsumerFactory bean 'kafkaConsumerFactory'}
	 * @param config the factory's configuration
	 * @return the request
	 */
	public static ClientRequest consumerFactory(String description, Map<String, ?> config) {
		return new ClientRequest(Kind.CONSUMER_FACTORY, description, config, Map.of(), null, null, null, null, null);
	}

	/**
	 * A {@code @KafkaListener}'s annotation, before its container exists: the plan says
	 * its policy and the {@code client.rack} its own consumer properties must carry for it
	 * (a container created late takes it from there).
	 * @param id the listener id, or {@code null} when it has none yet
	 * @param own the consumer properties the annotation declares
	 * @param onMethod {@code @FetchPolicy} on the listener method, or {@code null}
	 * @param onClass {@code @FetchPolicy} on the listener class, or {@code null}
	 * @return the request
	 */
	public static ClientRequest listenerAnnotation(@Nullable String id, Map<String, ?> own, @Nullable Policy onMethod,
			@Nullable Policy onClass) {
		return new ClientRequest(Kind.LISTENER_ANNOTATION, id, own, Map.of(), onMethod, onClass,
				ConsumerKind.LISTENER, null, null);
	}

	/**
	 * A listener container.
	 * @param id the listener id, or {@code null} when it is not known yet
	 * @param own the listener's own consumer properties, as the application declared them
	 * @param inherited its consumer factory's configuration, after the starter's additions;
	 * empty when not known yet
	 * @param onMethod {@code @FetchPolicy} on the listener method, or {@code null}
	 * @param onClass {@code @FetchPolicy} on the listener class, or {@code null}
	 * @param clientIdPrefix the container's client id prefix, or {@code null}: its
	 * consumers take it, else their factory's {@code client.id} (a {@code client.id} in the
	 * listener's own properties is not one Spring Kafka uses)
	 * @param clientIdBase what follows the zone tag in the client id prefix of a container
	 * whose consumers have none, or {@code null}
	 * @return the request
	 */
	public static ClientRequest listener(@Nullable String id, Map<String, ?> own, Map<String, ?> inherited,
			@Nullable Policy onMethod, @Nullable Policy onClass, @Nullable String clientIdPrefix,
			@Nullable String clientIdBase) {
		return new ClientRequest(Kind.LISTENER, id, listenerConfig(own, clientIdPrefix), inherited, onMethod, onClass,
				ConsumerKind.LISTENER, clientIdBase, null);
	}

	/**
	 * A listener container whose {@code @KafkaListener} was planned at its annotation: its
	 * policy is that plan's, and its own consumer properties already carry the
	 * {@code client.rack} that plan added. Its plan adds only what the container holds and
	 * the annotation cannot see: the assignment strategy over its factory's, and its client
	 * id prefix.
	 * @param id the listener id
	 * @param own the listener's own consumer properties, with what its annotation's plan
	 * added
	 * @param inherited its consumer factory's configuration, after the starter's additions
	 * @param decided the policy its annotation's plan decided
	 * @param clientIdPrefix the container's client id prefix, or {@code null}
	 * @param clientIdBase what follows the zone tag in the client id prefix of a container
	 * whose consumers have none, or {@code null}
	 * @return the request
	 */
	public static ClientRequest listener(@Nullable String id, Map<String, ?> own, Map<String, ?> inherited,
			ConsumerPolicy decided, @Nullable String clientIdPrefix, @Nullable String clientIdBase) {
		return new ClientRequest(Kind.LISTENER, id, listenerConfig(own, clientIdPrefix), inherited, null, null,
				ConsumerKind.LISTENER, clientIdBase,
				new ConsumerPolicy(ConsumerKind.LISTENER, id, decided.policy(), decided.origin()));
	}

	private static Map<String, Object> listenerConfig(Map<String, ?> own, @Nullable String clientIdPrefix) {
		Map<String, Object> config = new LinkedHashMap<>(own);
		config.remove(CommonClientConfigs.CLIENT_ID_CONFIG);
		if (clientIdPrefix != null && !clientIdPrefix.isBlank()) {
			config.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientIdPrefix);
		}
		return config;
	}

	/**
	 * One instance of a Kafka Streams application. Its client id base is the application
	 * id and a random UUID, as Kafka Streams' own default is the application id and its
	 * process id, so that instances stay distinct.
	 * @param applicationId its {@code application.id}
	 * @param config its streams configuration
	 * @return the request
	 */
	public static ClientRequest streams(String applicationId, Map<?, ?> config) {
		Map<String, Object> stringKeys = new LinkedHashMap<>();
		config.forEach((key, value) -> stringKeys.put(String.valueOf(key), value));
		return new ClientRequest(Kind.STREAMS, applicationId, stringKeys, Map.of(), null, null, ConsumerKind.STREAMS,
				applicationId + "-" + UUID.randomUUID(), null);
	}

	/**
	 * A consumer built from one configuration map: a binding's, or one the application
	 * builds itself.
	 * @param kind how the application consumes, most often {@link ConsumerKind#BINDING} or
	 * {@link ConsumerKind#OTHER}: its name is looked up in that kind's
	 * {@code follower-fetch.policy} property
	 * @param name the binding name, or for {@link ConsumerKind#OTHER} best its client id
	 * @param config its configuration
	 * @return the request
	 * @throws IllegalArgumentException for {@link ConsumerKind#SHARE}: share consumers take
	 * none of what the starter adds
	 */
	public static ClientRequest consumer(ConsumerKind kind, @Nullable String name, Map<String, ?> config) {
		if (kind == ConsumerKind.SHARE) {
			throw new IllegalArgumentException("A share consumer (" + name + ") takes no client.rack, replica "
					+ "lease or assignment strategy: share groups fetch from the leaders; build it without configure");
		}
		return new ClientRequest(Kind.CONSUMER, name, config, Map.of(), null, null, kind, name, null);
	}

	/**
	 * A producer factory.
	 * @param config its configuration
	 * @param clientIdBase what follows the zone tag when it has no {@code client.id}
	 * @return the request
	 */
	public static ClientRequest producer(Map<String, ?> config, String clientIdBase) {
		return new ClientRequest(Kind.PRODUCER, clientIdBase, config, Map.of(), null, null, null, clientIdBase, null);
	}

	/**
	 * Any other client, which takes only the zone tag in its {@code client.id}: an admin
	 * client, a binder's producer.
	 * @param config its configuration
	 * @param clientIdBase what follows the zone tag when it has no {@code client.id}
	 * @return the request
	 */
	public static ClientRequest client(Map<String, ?> config, String clientIdBase) {
		return new ClientRequest(Kind.CLIENT, clientIdBase, config, Map.of(), null, null, null, clientIdBase, null);
	}

	/**
	 * The value the client has for a setting: its own, else the one it inherits.
	 * @param key the setting
	 * @return the value, or {@code null}
	 */
	@Nullable Object effective(String key) {
		Object own = this.config.get(key);
		return (own != null) ? own : this.inherited.get(key);
	}

	/**
	 * The {@code client.id} the client has of its own: for a listener, its containers'
	 * client id prefix, else its factory's {@code client.id}.
	 * @return the client id, or {@code null} when it has none or a blank one
	 */
	public @Nullable String ownClientId() {
		Object own = effective(CommonClientConfigs.CLIENT_ID_CONFIG);
		return (own != null && !own.toString().isBlank()) ? own.toString() : null;
	}

	private static Map<String, ?> copy(Map<String, ?> config) {
		Map<String, Object> copy = new LinkedHashMap<>();
		copy.putAll(config);
		return Collections.unmodifiableMap(copy);
	}

	/**
	 * What kind of client a request is for.
	 */
	public enum Kind {

		/**
		 * A consumer factory.
		 */
		CONSUMER_FACTORY,

		/**
		 * A {@code @KafkaListener}'s annotation, before its container exists.
		 */
		LISTENER_ANNOTATION,

		/**
		 * A listener container, over its consumer factory.
		 */
		LISTENER,

		/**
		 * A Kafka Streams application.
		 */
		STREAMS,

		/**
		 * A consumer built from one map: a binding's, or one the application builds itself.
		 */
		CONSUMER,

		/**
		 * A producer factory.
		 */
		PRODUCER,

		/**
		 * Any other client: it takes only the zone tag in its {@code client.id}.
		 */
		CLIENT

	}

}
