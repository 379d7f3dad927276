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
package dev.followerfetch.benchmark.assignment;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time per {@code assign} of the group leader's assignor: the zone-aware assignor after
 * Kafka's range assignor against the range assignor, and after the cooperative-sticky
 * assignor against that one, on the grid of Kafka's {@code ClientSideAssignorBenchmark}
 * (jmh-benchmarks) and on three-zone groups. The defaults are a quick grid of a few
 * minutes; {@code -p} selects any other. A case whose group cannot be built and assigned
 * once within {@code assignor.setup.timeout} seconds (default 300; a system property of
 * the JVM that runs JMH, which its forks inherit) fails, as does one that throws (an
 * {@link OutOfMemoryError} too): JMH reports the failure and goes on with the next case.
 * Each trial prints the leader-zone share of its assignment; with
 * {@code -prof dev.followerfetch.benchmark.assignment.LeaderZoneProfiler} it is a
 * secondary result, and {@link AssignorTable} prints the cases side by side.
 *
 * @author follower-fetch authors
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Threads(1)
public class AssignorBenchmark {

	static final String SETUP_TIMEOUT = "assignor.setup.timeout";

	/**
	 * Members in the group (Kafka: 100, 500, 1000, 5000, 10000).
	 */
	@Param({ "100" })
	private int memberCount;

	/**
	 * Partitions per member, over all topics (Kafka: 5, 10, 50).
	 */
	@Param({ "10" })
	private int partitionsToMemberRatio;

	/**
	 * Topics (Kafka: 10, 100, 1000).
	 */
	@Param({ "10" })
	private int topicCount;

	@Param({ "HOMOGENEOUS" })
	private SubscriptionModel subscriptionModel;

	@Param({ "RACKS", "THREE_ZONES" })
	private Layout layout;

	@Param({ "FIRST", "MEMBER_JOINED" })
	private Rebalance rebalance;

	@Param({ "RANGE", "ZONE_AWARE_RANGE", "COOPERATIVE_STICKY", "ZONE_AWARE_COOPERATIVE_STICKY" })
	private AssignorType assignorType;

	private AssignorGroup group;

	@Setup(Level.Trial)
	public void setUp() throws Exception {
		long timeout = Long.getLong(SETUP_TIMEOUT, 300);
		FutureTask<AssignorGroup> building = new FutureTask<>(() -> {
			AssignorGroup built = AssignorGroup.of(this.assignorType, this.memberCount, this.partitionsToMemberRatio,
					this.topicCount, this.subscriptionModel, this.layout, this.rebalance);
			AssignorGroup.Outcome outcome = built.outcome(built.assign());
			LeaderZoneProfiler.record(outcome);
			System.out.println(System.lineSeparator() + this.assignorType + ": " + outcome);
			return built;
		});
		// a daemon, so that a case still running at the timeout does not keep the forked JVM alive
		Thread thread = new Thread(building, "assignor-setup");
		thread.setDaemon(true);
		thread.start();
		try {
			this.group = building.get(timeout, TimeUnit.SECONDS);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException(
					"the group and one assign() took over " + timeout + " s (" + SETUP_TIMEOUT + "), not measured", ex);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof Error error) {
				throw error;
			}
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
	}

	@Benchmark
	public GroupAssignment assign() {
		return this.group.assign();
	}

	/**
	 * Which assignor leads the group.
	 */
	public enum AssignorType {

		/**
		 * Kafka's range assignor.
		 */
		RANGE(false, RangeAssignor.class),

		/**
		 * The zone-aware assignor, Kafka's range assignor next.
		 */
		ZONE_AWARE_RANGE(true, RangeAssignor.class),

		/**
		 * Kafka's cooperative-sticky assignor.
		 */
		COOPERATIVE_STICKY(false, CooperativeStickyAssignor.class),

		/**
		 * The zone-aware assignor, Kafka's cooperative-sticky assignor next.
		 */
		ZONE_AWARE_COOPERATIVE_STICKY(true, CooperativeStickyAssignor.class);

		private final boolean zoneAware;

		private final Class<? extends ConsumerPartitionAssignor> inner;

		AssignorType(boolean zoneAware, Class<? extends ConsumerPartitionAssignor> inner) {
			this.zoneAware = zoneAware;
			this.inner = inner;
		}

		boolean zoneAware() {
			return this.zoneAware;
		}

		Class<? extends ConsumerPartitionAssignor> inner() {
			return this.inner;
		}

		/**
		 * Whether the group runs the cooperative protocol, where members report the
		 * partitions they own.
		 */
		boolean cooperative() {
			return this.inner == CooperativeStickyAssignor.class;
		}

		/**
		 * The plain assignor this one is compared with.
		 */
		AssignorType plain() {
			return (this.inner == RangeAssignor.class) ? RANGE : COOPERATIVE_STICKY;
		}

	}

	/**
	 * What the members subscribe to, as Kafka's benchmark has it.
	 */
	public enum SubscriptionModel {

		/**
		 * Every member every topic.
		 */
		HOMOGENEOUS,

		/**
		 * Member {@code i} topics {@code i} and {@code i + 1} (modulo the topics), and
		 * every member the topics no member reaches that way.
		 */
		HETEROGENEOUS

	}

	/**
	 * Where the brokers and members are: three brokers, one per zone, and the members
	 * spread over the zones in an order unrelated to their ids, as a consumer's member
	 * id is random (in id order, a round robin can meet the leaders' order by chance).
	 */
	public enum Layout {

		/**
		 * Kafka's {@code isRackAware=false}: RF=2, no member has a zone.
		 */
		NO_RACKS,

		/**
		 * Kafka's {@code isRackAware=true}: RF=2, as many members in each zone, their
		 * {@code client.rack} set (LOCALITY).
		 */
		RACKS,

		/**
		 * RF=3 over the three zones, leaders spread evenly over them (each topic's
		 * starting one zone further), as many members in each zone; in each zone half
		 * LOCALITY, half FRESHNESS (zone in {@code follower.fetch.zone},
		 * {@code client.rack} empty).
		 */
		THREE_ZONES

	}

	/**
	 * Which rebalance of the group is measured.
	 */
	public enum Rebalance {

		/**
		 * The first: nobody owns anything (Kafka's
		 * {@code simulateRebalanceTrigger=false}).
		 */
		FIRST,

		/**
		 * The second: all but the last member own what the first gave them, and the last
		 * one joins (Kafka's {@code simulateRebalanceTrigger=true}).
		 */
		MEMBER_JOINED,

		/**
		 * The second: all members own what the first gave them, and the last one has
		 * left.
		 */
		MEMBER_LEFT

	}

}
