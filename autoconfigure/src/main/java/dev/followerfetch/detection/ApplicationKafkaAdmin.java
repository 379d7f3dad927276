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

import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The client settings the starter reads the cluster with: those of the application's one
 * {@link KafkaAdmin}, for the brokers' racks at detection and for placement and replica
 * selectors in the observation. Public for the observation package only.
 *
 * @author follower-fetch authors
 */
public final class ApplicationKafkaAdmin {

	private ApplicationKafkaAdmin() {
	}

	/**
	 * The configuration of the application's {@link KafkaAdmin}, read when called.
	 * @param kafkaAdmin the application's admins
	 * @return its configuration
	 * @throws IllegalStateException when the application has no {@code KafkaAdmin}, or
	 * several and none primary
	 */
	public static Map<String, Object> configuration(ObjectProvider<KafkaAdmin> kafkaAdmin) {
		KafkaAdmin admin = kafkaAdmin.getIfUnique();
		if (admin == null) {
			throw new IllegalStateException("no single KafkaAdmin bean to read the cluster with");
		}
		return admin.getConfigurationProperties();
	}

}
