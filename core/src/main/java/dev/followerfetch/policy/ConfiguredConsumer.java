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
import org.jspecify.annotations.Nullable;

/**
 * A consumer the application builds itself and configured through
 * {@link ClientRackDecider#configure(ConsumerKind, String, Map)}: the monitor attributes
 * the client with this client id (or, without one, with the name as client id) to it and
 * judges it under its declared policy.
 *
 * @param policy the decision, with the name the application gave
 * @param clientId the configuration's {@code client.id}, or {@code null}
 * @param clientRack the {@code client.rack} the consumer reads with, or {@code null} when
 * it has none
 * @param config the consumer configuration as configured (its {@code bootstrap.servers}
 * name the cluster it reads)
 * @author follower-fetch authors
 */
public record ConfiguredConsumer(ConsumerPolicy policy, @Nullable String clientId, @Nullable String clientRack,
		Map<String, Object> config) {

	public ConfiguredConsumer {
		config = Collections.unmodifiableMap(new LinkedHashMap<>(config));
	}

	/**
	 * Whether a client id is this consumer's.
	 * @param candidate a client id
	 * @return {@code true} when it is the configured {@code client.id}, or the name
	 */
	public boolean hasClientId(String candidate) {
		return candidate.equals((this.clientId != null) ? this.clientId : this.policy.name());
	}

	/**
	 * Told of each consumer configured through
	 * {@link ClientRackDecider#configure(ConsumerKind, String, Map)}: the observation, which
	 * judges it under its declared policy.
	 */
	@FunctionalInterface
	public interface Observer {

		/**
		 * A consumer was configured.
		 * @param consumer the consumer, as configured
		 */
		void configured(ConfiguredConsumer consumer);

	}

}
