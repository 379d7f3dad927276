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

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.followerfetch.assignment.ZoneAwareAssignment;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.differential.GeneratedGroup.Phase;
import dev.followerfetch.assignment.differential.Rebalances.Sync;
import dev.followerfetch.assignment.differential.Rebalances.Wire;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.RebalanceProtocol;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * One generated group, rebalanced by the starter's members and by a plain application's,
 * with Kafka's own assignors as the oracle. In every rebalance of the starter's side,
 * Kafka's strategy that the zone-aware assignor wraps assigns the same input, the
 * subscriptions as the leader received them, each with the user data the zone-aware
 * assignor hands it: an instance configured as the leader's and told what the leader's
 * wrapped one is told, for Kafka's sticky assignors keep state from one assignment to the
 * next. Where Kafka's throws, or its plain group cannot go on (a partition given twice,
 * or one its coordinator rejects), the group is skipped. Defects are an exception only
 * the zone-aware assignor throws; a partition given to two members, to a member not
 * subscribed to its topic, or that the metadata does not have; under the cooperative
 * protocol, a partition given while another member still owns it (Kafka's coordinator
 * rejects that assignment), or left to nobody though nobody owns it and Kafka's strategy
 * assigns it; under the eager one, other partitions than Kafka's; a zone kept that is no
 * rack; and a fallback to the wrapped strategy's assignment for any reason but the rule's
 * budget. Each phase runs until the group converges on each side, at most {@value #CAP}
 * rebalances: the zone-aware side then assigns every partition the plain side does, in at
 * most one more rebalance.
 * <p>
 * Time is only reported: a zone-aware assignment that takes more than ten times Kafka's
 * and over a second is a note. Work is bounded by allocation, which does not depend on
 * the machine: more than {@value #HEAVY_FACTOR} times Kafka's and over 32 MB is a defect.
 *
 * @author follower-fetch authors
 */
final class Differential {

	/**
	 * The most rebalances a phase runs to converge.
	 */
	static final int CAP = 10;

	static final int HEAVY_FACTOR = 16;

	private static final long HEAVY_BYTES = 32L << 20;

	private static final long SLOW_NANOS = 1_000_000_000L;

	private static final int SLOW_FACTOR = 10;

	/**
	 * How a leadership names the one fallback that is no defect: the rule's bound.
	 */
	private static final String OVER_BUDGET = "the zone-aware rule would exceed its budget";

	/**
	 * The project's rule for a rack (RackValues): 1 to 128 letters, digits and
	 * {@code - _ . : / +}.
	 */
	private static final Pattern RACK = Pattern.compile("[A-Za-z0-9._:/+-]{1,128}");

	private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	private final GeneratedGroup group;

	private final Rebalances ours;

	private final Rebalances theirs;

	private final @Nullable PrintStream trace;

	private final Set<Finding> findings = new LinkedHashSet<>();

	private final List<Finding> notes = new ArrayList<>();

	private int rebalances;

	/**
	 * Whether Kafka's side ever handed a member a partition it cannot take (of no topic it
	 * subscribes to, or past a topic's end): its consumers then rejoin or keep phantom
	 * claims, so from that phase on its history is not one whose rebalance count the
	 * zone-aware side, which gives such partitions to subscribers, can be held to.
	 */
	private boolean kafkaPhantoms;

	private @Nullable String skipped;

	private Differential(GeneratedGroup group, @Nullable PrintStream trace) {
		this.group = group;
		this.ours = new Rebalances(ConsumerSetup.withStarter(group.strategy()), "zone-aware-" + group.seed());
		this.theirs = new Rebalances(ConsumerSetup.withoutStarter(group.strategy()), "kafka-" + group.seed());
		this.trace = trace;
	}

	/**
	 * Rebalance a group on both sides and compare.
	 * @param group the group
	 * @param trace where to print each rebalance, or {@code null}
	 * @return what was found
	 */
	static Outcome run(GeneratedGroup group, @Nullable PrintStream trace) {
		return new Differential(group, trace).run();
	}

	/**
	 * The subscriptions as the zone-aware assignor hands them to the strategy it wraps.
	 * @param received the subscriptions as the leader received them
	 * @return them with the wrapped strategy's own user data
	 */
	static GroupSubscription unwrapped(GroupSubscription received) {
		Map<String, Subscription> unwrapped = new HashMap<>();
		received.groupSubscription().forEach((memberId, subscription) -> {
			Subscription copy = new Subscription(subscription.topics(),
					ZoneAwareAssignor.wrappedUserData(subscription.userData()), subscription.ownedPartitions(),
					subscription.generationId().orElse(-1), subscription.rackId());
			copy.setGroupInstanceId(subscription.groupInstanceId());
			unwrapped.put(memberId, copy);
		});
		return new GroupSubscription(unwrapped);
	}

	/**
	 * Run an assignor, measuring its time and allocation and catching what it throws.
	 * @param <T> what it returns
	 * @param work the work
	 * @return the measure
	 */
	static <T> Measured<T> measure(Supplier<T> work) {
		long bytes = THREADS.getCurrentThreadAllocatedBytes();
		long start = System.nanoTime();
		try {
			T value = work.get();
			return new Measured<>(value, null, System.nanoTime() - start,
					THREADS.getCurrentThreadAllocatedBytes() - bytes);
		}
		catch (RuntimeException | StackOverflowError | OutOfMemoryError ex) {
			return new Measured<>(null, ex, System.nanoTime() - start, THREADS.getCurrentThreadAllocatedBytes() - bytes);
		}
	}

	private Outcome run() {
		List<Phase> phases = this.group.phases();
		for (int p = 0; p < phases.size() && this.skipped == null; p++) {
			Phase phase = phases.get(p);
			this.ours.enter(phase);
			this.theirs.enter(phase);
			boolean sameStart = this.ours.ownership().equals(this.theirs.ownership());
			// Kafka's side first: a phase on which Kafka's own strategy hangs is given up as Kafka's
			Convergence kafka = kafka(phase, p + 1);
			if (kafka == null) {
				break;
			}
			Convergence zoneAware = zoneAware(phase, p + 1);
			if (zoneAware == null) {
				break;
			}
			compare(zoneAware, kafka, p + 1, sameStart);
		}
		return new Outcome(this.group.seed(), this.rebalances, List.copyOf(this.findings), List.copyOf(this.notes),
				this.skipped);
	}

	/**
	 * The starter's side, each rebalance checked against Kafka's strategy on its input.
	 * @return how the phase ended, or {@code null} when the group cannot go on
	 */
	private @Nullable Convergence zoneAware(Phase phase, int p) {
		ConsumerSetup setup = this.ours.setup();
		for (int round = 1;; round++) {
			Wire wire = this.ours.join();
			Cluster metadata = this.ours.metadata();
			ConsumerPartitionAssignor oracle = this.ours.leaderTwin();
			Measured<GroupAssignment> kafka = measure(() -> oracle.assign(metadata, unwrapped(wire.received())));
			if (kafka.failure() != null) {
				this.skipped = "phase " + p + " rebalance " + round + ": Kafka's " + oracle.name() + " throws "
						+ simpleName(kafka.failure()) + " on the input the zone-aware assignor gets: " + kafka.failure();
				return null;
			}
			Measured<GroupAssignment> zoneAware = measure(() -> this.ours.leader().assign(metadata, wire.received()));
			this.rebalances++;
			String where = "phase " + p + " rebalance " + round + ": ";
			Throwable failure = zoneAware.failure();
			if (failure != null) {
				find("assign() throws " + simpleName(failure) + site(failure),
						where + failure + " where Kafka's " + oracle.name() + " assigns");
				if (this.trace != null) {
					failure.printStackTrace(this.trace);
				}
				return null;
			}
			GroupAssignment ours = zoneAware.value();
			GroupAssignment theirs = kafka.value();
			bounded(zoneAware, kafka, where);
			GroupSubscription received = wire.received();
			valid(received, metadata, ours, where);
			Set<TopicPartition> assigned = assigned(ours);
			Set<TopicPartition> expected = assigned(theirs);
			expected.retainAll(Rebalances.assignable(metadata, received));
			if (setup.protocol() == RebalanceProtocol.EAGER && !assigned.equals(expected)) {
				find("assigns other partitions than Kafka's strategy on the same input",
						where + "missing " + sorted(difference(expected, assigned)) + ", extra "
								+ sorted(difference(assigned, expected)));
			}
			Set<TopicPartition> dropped = difference(expected, assigned);
			received.groupSubscription().values().forEach((subscription) -> dropped.removeAll(subscription.ownedPartitions()));
			if (setup.protocol() == RebalanceProtocol.COOPERATIVE && !dropped.isEmpty()) {
				find("leaves to nobody partitions nobody owns that Kafka's strategy assigns on the same input",
						where + sorted(dropped));
			}
			Sync sync = this.ours.sync(wire, ours);
			knownZones(where);
			trace("zone-aware", p, round, sync);
			int limit = (phase.changeAfter() > 0) ? phase.changeAfter() : CAP;
			if (sync.converged() || round == limit) {
				return new Convergence(round, sync.converged(), !sync.converged() && round == phase.changeAfter(),
						sync.assignedOfTheSubscription(), false);
			}
		}
	}

	/**
	 * The plain application's side.
	 * @return how the phase ended, or {@code null} when Kafka's own assignor fails
	 */
	private @Nullable Convergence kafka(Phase phase, int p) {
		boolean phantoms = this.kafkaPhantoms;
		for (int round = 1;; round++) {
			Wire wire = this.theirs.join();
			Cluster metadata = this.theirs.metadata();
			Measured<GroupAssignment> kafka = measure(() -> this.theirs.leader().assign(metadata, wire.received()));
			this.rebalances++;
			if (kafka.failure() != null) {
				this.skipped = "phase " + p + " rebalance " + round + ": Kafka's " + this.theirs.leader().name()
						+ " throws " + simpleName(kafka.failure()) + ": " + kafka.failure();
				return null;
			}
			String broken = broken(wire.received(), kafka.value(), this.theirs.setup().protocol());
			if (broken != null) {
				this.skipped = "phase " + p + " rebalance " + round + ": Kafka's " + this.theirs.leader().name() + " "
						+ broken;
				return null;
			}
			Sync sync = this.theirs.sync(wire, kafka.value());
			trace("kafka", p, round, sync);
			phantoms |= !sync.assignable().containsAll(sync.assigned());
			this.kafkaPhantoms = phantoms;
			int limit = (phase.changeAfter() > 0) ? phase.changeAfter() : CAP;
			if (sync.converged() || round == limit) {
				return new Convergence(round, sync.converged(), !sync.converged() && round == phase.changeAfter(),
						sync.assignedOfTheSubscription(), phantoms);
			}
		}
	}

	/**
	 * Hold a phase to Kafka's: its rebalance count only when both groups entered it owning
	 * the same partitions (the same input); a phase entered from the layout the rule
	 * chose earlier starts where Kafka's strategy never was, and what it costs there is
	 * noted and counted, not held to Kafka's count from its own layout.
	 */
	private void compare(Convergence zoneAware, Convergence kafka, int p, boolean sameStart) {
		if (zoneAware.interrupted() || kafka.interrupted() || !kafka.converged()) {
			return;
		}
		String where = "phase " + p + ": ";
		String theirs = this.theirs.setup().toString();
		if (!sameStart) {
			if (!zoneAware.converged() || zoneAware.rounds() > kafka.rounds() + 1) {
				this.notes.add(new Finding("from another layout",
						where + (zoneAware.converged() ? zoneAware.rounds() + " rebalances" : "no convergence in " + CAP)
								+ " from the zone-aware layout, " + theirs + " " + kafka.rounds() + " from its own"));
			}
			Set<TopicPartition> missing = difference(kafka.assigned(), zoneAware.assigned());
			if (zoneAware.converged() && !missing.isEmpty()) {
				find("leaves partitions unassigned at convergence that Kafka's assigns",
						where + sorted(missing) + " of " + kafka.assigned().size() + " (" + theirs + ")");
			}
			return;
		}
		// Kafka's sticky assignors hand a member back what it claims past a topic's end, so it has nothing to revoke
		// and rejoin for: their group settles sooner than one that drops such claims
		if (!zoneAware.converged() && !kafka.phantoms()) {
			find("does not converge in " + CAP + " rebalances where Kafka's does",
					where + theirs + " converges in " + kafka.rounds());
		}
		if (zoneAware.converged() && zoneAware.rounds() > kafka.rounds() + 1 && !kafka.phantoms()) {
			find("needs more rebalances to converge than Kafka's plus one",
					where + zoneAware.rounds() + " rebalances, " + theirs + " " + kafka.rounds());
		}
		Set<TopicPartition> missing = difference(kafka.assigned(), zoneAware.assigned());
		if (zoneAware.converged() && !missing.isEmpty()) {
			find("leaves partitions unassigned at convergence that Kafka's assigns",
					where + sorted(missing) + " of " + kafka.assigned().size() + " (" + theirs + ")");
		}
	}

	/**
	 * What Kafka's coordinator and consumers take from a leader: each partition to one
	 * member subscribed to its topic, only partitions that exist, and, under the
	 * cooperative protocol, none while another member still owns it.
	 */
	private void valid(GroupSubscription received, Cluster metadata, GroupAssignment assignment, String where) {
		Map<String, Subscription> subscriptions = received.groupSubscription();
		Map<TopicPartition, String> owners = new HashMap<>();
		subscriptions.forEach((memberId, subscription) -> subscription.ownedPartitions()
			.forEach((tp) -> owners.merge(tp, memberId, (a, b) -> a + "," + b)));
		Map<TopicPartition, String> givenTo = new HashMap<>();
		boolean cooperative = this.ours.setup().protocol() == RebalanceProtocol.COOPERATIVE;
		assignment.groupAssignment().forEach((memberId, given) -> {
			Subscription subscription = subscriptions.get(memberId);
			for (TopicPartition tp : given.partitions()) {
				String before = givenTo.put(tp, memberId);
				if (before != null) {
					find("gives a partition twice", where + tp + " to " + before + " and " + memberId);
				}
				if (subscription == null || !subscription.topics().contains(tp.topic())) {
					find("gives a partition to a member not subscribed to its topic", where + tp + " to " + memberId);
				}
				if (!exists(metadata, tp)) {
					find("gives a partition the metadata does not have", where + tp + " to " + memberId);
				}
				String owner = owners.get(tp);
				if (cooperative && owner != null && !List.of(owner.split(",")).contains(memberId)) {
					find("gives a partition while another member still owns it (Kafka's coordinator rejects it)",
							where + tp + " to " + memberId + ", owned by " + owner);
				}
			}
		});
	}

	/**
	 * Whether Kafka's own assignment is one its group cannot go on with: a partition given
	 * twice, or, under the cooperative protocol, one given while another member still owns
	 * it, which Kafka's coordinator rejects.
	 * @return what is wrong, or {@code null}
	 */
	private static @Nullable String broken(GroupSubscription received, GroupAssignment assignment,
			RebalanceProtocol protocol) {
		Map<TopicPartition, String> owners = new HashMap<>();
		received.groupSubscription()
			.forEach((memberId, subscription) -> subscription.ownedPartitions().forEach((tp) -> owners.put(tp, memberId)));
		Map<TopicPartition, String> givenTo = new HashMap<>();
		for (Map.Entry<String, ConsumerPartitionAssignor.Assignment> entry : assignment.groupAssignment().entrySet()) {
			String memberId = entry.getKey();
			Subscription subscription = received.groupSubscription().get(memberId);
			for (TopicPartition tp : entry.getValue().partitions()) {
				if (givenTo.put(tp, memberId) != null) {
					return "gives a partition twice: " + tp;
				}
				String owner = owners.get(tp);
				boolean owns = subscription != null && subscription.ownedPartitions().contains(tp);
				if (protocol == RebalanceProtocol.COOPERATIVE && owner != null && !owns) {
					return "gives a partition while another member owns it, which its coordinator rejects: " + tp + " to "
							+ memberId + ", owned by " + owner;
				}
			}
		}
		return null;
	}

	/**
	 * Within {@value #HEAVY_FACTOR} times Kafka's allocation, or 32 MB; time only noted.
	 */
	private void bounded(Measured<GroupAssignment> zoneAware, Measured<GroupAssignment> kafka, String where) {
		if (zoneAware.bytes() > HEAVY_BYTES && zoneAware.bytes() > HEAVY_FACTOR * kafka.bytes()) {
			find("assign() allocates over " + HEAVY_FACTOR + " times Kafka's and 32 MB",
					where + (zoneAware.bytes() >> 20) + " MB, Kafka's " + (kafka.bytes() >> 10) + " KB");
		}
		if (zoneAware.nanos() > SLOW_NANOS && zoneAware.nanos() > SLOW_FACTOR * kafka.nanos()) {
			this.notes.add(new Finding("slow: assign() takes over " + SLOW_FACTOR + " times Kafka's and 1 s",
					where + (zoneAware.nanos() / 1_000_000) + " ms, Kafka's " + (kafka.nanos() / 1_000_000) + " ms"));
		}
	}

	/**
	 * What the leader kept of its members: a zone that is a rack or none, and the rule's
	 * own assignment unless over its budget.
	 */
	private void knownZones(String where) {
		ZoneAwareAssignor.Leadership leadership = this.ours.setup()
			.assignors()
			.leaderships()
			.get(this.ours.leaderClientId());
		if (leadership == null) {
			return;
		}
		Map<String, GeneratedGroup.UserData> sent = this.ours.userData();
		for (ZoneAwareAssignment.Member member : leadership.members()) {
			String zone = member.zone();
			if (zone != null && !isRack(zone)) {
				find("keeps a zone that is no rack from " + sent.get(member.id()) + " user data",
						where + member.id() + " in zone " + quote(zone));
			}
		}
		String fallback = leadership.fallback();
		if (fallback != null && !fallback.startsWith(OVER_BUDGET)) {
			find("falls back to the wrapped strategy's assignment: " + reason(fallback), where + fallback);
		}
	}

	/**
	 * Why the rule's assignment did not stand, as the same text for every group: the
	 * reason without its details, with the exception's class or the broken rule's name.
	 */
	private static String reason(String fallback) {
		int open = fallback.indexOf(" (");
		if (open < 0) {
			return fallback;
		}
		String cause = fallback.substring(open + 2).split("[:)]", 2)[0];
		return fallback.substring(0, open) + " (" + cause.substring(cause.lastIndexOf('.') + 1) + ")";
	}

	/**
	 * Whether a zone keeps the project's rule for a rack.
	 * @param zone the zone
	 * @return {@code true} for 1 to 128 letters, digits and {@code - _ . : / +}
	 */
	static boolean isRack(String zone) {
		return RACK.matcher(zone).matches();
	}

	private void find(String kind, String message) {
		if (this.findings.size() < 20) {
			this.findings.add(new Finding("[" + this.ours.setup() + "] " + kind, message));
		}
	}

	private void trace(String side, int phase, int round, Sync sync) {
		if (this.trace == null) {
			return;
		}
		this.trace.println("phase " + phase + " rebalance " + round + " " + side + ": generation " + sync.generation()
				+ (sync.converged() ? ", converged" : "") + ", revoked " + sorted(sync.revoked()) + ", withheld "
				+ sorted(sync.withheld()) + (sync.rejected().isEmpty() ? "" : ", rejected by " + sync.rejected()));
		sync.given().forEach((memberId, partitions) -> this.trace.println("  " + memberId + " " + sorted(partitions)));
	}

	private static String simpleName(@Nullable Throwable failure) {
		return (failure != null) ? failure.getClass().getSimpleName() : "nothing";
	}

	/**
	 * The first frame of the starter's code an exception went through.
	 */
	private static String site(Throwable failure) {
		for (StackTraceElement frame : failure.getStackTrace()) {
			if (frame.getClassName().startsWith("dev.followerfetch.")
					&& !frame.getClassName().startsWith(Differential.class.getPackageName())) {
				String type = frame.getClassName();
				return " in " + type.substring(type.lastIndexOf('.') + 1) + "." + frame.getMethodName();
			}
		}
		return "";
	}

	/**
	 * The partitions the metadata has: Kafka's sticky assignors hand back what a member
	 * claims of a partition past its topic's end.
	 * @param metadata the leader's metadata
	 * @param partitions partitions
	 * @return those the metadata has
	 */
	static Set<TopicPartition> existing(Cluster metadata, Set<TopicPartition> partitions) {
		Set<TopicPartition> existing = new HashSet<>();
		partitions.stream().filter((tp) -> exists(metadata, tp)).forEach(existing::add);
		return existing;
	}

	private static boolean exists(Cluster metadata, TopicPartition tp) {
		for (PartitionInfo info : metadata.partitionsForTopic(tp.topic())) {
			if (info.partition() == tp.partition()) {
				return true;
			}
		}
		return false;
	}

	static Set<TopicPartition> assigned(GroupAssignment assignment) {
		Set<TopicPartition> assigned = new HashSet<>();
		assignment.groupAssignment().values().forEach((given) -> assigned.addAll(given.partitions()));
		return assigned;
	}

	private static Set<TopicPartition> difference(Set<TopicPartition> from, Set<TopicPartition> without) {
		Set<TopicPartition> difference = new HashSet<>(from);
		difference.removeAll(without);
		return difference;
	}

	static String sorted(Collection<TopicPartition> partitions) {
		Set<TopicPartition> sorted = new TreeSet<>(
				Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
		sorted.addAll(partitions);
		return sorted.toString();
	}

	/**
	 * An untrusted value for a message: control and non-ASCII characters escaped, cut
	 * short.
	 */
	static String quote(String value) {
		String shown = value.chars()
			.limit(40)
			.mapToObj((c) -> (c < 0x20 || c > 0x7e) ? String.format("\\u%04x", c) : String.valueOf((char) c))
			.collect(Collectors.joining());
		return "\"" + shown + "\"" + ((value.length() > 40) ? "... (" + value.length() + " characters)" : "");
	}

	/**
	 * One thing the zone-aware side did that Kafka's would not.
	 *
	 * @param kind what, the same for every group that shows it
	 * @param message where and how, in this group
	 */
	record Finding(String kind, String message) {

	}

	/**
	 * What one group showed.
	 *
	 * @param seed its seed
	 * @param rebalances the rebalances run, both sides
	 * @param findings the defects found
	 * @param notes what is only reported (time)
	 * @param skipped why the group stopped early because Kafka's own assignor failed, or
	 * {@code null}
	 */
	record Outcome(long seed, int rebalances, List<Finding> findings, List<Finding> notes, @Nullable String skipped) {

	}

	/**
	 * How a phase ended on one side.
	 *
	 * @param rounds the rebalances it ran
	 * @param converged whether the last one settled the group
	 * @param interrupted whether the next change came first
	 * @param assigned what the last one assigned of the subscribed topics in the metadata
	 * @param phantoms whether a rebalance gave a partition of no subscribed topic in the
	 * metadata
	 */
	private record Convergence(int rounds, boolean converged, boolean interrupted, Set<TopicPartition> assigned,
			boolean phantoms) {

	}

	/**
	 * An assignor's run.
	 *
	 * @param <T> what it returns
	 * @param value what it returned, or {@code null} when it threw
	 * @param failure what it threw, or {@code null}
	 * @param nanos the time it took
	 * @param bytes what its thread allocated
	 */
	record Measured<T>(@Nullable T value, @Nullable Throwable failure, long nanos, long bytes) {

	}

}
