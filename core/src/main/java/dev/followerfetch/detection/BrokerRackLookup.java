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
package dev.followerfetch.detection;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Reads the racks the brokers are labelled with.
 *
 * @author follower-fetch authors
 */
@FunctionalInterface
public interface BrokerRackLookup {

	/**
	 * The distinct {@code broker.rack} values of the cluster's brokers.
	 * @param timeout the most time the lookup may take
	 * @return the racks; empty when no broker has a rack
	 * @throws Exception when the cluster cannot be reached in time
	 */
	Set<String> brokerRacks(Duration timeout) throws Exception;

	/**
	 * Read the racks with a short-lived admin client.
	 * @param adminConfig the admin client's configuration: bootstrap servers and security
	 * @return the lookup
	 */
	static BrokerRackLookup admin(Map<String, Object> adminConfig) {
		return new AdminBrokerRackLookup(adminConfig);
	}

}
