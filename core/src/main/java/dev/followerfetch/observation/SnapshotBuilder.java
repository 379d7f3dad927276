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

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import dev.followerfetch.Policy;
import dev.followerfetch.observation.ReadLocalityJudge.Cluster;
import dev.followerfetch.observation.ReadLocalityJudge.Condition;
import dev.followerfetch.observation.ReadLocalityJudge.Judged;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link FollowerFetchSnapshot} from what one refresh read, without Kafka or a
 * thread of its own: a function of that reading and the {@link Clock}, plus what must
 * outlive a refresh: each consumer's and producer's byte totals, and since when a
 * partition has been in a {@link Condition}.
 *
 * @author follower-fetch authors
 */
final class SnapshotBuilder {

	private final ReadLocalityJudge judge;

	private final Duration fallbackGrace;

	private final Policy defaultPolicy;

	private final Clock clock;

	private final ZoneBytes<ConsumerKey> receivedBytes = new ZoneBytes<>();

	private final ProducerWriteJudge producerJudge = new ProducerWriteJudge();

	private final Map<GraceKey, Instant> conditionSince = new HashMap<>();

	SnapshotBuilder(int maxListedPartitions, Duration fallbackGrace, Policy defaultPolicy, Clock clock) {
		this.judge = new ReadLocalityJudge(maxListedPartitions);
		this.fallbackGrace = fallbackGrace;
		this.defaultPolicy = defaultPolicy;
		this.clock = clock;
	}

	/**
	 * The snapshot of the application before its first refresh.
	 * @return a {@code STARTING} snapshot
	 */
	FollowerFetchSnapshot notRefreshed() {
		return new FollowerFetchSnapshot(FollowerFetchState.STARTING, null, null, Set.of(), "unknown", Map.of(),
				List.of(Problem.of(Problem.Kind.NOT_REFRESHED)), this.clock.instant());
	}

	/**
	 * Judge what one refresh read.
	 * @param reading the rack, the consumers and producers, and each cluster's facts
	 * @return the snapshot
	 */
	synchronized FollowerFetchSnapshot build(Reading reading) {
		Instant now = (reading.readAt() != null) ? reading.readAt() : this.clock.instant();
		String rack = reading.rack();
		this.receivedBytes.retain(reading.clusters()
			.stream()
			.flatMap((cluster) -> cluster.subjects().stream())
			.map((subject) -> new ConsumerKey(subject.consumer().kind(), subject.consumer().name()))
			.collect(Collectors.toSet()));
		this.producerJudge
			.retain(reading.producers().stream().map(ObservedProducer::name).collect(Collectors.toSet()));
		List<ClusterReading> read = reading.clusters().stream().filter((cluster) -> cluster.view() != null).toList();
		if (read.isEmpty()) {
			boolean locality = ReadLocalityJudge.readsWithLocality(reading.clusters()
				.stream()
				.flatMap((cluster) -> cluster.subjects().stream())
				.map((subject) -> subject.consumer().policy())
				.toList(), this.defaultPolicy);
			return new FollowerFetchSnapshot(
					(rack == null && locality) ? FollowerFetchState.NO_RACK : FollowerFetchState.STARTING, rack,
					reading.source(), Set.of(), "unknown", Map.of(), reading.problems(), now);
		}
		Map<ConsumerKind, Map<String, ConsumerReads>> consumers = new EnumMap<>(ConsumerKind.class);
		List<Cluster> judged = new ArrayList<>();
		Set<GraceKey> seen = new HashSet<>();
		ClusterView producerView = ClusterView.UNKNOWN;
		for (ClusterReading cluster : reading.clusters()) {
			ClusterView view = (cluster.view() != null) ? cluster.view() : ClusterView.UNKNOWN;
			if (cluster.producers()) {
				producerView = view;
			}
			List<Judged> clusterReads = new ArrayList<>();
			for (Subject listed : cluster.subjects()) {
				ConsumerKey key = new ConsumerKey(listed.consumer().kind(), listed.consumer().name());
				Map<String, Object> group = (key.kind() == ConsumerKind.LISTENER)
						? reading.groupAssignments().get(key.name()) : null;
				Subject subject = (group != null)
						? listed.withDetail(AssignmentRealigner.GROUP_ASSIGNMENT, group) : listed;
				ZoneBytes.Totals bytes = this.receivedBytes.count(key, subject.clients(), view, rack);
				Judged reads = this.judge.judge(subject, view, rack,
						(condition, tp) -> beyondGrace(new GraceKey(condition, key, tp), now, seen), bytes);
				clusterReads.add(reads);
				consumers.computeIfAbsent(key.kind(), (kind) -> new LinkedHashMap<>()).put(key.name(), reads.summary());
			}
			judged.add(new Cluster(view, clusterReads));
		}
		this.conditionSince.keySet().retainAll(seen);
		Set<String> racks = read.stream()
			.flatMap((cluster) -> Objects.requireNonNull(cluster.view()).racks().stream())
			.collect(Collectors.toCollection(TreeSet::new));
		FollowerFetchState state = ReadLocalityJudge.state(rack, judged, this.defaultPolicy);
		Map<String, ProducerWrites> writes = new LinkedHashMap<>();
		for (ObservedProducer producer : reading.producers()) {
			writes.put(producer.name(), this.producerJudge.judge(producer, producerView, rack));
		}
		return new FollowerFetchSnapshot(state, rack, reading.source(), racks, describeSelectors(read), consumers,
				reading.problems(), now, writes);
	}

