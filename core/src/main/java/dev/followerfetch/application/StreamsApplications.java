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
package dev.followerfetch.application;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import dev.followerfetch.policy.ConsumerPolicy;

/**
 * What was decided for each Kafka Streams application, by application id, as its
 * {@code StreamsBuilderFactoryBean} was configured. Available as a bean.
 *
 * @author follower-fetch authors
 */
public final class StreamsApplications {

	private final Map<String, StreamsApplication> applications = new ConcurrentHashMap<>();

	/**
	 * No application seen yet.
	 */
	public StreamsApplications() {
	}

	/**
	 * What was decided for one Kafka Streams application.
	 * @param applicationId the application id
	 * @return the decision, or empty when no factory with that application id was seen
	 */
	public Optional<StreamsApplication> get(String applicationId) {
		return Optional.ofNullable(this.applications.get(applicationId));
	}

	/**
	 * The application ids of every Kafka Streams application seen.
	 * @return the application ids, sorted
	 */
	public Set<String> applicationIds() {
		return new TreeSet<>(this.applications.keySet());
	}

	/**
	 * Keep what was decided for a Kafka Streams application, replacing what was kept for
	 * its application id.
	 * @param application the decision
	 */
	public void record(StreamsApplication application) {
		this.applications.put(application.policy().name(), application);
	}

	/**
	 * One Kafka Streams application: its policy and the settings its consumers end up
	 * with.
	 *
	 * @param policy the policy, named by application id
	 * @param clientRacks the effective {@code client.rack} of the {@code main},
	 * {@code restore} and {@code global} consumers ({@code ""} when none)
	 * @param rackAwareAssignmentStrategy the effective
	 * {@code rack.aware.assignment.strategy} (KIP-925), which uses the main consumer's
	 * rack
	 */
	public record StreamsApplication(ConsumerPolicy policy, Map<String, String> clientRacks,
			String rackAwareAssignmentStrategy) {

	}

}
