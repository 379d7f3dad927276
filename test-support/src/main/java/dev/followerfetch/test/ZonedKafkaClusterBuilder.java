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
package dev.followerfetch.test;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.replica.RackAwareReplicaSelector;

import org.springframework.util.Assert;

/**
 * What every builder of a {@link ZonedKafkaCluster} sets, in process or in containers:
 * the zones, the replica selector, the brokers' properties and the bound of every wait.
 * Each kind's {@code Builder} adds what only it has and starts its cluster from the
 * {@link #settings()}.
 *
 * @param <B> the builder that extends this one, which every method returns
 * @author follower-fetch authors
 */
abstract class ZonedKafkaClusterBuilder<B extends ZonedKafkaClusterBuilder<B>> {

	private List<String> zones = MultiZoneKafkaCluster.DEFAULT_ZONES;

	private boolean replicaSelector = true;

	private final Map<String, String> brokerProperties = new LinkedHashMap<>();

	private Duration timeout;

	ZonedKafkaClusterBuilder(Duration defaultTimeout) {
		this.timeout = defaultTimeout;
	}

	/**
	 * Run one broker per zone; broker {@code i} gets {@code broker.rack} = the
	 * {@code i}-th zone.
	 * @param zones distinct zone names, e.g. {@code use1-az1} or {@code us-east-1a}
	 * @return this builder
	 */
	public B zones(String... zones) {
		Assert.notEmpty(zones, "'zones' must not be empty");
		List<String> list = List.of(zones);
		Assert.isTrue(list.stream().allMatch((zone) -> !zone.isBlank()), "'zones' must not contain blank names");
		Assert.isTrue(Set.copyOf(list).size() == list.size(), () -> "'zones' must be distinct: " + list);
		this.zones = list;
		return self();
	}

	/**
	 * Whether the brokers use {@link RackAwareReplicaSelector}, which lets consumers
	 * with {@code client.rack} read from a follower. Without it every read goes to the
	 * leader.
	 * @param replicaSelector whether to set {@code replica.selector.class}
	 * @return this builder
	 */
	public B replicaSelector(boolean replicaSelector) {
		this.replicaSelector = replicaSelector;
		return self();
	}

	/**
	 * Set a property on every broker, such as {@code replica.fetch.wait.max.ms} or
	 * {@code min.insync.replicas}.
	 * @param name the property name; {@code broker.rack} comes from the zones
	 * @param value the property value
	 * @return this builder
	 */
	public B brokerProperty(String name, String value) {
		Assert.hasText(name, "'name' must not be empty");
		Assert.isTrue(!"broker.rack".equals(name), "'broker.rack' is set from the zones");
		this.brokerProperties.put(name, value);
		return self();
	}

	/**
	 * Bound the waits for brokers to start and stop, for topics to be ready and for
	 * records to be acknowledged.
	 * @param timeout the maximum time to wait
	 * @return this builder
	 */
	public B timeout(Duration timeout) {
		Assert.isTrue(timeout != null && !timeout.isNegative() && !timeout.isZero(), "'timeout' must be positive");
		this.timeout = timeout;
		return self();
	}

	/**
	 * Return what this builder has been told so far.
	 * @return the settings
	 */
	final Settings settings() {
		return new Settings(this.zones, this.replicaSelector,
				Collections.unmodifiableMap(new LinkedHashMap<>(this.brokerProperties)), this.timeout);
	}

	@SuppressWarnings("unchecked")
	private B self() {
		return (B) this;
	}

	/**
	 * What a cluster of either kind is started with.
	 *
	 * @param zones the zones, in broker id order
	 * @param replicaSelector whether the brokers use the rack-aware replica selector
	 * @param brokerProperties further properties of every broker, in the order they were set
	 * @param timeout the bound of every wait
	 */
	record Settings(List<String> zones, boolean replicaSelector, Map<String, String> brokerProperties,
			Duration timeout) {

	}

}
