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
package dev.followerfetch.assignment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.GroupProtocol;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.jspecify.annotations.Nullable;

/**
 * Decides what a consumer configuration needs for zone-aware assignment: the zone-aware
 * assignor first in {@code partition.assignment.strategy}, followed by the strategies the
 * consumer had, and the member's zone. A consumer that had no list (Kafka's default,
 * range then cooperative-sticky, which rebalances eagerly because range cannot cooperate)
 * gets the zone-aware assignor wrapping range, followed by cooperative-sticky alone: the
 * group rebalances cooperatively, so a rejoin that changes nothing revokes nothing (a
 * broker restart makes every consumer with {@code client.rack} rejoin before
 * kafka-clients 4.4, KAFKA-20778), and keeps range's balance and co-partitioning; in a
 * group with members that do not offer the zone-aware assignor, cooperative-sticky is the
 * common strategy, as in the second step of Kafka's move from eager to cooperative. A list
 * of the consumer's own stays as it is after the zone-aware assignor, and so does its
 * protocol. A list that names an assignor other than Kafka's own is kept as it is; so is
 * a consumer of the consumer group protocol (KIP-848), whose brokers assign partitions.
 *
 * @author follower-fetch authors
 */
public final class AssignmentStrategy {

	private static final Set<String> KAFKA_ASSIGNORS = Set.of(RangeAssignor.class.getName(),
			RoundRobinAssignor.class.getName(), StickyAssignor.class.getName(),
			CooperativeStickyAssignor.class.getName());

	private final boolean enabled;

	/**
	 * Create the decision.
	 * @param enabled {@code follower-fetch.assignment.enabled}
	 */
	public AssignmentStrategy(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * What one consumer configuration gets.
	 * @param config the configuration, as it is before the starter adds to it
	 * @param zone the zone this application runs in, or {@code null}
	 * @return the decision, with the settings to add
	 */
	public Decision decide(Map<String, ?> config, @Nullable String zone) {
		List<String> own = ZoneAwareAssignor.strategies(config.get(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG));
		if (usesConsumerProtocol(config)) {
			return new Decision(Outcome.BROKER, own, Map.of());
		}
		if (!this.enabled) {
			return new Decision(Outcome.DISABLED, own, Map.of());
		}
		Map<String, String> settings = new LinkedHashMap<>();
		if (zone != null && !zone.isBlank() && !config.containsKey(ZoneAwareAssignor.ZONE_CONFIG)) {
			settings.put(ZoneAwareAssignor.ZONE_CONFIG, zone);
		}
		if (own.contains(ZoneAwareAssignor.class.getName())) {
			return new Decision(Outcome.LISTED, own, settings);
		}
		if (!KAFKA_ASSIGNORS.containsAll(own)) {
			return new Decision(Outcome.KEPT, own, Map.of());
		}
		List<String> strategies = new ArrayList<>();
		strategies.add(ZoneAwareAssignor.class.getName());
		if (own.isEmpty()) {
			strategies.add(CooperativeStickyAssignor.class.getName());
			settings.put(ZoneAwareAssignor.WRAPPED_CONFIG, kafkaDefault().get(0));
		}
		else {
			strategies.addAll(own);
		}
		settings.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, String.join(",", strategies));
		return new Decision(Outcome.ADDED, strategies, settings);
	}

	/**
	 * Whether a configuration joins its group with the consumer group protocol.
	 * @param config a consumer configuration
	 * @return {@code true} for {@code group.protocol=consumer}
	 */
	public static boolean usesConsumerProtocol(Map<?, ?> config) {
		Object protocol = config.get(ConsumerConfig.GROUP_PROTOCOL_CONFIG);
		return protocol != null && GroupProtocol.CONSUMER.name().equalsIgnoreCase(protocol.toString().trim());
	}

	private static List<String> kafkaDefault() {
		return ZoneAwareAssignor.strategies(
				ConsumerConfig.configDef().defaultValues().get(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG));
	}

	/**
	 * What became of one consumer's assignment strategy.
	 */
	public enum Outcome {

		/**
		 * The zone-aware assignor was put first.
		 */
		ADDED,

		/**
		 * The configuration lists the zone-aware assignor itself.
		 */
		LISTED,

		/**
		 * The configuration names an assignor other than Kafka's own: kept as it is.
		 */
		KEPT,

		/**
		 * The consumer uses the consumer group protocol: its brokers assign.
		 */
		BROKER,

		/**
		 * {@code follower-fetch.assignment.enabled=false}.
		 */
		DISABLED

	}

	/**
	 * The decision for one consumer configuration.
	 *
	 * @param outcome what became of its strategy
	 * @param strategies the strategies it has afterwards, by class name (empty for
	 * Kafka's default)
	 * @param settings what to add to the configuration
	 */
	public record Decision(Outcome outcome, List<String> strategies, Map<String, String> settings) {

		public Decision {
			strategies = List.copyOf(strategies);
			settings = Map.copyOf(settings);
		}

	}

}
