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

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.clients.consumer.internals.AbstractStickyAssignorTest;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.LoggerFactory;

/**
 * Times the zone-aware assignor against the strategy it wraps on the inputs of Kafka's
 * large-group sticky tests ({@link KafkaSuite#TESTS}), which run under a time limit of
 * Kafka's own. Each of Kafka's tests runs once as the {@code kafka-assignor-large} leg runs
 * it (its time is printed); then every rebalance it led is replayed, the wrapped strategy
 * alone on what the zone-aware assignor hands it and the zone-aware assignor on what the
 * members sent, interleaved, and the median of each is printed with their ratio and a
 * digest of the zone-aware assignment (identical before and after a change that must not
 * change any output). A main, not a test: it prints timings and asserts nothing.
 * <p>
 * Run with the core's test class path and a large heap, for example
 * {@code java -Xmx6g -cp "core/target/test-classes:core/target/classes:$(cat cp.txt)"
 * dev.followerfetch.assignment.kafka.LargeGroupTimings}, where {@code cp.txt} comes from
 * {@code ./mvnw -o -q -pl core dependency:build-classpath -Dmdep.outputFile=cp.txt}.
 * {@code -Drepetitions=5} (3), {@code -Dsuites=sticky,cooperative-sticky},
 * {@code -Dtests=<method names>}, {@code -Dracks=false,true} and
 * {@code -Dassignors=kafka,zone-aware} narrow it, for a profiler; {@code -Dlevel=INFO} lets the leader
 * log its summary of each rebalance, as applications do by default (the suites leave it
 * out).
 *
 * @author follower-fetch authors
 */
public final class LargeGroupTimings {

	private LargeGroupTimings() {
	}

	public static void main(String[] args) throws Exception {
		((Logger) LoggerFactory.getLogger(ZoneAwareAssignor.class))
			.setLevel(Level.toLevel(System.getProperty("level"), Level.WARN));
		int repetitions = Integer.getInteger("repetitions", 3);
		List<String> suites = List.of(System.getProperty("suites", "sticky,cooperative-sticky").split(","));
		List<String> tests = List.of(System.getProperty("tests", String.join(",", new TreeSet<>(KafkaSuite.TESTS)))
			.split(","));
		List<String> racks = List.of(System.getProperty("racks", "false,true").split(","));
		List<String> assignors = List.of(System.getProperty("assignors", "kafka,zone-aware").split(","));
		System.out.printf("%-20s %-57s %-5s %-2s %13s %13s %13s %11s  %s%n", "suite", "test", "rack", "#",
				"test cpu/wall", "kafka", "zone-aware", "ratio", "digest of the zone-aware assignment");
		for (String suite : suites) {
			for (String test : tests) {
				for (String rack : racks) {
					run(suite, test, Boolean.parseBoolean(rack), repetitions, assignors);
				}
			}
		}
	}

	private static void run(String suite, String test, boolean rack, int repetitions, List<String> assignors)
			throws Exception {
		AbstractStickyAssignorTest kafkaTest = suite.equals("sticky") ? new ZoneAwareStickyTests()
				: new ZoneAwareCooperativeStickyTests();
		Class<? extends ConsumerPartitionAssignor> inner = suite.equals("sticky") ? StickyAssignor.class
				: CooperativeStickyAssignor.class;
		Supplier<ConsumerPartitionAssignor> kafka = suite.equals("sticky") ? StickyAssignor::new
				: CooperativeStickyAssignor::new;
		kafkaTest.setUp();
		Method method = AbstractStickyAssignorTest.class.getMethod(test, boolean.class);
		Timing testTiming;
		try {
			testTiming = Timing.of(() -> {
				try {
					method.invoke(kafkaTest, rack);
				}
				catch (ReflectiveOperationException ex) {
					throw new IllegalStateException(ex.getCause());
				}
			});
		}
		catch (IllegalStateException ex) {
			System.out.printf("%-20s %-57s %-5s failed: %s%n", suite, test, rack, ex.getCause());
			return;
		}
		StarterGroup group = Objects.requireNonNull(KafkaSuite.group(kafkaTest));
		List<KafkaObjectives.Rebalance> led = group.led();
		for (int r = 0; r < led.size(); r++) {
			KafkaObjectives.Rebalance rebalance = led.get(r);
			Cluster cluster = StarterGroup.cluster(rebalance.partitionsPerTopic());
			List<Timing> kafkaTimings = new ArrayList<>();
			List<Timing> zoneTimings = new ArrayList<>();
			String digest = "";
			for (int i = 0; i < repetitions; i++) {
				boolean kafkaFirst = i % 2 == 0;
				for (int turn = 0; turn < 2; turn++) {
					if ((turn == 0) == kafkaFirst) {
						if (assignors.contains("kafka")) {
							kafkaTimings.add(Timing.of(() -> kafka.get()
								.assign(cluster, new GroupSubscription(KafkaObjectives.unwrapped(rebalance.sent())))));
						}
					}
					else if (assignors.contains("zone-aware")) {
						ZoneAwareAssignor leader = new ZoneAwareAssignor();
						leader.configure(StarterGroup.config("leader", null, null, inner));
						GroupAssignment[] out = new GroupAssignment[1];
						zoneTimings.add(Timing.of(
								() -> out[0] = leader.assign(cluster, new GroupSubscription(rebalance.sent()))));
						digest = digest(out[0]);
					}
				}
			}
			Timing kafkaMedian = Timing.median(kafkaTimings);
			Timing zoneMedian = Timing.median(zoneTimings);
			System.out.printf("%-20s %-57s %-5s %-2d %13s %13s %13s %11s  %s%n", suite, test, rack, r + 1,
					(r == 0) ? testTiming : "", kafkaMedian, zoneMedian, zoneMedian.ratio(kafkaMedian), digest);
		}
	}

	/**
	 * Each member's partitions in the order handed out, and its user data, by member id.
	 */
	private static String digest(GroupAssignment assignment) throws NoSuchAlgorithmException {
		MessageDigest sha = MessageDigest.getInstance("SHA-256");
		new TreeMap<>(assignment.groupAssignment()).forEach((memberId, given) -> {
			sha.update(memberId.getBytes(StandardCharsets.UTF_8));
			List<String> partitions = new ArrayList<>();
			for (TopicPartition tp : given.partitions()) {
				partitions.add(tp.toString());
			}
			sha.update(String.join(",", partitions).getBytes(StandardCharsets.UTF_8));
			if (given.userData() != null) {
				sha.update(given.userData().duplicate());
			}
		});
		return HexFormat.of().formatHex(sha.digest(), 0, 8);
	}

}