	private boolean beyondGrace(GraceKey key, Instant now, Set<GraceKey> seen) {
		seen.add(key);
		Instant since = this.conditionSince.computeIfAbsent(key, (k) -> now);
		return Duration.between(since, now).compareTo(this.fallbackGrace) >= 0;
	}

	/**
	 * Bytes one consumer's clients received since start-up.
	 * @param kind how the application consumes
	 * @param name the consumer's name
	 * @param local {@code true} for bytes from this zone
	 * @return the byte count
	 */
	double receivedBytes(ConsumerKind kind, String name, boolean local) {
		return this.receivedBytes.total(new ConsumerKey(kind, name), local);
	}

	/**
	 * Whether one consumer was listed at the last refresh (and counted since it appeared):
	 * the meters of a consumer that is not are removed.
	 * @param kind how the application consumes
	 * @param name the consumer's name
	 * @return {@code true} while the consumer is listed
	 */
	boolean lists(ConsumerKind kind, String name) {
		return this.receivedBytes.counts(new ConsumerKey(kind, name));
	}

	/**
	 * Whether one producer factory was listed at the last refresh (and counted since it
	 * appeared): the meters of a factory that is not are removed.
	 * @param producer the producer factory's name
	 * @return {@code true} while the factory is listed
	 */
	boolean listsProducer(String producer) {
		return this.producerJudge.counts(producer);
	}

	/**
	 * Bytes one producer factory's producers sent since start-up.
	 * @param producer the producer factory's name
	 * @param local {@code true} for bytes to this zone
	 * @return the byte count
	 */
	double sentBytes(String producer, boolean local) {
		return this.producerJudge.total(producer, local);
	}

	private static String describeSelectors(List<ClusterReading> read) {
		if (read.size() == 1) {
			return describeSelectors(Objects.requireNonNull(read.get(0).view()));
		}
		Map<String, String> byCluster = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
		read.forEach((cluster) -> byCluster.put(cluster.name(), describeSelectors(Objects.requireNonNull(cluster.view()))));
		return byCluster.entrySet()
			.stream()
			.map((entry) -> ((entry.getKey() != null) ? entry.getKey() : Problem.KAFKA_ADMIN) + ": " + entry.getValue())
			.collect(Collectors.joining(" | "));
	}

	private static String describeSelectors(ClusterView view) {
		if (view.selectors().isEmpty()) {
			return "unknown";
		}
		String unknown = view.unreachable().isEmpty() ? ""
				: "; unknown on brokers " + new TreeSet<>(view.unreachable().keySet());
		Map<String, List<Integer>> byClass = new LinkedHashMap<>();
		view.selectors()
			.forEach((broker, selector) -> byClass
				.computeIfAbsent((selector.className() != null) ? selector.className() : "default (LeaderSelector)",
						(key) -> new ArrayList<>())
				.add(broker));
		return byClass.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + " on brokers " + entry.getValue().stream().sorted().toList())
			.collect(Collectors.joining("; ")) + unknown;
	}

	/**
	 * What one refresh read.
	 *
	 * @param rack this application's rack, or {@code null}
	 * @param source where the rack came from, or {@code null}
	 * @param clusters each cluster the application uses, with its consumers
	 * @param producers the application's producer factories
	 * @param problems what went wrong reading it
	 * @param groupAssignments the zone-aware assignment facts of the groups this instance
	 * leads, by listener id
	 * @param readAt when the consumers were read, which the snapshot's time says (the
	 * brokers are asked after them, which can take seconds), or {@code null} for the time
	 * it is built
	 */
	record Reading(@Nullable String rack, @Nullable String source, List<ClusterReading> clusters,
			List<ObservedProducer> producers, List<Problem> problems, Map<String, Map<String, Object>> groupAssignments,
			@Nullable Instant readAt) {

		Reading(@Nullable String rack, @Nullable String source, List<ClusterReading> clusters,
				List<ObservedProducer> producers, List<Problem> problems,
				Map<String, Map<String, Object>> groupAssignments) {
			this(rack, source, clusters, producers, problems, groupAssignments, null);
		}

	}

	/**
	 * What one refresh read of one cluster.
	 *
	 * @param name the cluster's name, {@code null} for the application's own
	 * @param view its facts, the last ones read when it did not answer, or {@code null}
	 * when it never answered
	 * @param subjects the consumers that read it
	 * @param producers whether the producer factories write to it
	 */
	record ClusterReading(@Nullable String name, @Nullable ClusterView view, List<Subject> subjects,
			boolean producers) {

	}

	/**
	 * One consumer of the application.
	 *
	 * @param kind how the application consumes
	 * @param name its listener id, application id, binding name or client id
	 */
	record ConsumerKey(ConsumerKind kind, String name) {

	}

	/**
	 * One partition of one consumer in a condition.
	 *
	 * @param condition the condition
	 * @param consumer the consumer
	 * @param partition the partition
	 */
	private record GraceKey(Condition condition, ConsumerKey consumer, TopicPartition partition) {

	}

}
