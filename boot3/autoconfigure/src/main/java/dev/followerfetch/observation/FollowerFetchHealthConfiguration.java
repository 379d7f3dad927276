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
package dev.followerfetch.observation;

import dev.followerfetch.FollowerFetchProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code followerFetch} health contributor, on Spring Boot 3's health API. Imported by
 * {@link FollowerFetchObservationAutoConfiguration}.
 *
 * @author follower-fetch authors
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnEnabledHealthIndicator("followerfetch")
class FollowerFetchHealthConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "followerFetchHealthIndicator")
	FollowerFetchHealthIndicator followerFetchHealthIndicator(FollowerFetchProperties properties,
			ObjectProvider<ReadLocalityMonitor> monitor) {
		return new FollowerFetchHealthIndicator(FollowerFetchObservationAutoConfiguration.healthSnapshots(monitor),
				FollowerFetchObservationAutoConfiguration.degradedStatus(properties));
	}

}
