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
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.jspecify.annotations.Nullable;

/**
 * What one client gets, decided once by {@link ClientRackDecider#plan(ClientRequest)}:
 * its policy and what decided it, the settings to add to its configuration (never one it
 * sets itself), its {@code client.id}, and what there is to say about it. Adapters apply
 * a plan and decide nothing. A function of the request and the decider's settings: the
 * same request gets an equal plan.
 *
 * @param policy the consumer's policy and what decided it; {@code null} for a consumer
 * factory (which carries the default policy for the consumers that use it), a producer
 * and any other client
 * @param settings the settings to add, in the keys of the client's configuration (a Kafka
 * Streams consumer setting is prefixed); a listener's go into its own consumer properties
 * @param clientId the {@code client.id} to set for {@code follower-fetch.client-id-zone} (a
 * listener's is its containers' client id prefix), or {@code null} to keep the client's
 * @param assignors the registry a consumer whose strategies name the zone-aware assignor
 * hands it, as {@value ZoneAwareAssignor#REGISTRY_CONFIG} (an object, not text: a
 * configuration map or {@code Properties} carries it, an annotation's text cannot), or
 * {@code null} for none
 * @param notes what there is to say about the client, which the adapter applying the plan
 * has said ({@link AppliedPlans})
 * @author follower-fetch authors
 */
public record ClientPlan(@Nullable ConsumerPolicy policy, Map<String, String> settings, @Nullable String clientId,
		@Nullable ZoneAwareAssignors assignors, List<PlanNote> notes) {

	public ClientPlan {
		settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
		notes = List.copyOf(notes);
	}

	/**
	 * A plan with nothing to say.
	 * @param policy the consumer's policy and what decided it, or {@code null}
	 * @param settings the settings to add
	 * @param clientId the {@code client.id} to set, or {@code null}
	 * @param assignors the registry of zone-aware assignors to hand, or {@code null}
	 */
	public ClientPlan(@Nullable ConsumerPolicy policy, Map<String, String> settings, @Nullable String clientId,
			@Nullable ZoneAwareAssignors assignors) {
		this(policy, settings, clientId, assignors, List.of());
	}

	/**
	 * A plan that hands no registry of zone-aware assignors and has nothing to say.
	 * @param policy the consumer's policy and what decided it, or {@code null}
	 * @param settings the settings to add
	 * @param clientId the {@code client.id} to set, or {@code null}
	 */
	public ClientPlan(@Nullable ConsumerPolicy policy, Map<String, String> settings, @Nullable String clientId) {
		this(policy, settings, clientId, null);
	}

	/**
	 * The same plan with another {@code client.id}.
	 * @param clientId the {@code client.id} to set
	 * @return the plan
	 */
	ClientPlan withClientId(String clientId) {
		return new ClientPlan(this.policy, this.settings, clientId, this.assignors, this.notes);
	}

	/**
	 * The {@code client.id} to set.
	 * @return the client id, or empty to keep the client's
	 */
	public Optional<String> clientIdToSet() {
		return Optional.ofNullable(this.clientId);
	}

	/**
	 * The settings to add, with the registry of zone-aware assignors and {@code client.id}
	 * among them when the plan has them: what a client whose {@code client.id} is a
	 * configuration setting takes.
	 * @return the settings
	 */
	public Map<String, Object> configs() {
		Map<String, Object> configs = new LinkedHashMap<>(this.settings);
		if (this.assignors != null) {
			configs.put(ZoneAwareAssignor.REGISTRY_CONFIG, this.assignors);
		}
		if (this.clientId != null) {
			configs.put(CommonClientConfigs.CLIENT_ID_CONFIG, this.clientId);
		}
		return Collections.unmodifiableMap(configs);
	}

	/**
	 * Add {@link #configs()} to a configuration map; one that gets nothing is not touched.
	 * @param config the configuration, changed in place
	 */
	public void applyTo(Map<? super String, Object> config) {
		Map<String, Object> configs = configs();
		if (!configs.isEmpty()) {
			config.putAll(configs);
		}
	}

	/**
	 * Whether the plan adds nothing.
	 * @return {@code true} when there are no settings, no registry and no client id to
	 * set
	 */
	public boolean isEmpty() {
		return this.settings.isEmpty() && this.assignors == null && this.clientId == null;
	}

}
