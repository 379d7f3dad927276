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
package dev.followerfetch.benchmark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.LoggerFactory;

/**
 * What one rebalance costs the group leader: the zone-aware assignor against Kafka's
 * range and cooperative-sticky assignors on the same groups (members spread over three
 * zones, partitions led by every zone), from a first assignment and from a steady one
 * (each member owning what the previous round gave it). Wall-clock time of
 * {@code assign} in one JVM, after warm-up. Not a unit test; run it with
 * {@code ./mvnw -B -pl autoconfigure -am test-compile exec:exec@assignment-benchmark}.
 *
 * @author follower-fetch authors
 */
public final class AssignmentBenchmark {

	private static final int[][] SIZES = { { 3, 6 }, { 30, 600 }, { 100, 3000 }, { 300, 12000 } };

	private static final Node[] BROKERS = { new Node(0, "localhost", 9092, "az-a"), new Node(1, "localhost", 9093, "az-b"),
			new Node(2, "localhost", 9094, "az-c") };

	private AssignmentBenchmark() {
	}

	public static void main(String[] args) {
		// the leader's line for each of thousands of rebalances is not what is measured
		((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class))
			.setLevel(ch.qos.logback.classic.Level.WARN);
		System.out.printf("%-22s %-20s %12s %12s %12s %10s%n", "members x partitions", "assignor", "first p50",
				"steady p50", "steady p99", "vs range");
		for (int[] size : SIZES) {
			int members = size[0];
			int partitions = size[1];
			Cluster cluster = cluster(partitions);
			double range = -1;
			for (Map.Entry<String, Supplier<ConsumerPartitionAssignor>> assignor : assignors().entrySet()) {
				double[] first = measure(assignor.getValue(), cluster, members, false);
				double[] steady = measure(assignor.getValue(), cluster, members, true);
				if (range < 0) {
					range = steady[0];
				}
				System.out.printf("%-22s %-20s %10.2f ms %10.2f ms %10.2f ms %9.1fx%n", members + " x " + partitions,
						assignor.getKey(), first[0], steady[0], steady[1], steady[0] / range);
			}
		}
	}

	private static Map<String, Supplier<ConsumerPartitionAssignor>> assignors() {
		Map<String, Supplier<ConsumerPartitionAssignor>> assignors = new LinkedHashMap<>();
		assignors.put("range", RangeAssignor::new);
		assignors.put("cooperative-sticky", CooperativeStickyAssignor::new);
		assignors.put("zone-aware (range)", () -> zoneAware(RangeAssignor.class.getName()));
		assignors.put("zone-aware (sticky)", () -> zoneAware(CooperativeStickyAssignor.class.getName()));
		return assignors;
	}

	private static ZoneAwareAssignor zoneAware(String next) {
		ZoneAwareAssignor assignor = new ZoneAwareAssignor();
		assignor.configure(Map.of(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
				ZoneAwareAssignor.class.getName() + "," + next));
		return assignor;
	}

	/**
	 * Median and 99th percentile of {@code assign}, in milliseconds.
	 */
	private static double[] measure(Supplier<ConsumerPartitionAssignor> factory, Cluster cluster, int members,
			boolean steady) {
		int rounds = Math.max(20, 2000 / Math.max(1, cluster.partitionCountForTopic("events") / 10));
		List<Long> times = new ArrayList<>();
		for (int round = -rounds / 2; round < rounds; round++) {
			Map<String, Subscription> subscriptions = subscriptions(factory, members, Map.of());
			if (steady) {
				Map<String, List<TopicPartition>> previous = new HashMap<>();
				factory.get()
					.assign(cluster, new GroupSubscription(subscriptions))
					.groupAssignment()
					.forEach((member, assignment) -> previous.put(member, assignment.partitions()));
				subscriptions = subscriptions(factory, members, previous);
			}
			ConsumerPartitionAssignor assignor = factory.get();
			long start = System.nanoTime();
			assignor.assign(cluster, new GroupSubscription(subscriptions));
			long took = System.nanoTime() - start;
			if (round >= 0) {
				times.add(took);
			}
		}
		long[] sorted = times.stream().mapToLong(Long::longValue).sorted().toArray();
		return new double[] { sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.99)] / 1e6 };
	}

	private static Map<String, Subscription> subscriptions(Supplier<ConsumerPartitionAssignor> factory, int members,
			Map<String, List<TopicPartition>> owned) {
		Map<String, Subscription> subscriptions = new HashMap<>();
		for (int m = 0; m < members; m++) {
			String zone = BROKERS[m % 3].rack();
			String id = "member-%04d".formatted(m);
			ConsumerPartitionAssignor member = factory.get();
			if (member instanceof ZoneAwareAssignor zoneAware) {
				zoneAware.configure(Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, zone));
			}
			subscriptions.put(id, new Subscription(List.of("events"),
					member.subscriptionUserData(Set.of("events")), owned.getOrDefault(id, List.of()), 1,
					Optional.of(zone)));
		}
		return subscriptions;
	}

	private static Cluster cluster(int partitions) {
		List<PartitionInfo> infos = new ArrayList<>();
		for (int p = 0; p < partitions; p++) {
			Node[] replicas = { BROKERS[p % 3], BROKERS[(p + 1) % 3], BROKERS[(p + 2) % 3] };
			infos.add(new PartitionInfo("events", p, replicas[0], replicas, Arrays.copyOf(replicas, 3)));
		}
		return new Cluster("benchmark", Arrays.asList(BROKERS), infos, Set.of(), Set.of());
	}

}
