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

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link ClientPlan} has to say about the client it was made for: the decider
 * logs nothing itself, so that planning a client again says nothing again; the adapter
 * that applies the plan has it said ({@link AppliedPlans}).
 *
 * @author follower-fetch authors
 */
public sealed interface PlanNote {

	/**
	 * Whether the note is said once per application context rather than for each client.
	 * @return {@code true} for a note about the application rather than one client
	 */
	default boolean once() {
		return false;
	}

	/**
	 * A client keeps the {@code client.rack} its configuration sets.
	 *
	 * @param client the client, as the log names it
	 * @param clientRack its own {@code client.rack}
	 * @param detectedRack the detected rack, or {@code null}
	 * @param source where the detected rack came from, or {@code null}
	 */
	record OwnClientRack(String client, String clientRack, @Nullable String detectedRack,
			@Nullable String source) implements PlanNote {

	}

	/**
	 * A consumer factory is left on the leaders by {@code follower-fetch.policy.default}.
	 *
	 * @param client the factory, as the log names it
	 */
	record LeftOnLeaders(String client) implements PlanNote {

	}

	/**
	 * A consumer keeps a {@code partition.assignment.strategy} of its own that does not
	 * name the zone-aware assignor.
	 *
	 * @param client the consumer, as the log names it
	 * @param strategies its strategies
	 */
	record OwnStrategy(String client, List<String> strategies) implements PlanNote {

		public OwnStrategy {
			strategies = List.copyOf(strategies);
		}

	}

	/**
	 * Consumers with {@code client.rack} rejoin their group twice for every broker restart
	 * on these kafka-clients (KAFKA-20778).
	 *
	 * @param kafkaVersion the kafka-clients version
	 */
	record Rejoins(String kafkaVersion) implements PlanNote {

		@Override
		public boolean once() {
			return true;
		}

	}

	/**
	 * {@code follower-fetch.client-id-zone} asks for a tag that no client id can get.
	 *
	 * @param clientIdZone the setting's value
	 * @param key the tag's key
	 * @param zone the detected zone, which has characters a tag cannot carry, or
	 * {@code null} when none was detected
	 */
	record NoClientIdTag(String clientIdZone, String key, @Nullable String zone) implements PlanNote {

		@Override
		public boolean once() {
			return true;
		}

	}

}
