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
package dev.followerfetch.assignment.kafka;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

import dev.followerfetch.assignment.AssignmentStrategy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignorTest;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka's {@code ConsumerPartitionAssignorTest} (how the consumer instantiates the
 * assignors of its {@code partition.assignment.strategy}), and the same on every list
 * the starter writes: the zone-aware assignor first, then the consumer's own.
 *
 * @author follower-fetch authors
 */
@ExtendWith(KafkaSuite.class)
class ZoneAwareAssignorInstancesTests extends ConsumerPartitionAssignorTest {

	static Stream<List<String>> ownLists() {
		return Stream.of(List.of(), List.of(RangeAssignor.class.getName()), List.of(RoundRobinAssignor.class.getName()),
				List.of(StickyAssignor.class.getName()), List.of(CooperativeStickyAssignor.class.getName()),
				List.of(RangeAssignor.class.getName(), CooperativeStickyAssignor.class.getName()));
	}

	@ParameterizedTest
	@MethodSource("ownLists")
	void theConsumerInstantiatesTheStartersListInOrder(List<String> own) {
		List<String> strategies = decision(own).strategies();
		List<ConsumerPartitionAssignor> assignors = ConsumerPartitionAssignor.getAssignorInstances(strategies,
				Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "client-a"));
		assertThat(assignors).map((assignor) -> assignor.getClass().getName()).containsExactlyElementsOf(strategies);
		assertThat(assignors.get(0)).isInstanceOf(ZoneAwareAssignor.class);
		assertThat(assignors).map(ConsumerPartitionAssignor::name).doesNotHaveDuplicates();
	}

	@ParameterizedTest
	@MethodSource("ownLists")
	void theConsumerReadsTheStartersListFromItsConfiguration(List<String> own) {
		Properties props = new Properties();
		props.putAll(ownConfig(own));
		props.putAll(decision(own).settings());
		props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		ConsumerConfig config = new ConsumerConfig(props);
		List<ConsumerPartitionAssignor> assignors = ConsumerPartitionAssignor.getAssignorInstances(
				config.getList(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG), config.originals());
		assertThat(assignors).map((assignor) -> assignor.getClass().getName())
			.containsExactlyElementsOf(decision(own).strategies());
	}

	@ParameterizedTest
	@MethodSource("ownLists")
	void theZoneAwareAssignorLeavesTheRebalanceProtocolOfAConsumersOwnListAsItWas(List<String> own) {
		if (own.isEmpty()) {
			return;
		}
		List<String> strategies = decision(own).strategies();
		assertThat(newestCommonProtocol(strategies))
			.isEqualTo(newestCommonProtocol(strategies.subList(1, strategies.size())));
	}

	@Test
	void aConsumerWithKafkasDefaultListRebalancesCooperativelyWithRangesBalanceWrapped() {
		AssignmentStrategy.Decision decision = decision(List.of());
		assertThat(newestCommonProtocol(List.of(RangeAssignor.class.getName(),
				CooperativeStickyAssignor.class.getName()))).as("Kafka's default list").isEqualTo(RebalanceProtocol.EAGER);
		assertThat(decision.strategies()).containsExactly(ZoneAwareAssignor.class.getName(),
				CooperativeStickyAssignor.class.getName());
		assertThat(newestCommonProtocol(decision.strategies())).isEqualTo(RebalanceProtocol.COOPERATIVE);
		assertThat(decision.settings()).containsEntry(ZoneAwareAssignor.WRAPPED_CONFIG, RangeAssignor.class.getName());
	}

	private static Map<String, Object> ownConfig(List<String> own) {
		return own.isEmpty() ? Map.of()
				: Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, String.join(",", own));
	}

	private static AssignmentStrategy.Decision decision(List<String> own) {
		AssignmentStrategy.Decision decision = new AssignmentStrategy(true).decide(ownConfig(own), "az-a");
		assertThat(decision.outcome()).isEqualTo(AssignmentStrategy.Outcome.ADDED);
		return decision;
	}

	/**
	 * The protocol Kafka's consumer rebalances with: the newest that every assignor of its
	 * list supports.
	 */
	private static RebalanceProtocol newestCommonProtocol(List<String> strategies) {
		Set<RebalanceProtocol> common = EnumSet.allOf(RebalanceProtocol.class);
		// configured as Kafka's consumer configures them: with its settings, the list included
		ConsumerPartitionAssignor.getAssignorInstances(strategies,
				Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, String.join(",", strategies)))
			.forEach((assignor) -> common.retainAll(assignor.supportedProtocols()));
		return common.stream().max(Enum::compareTo).orElseThrow();
	}

}
