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
package dev.followerfetch.assignment.differential;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.assignment.differential.GeneratedGroup.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.jspecify.annotations.Nullable;

/**
 * How the members of a group are configured, with the starter or without it, from the
 * application's {@code partition.assignment.strategy}: the starter's settings come from
 * {@link AssignmentStrategy#decide}, as the starter adds them. Each member's assignors are
 * created as Kafka's consumer creates them, from the class names with the original
 * settings and its client id, and the group rebalances with the newest protocol every one
 * of them supports; the first leads.
 *
 * @author follower-fetch authors
 */
final class ConsumerSetup {

	static final String GROUP = "differential";

	private static final AssignmentStrategy STARTER = new AssignmentStrategy(true);

	private final @Nullable Object strategy;

	private final boolean starter;

	private final List<String> strategies;

	private final @Nullable String wrapped;

	private final RebalanceProtocol protocol;

	private final ZoneAwareAssignors assignors = new ZoneAwareAssignors();

	private ConsumerSetup(@Nullable Object strategy, boolean starter) {
		this.strategy = strategy;
		this.starter = starter;
		Map<String, Object> application = application(null);
		if (starter) {
			AssignmentStrategy.Decision decision = STARTER.decide(application, null);
			if (decision.outcome() != AssignmentStrategy.Outcome.ADDED) {
				throw new IllegalStateException("The starter did not add the zone-aware assignor: " + decision);
			}
			this.strategies = decision.strategies();
			String named = decision.settings().get(ZoneAwareAssignor.WRAPPED_CONFIG);
			int own = this.strategies.indexOf(ZoneAwareAssignor.class.getName());
			this.wrapped = (named != null) ? named
					: (own + 1 < this.strategies.size()) ? this.strategies.get(own + 1) : RangeAssignor.class.getName();
		}
		else {
			Object value = (strategy != null) ? strategy
					: ConsumerConfig.configDef().defaultValues().get(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG);
			this.strategies = classNames(value);
			this.wrapped = null;
		}
		this.protocol = protocol(ConsumerPartitionAssignor.getAssignorInstances(this.strategies, new HashMap<>()));
	}

	/**
	 * Members as the starter configures them: the zone-aware assignor leads and wraps a
	 * Kafka strategy.
	 * @param strategy the application's {@code partition.assignment.strategy}, or
	 * {@code null}
	 * @return the setup
	 */
	static ConsumerSetup withStarter(@Nullable Object strategy) {
		return new ConsumerSetup(strategy, true);
	}

	/**
	 * Members as a plain application configures them: Kafka's default list when the
	 * strategy is not set.
	 * @param strategy the application's {@code partition.assignment.strategy}, or
	 * {@code null}
	 * @return the setup
	 */
	static ConsumerSetup withoutStarter(@Nullable Object strategy) {
		return new ConsumerSetup(strategy, false);
	}

	/**
	 * The settings a member's assignors are configured with: the application's, what the
	 * starter adds (its registry of zone-aware assignors among them), and the client id.
	 * @param consumer the member
	 * @param clientId its client id
	 * @return the settings
	 */
	Map<String, Object> config(Consumer consumer, String clientId) {
		Map<String, Object> config = application(consumer.clientRack());
		if (this.starter) {
			config.putAll(STARTER.decide(config, consumer.zone()).settings());
			config.put(ZoneAwareAssignor.REGISTRY_CONFIG, this.assignors);
		}
		config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
		return config;
	}

	/**
	 * The registry the members' zone-aware assignors register in.
	 * @return the registry
	 */
	ZoneAwareAssignors assignors() {
		return this.assignors;
	}

	/**
	 * A member's assignors, in its order of preference.
	 * @param config its settings
	 * @return the assignors, the one that leads the group first
	 */
	List<ConsumerPartitionAssignor> assignors(Map<String, Object> config) {
		return ConsumerPartitionAssignor.getAssignorInstances(this.strategies, config);
	}

	/**
	 * A new instance of the Kafka strategy the zone-aware assignor wraps, configured as a
	 * member's zone-aware assignor configures it.
	 * @param config the member's settings
	 * @return the Kafka assignor
	 */
	ConsumerPartitionAssignor wrapped(Map<String, Object> config) {
		return ConsumerPartitionAssignor.getAssignorInstances(List.of(wrappedName()), config).get(0);
	}

	/**
	 * The class name of the strategy the zone-aware assignor wraps, else of the one that
	 * leads the group.
	 * @return the class name
	 */
	String wrappedName() {
		return (this.wrapped != null) ? this.wrapped : this.strategies.get(0);
	}

	boolean starter() {
		return this.starter;
	}

	RebalanceProtocol protocol() {
		return this.protocol;
	}

	@Override
	public String toString() {
		String leader = this.strategies.get(0);
		return (this.starter ? "zone-aware over " + simpleName(wrappedName()) : simpleName(leader)) + ", "
				+ this.protocol;
	}

	private Map<String, Object> application(@Nullable String clientRack) {
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
		if (this.strategy != null) {
			config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, this.strategy);
		}
		if (clientRack != null) {
			config.put(ConsumerConfig.CLIENT_RACK_CONFIG, clientRack);
		}
		return config;
	}

	static String simpleName(String className) {
		return className.substring(className.lastIndexOf('.') + 1);
	}

	/**
	 * Kafka's consumer: the newest protocol every assignor in the list supports.
	 */
	private static RebalanceProtocol protocol(List<ConsumerPartitionAssignor> assignors) {
		List<RebalanceProtocol> common = new ArrayList<>(assignors.get(0).supportedProtocols());
		assignors.forEach((assignor) -> common.retainAll(assignor.supportedProtocols()));
		return Collections.max(common);
	}

	/**
	 * The class names of a {@code partition.assignment.strategy} value, as Kafka's
	 * configuration reads a list of classes.
	 */
	private static List<String> classNames(Object value) {
		Collection<?> entries = (value instanceof Collection<?> collection) ? collection
				: List.of(value.toString().split(","));
		return entries.stream()
			.map((entry) -> (entry instanceof Class<?> type) ? type.getName() : Objects.toString(entry).trim())
			.filter((name) -> !name.isEmpty())
			.toList();
	}

}
