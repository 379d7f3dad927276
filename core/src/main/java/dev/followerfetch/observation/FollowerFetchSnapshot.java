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

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.followerfetch.policy.ConsumerKind;
import org.jspecify.annotations.Nullable;

/**
 * One refresh's answer to "is follower fetching working, and what is it saving?". The
 * health indicator and the meters both read it.
 *
 * @param state the overall state
 * @param rack this application's rack, or {@code null}
 * @param source where the rack came from, or {@code null}
 * @param brokerRacks the distinct broker racks, empty when unknown
 * @param selector what the brokers' replica selectors are, in words
 * @param consumers what each consumer of the application reads, by kind and name
 * @param problems what went wrong reading the facts
 * @param takenAt when the snapshot was taken
 * @param producers where each producer factory's producers write, by name
 * @param stale why the state is {@link FollowerFetchState#STALE}, {@code null} in any other
 * state
 * @author follower-fetch authors
 */
public record FollowerFetchSnapshot(FollowerFetchState state, @Nullable String rack, @Nullable String source,
		Set<String> brokerRacks,
		String selector, Map<ConsumerKind, Map<String, ConsumerReads>> consumers, List<Problem> problems,
		Instant takenAt, Map<String, ProducerWrites> producers, @Nullable Stale stale) {

	public FollowerFetchSnapshot {
		producers = Collections.unmodifiableSortedMap(new TreeMap<>(producers));
		brokerRacks = Collections.unmodifiableSortedSet(new TreeSet<>(brokerRacks));
		Map<ConsumerKind, Map<String, ConsumerReads>> sections = new EnumMap<>(ConsumerKind.class);
		consumers.forEach((kind, reads) -> sections.put(kind, Collections.unmodifiableSortedMap(new TreeMap<>(reads))));
		consumers = Collections.unmodifiableMap(sections);
		problems = List.copyOf(problems);
	}

	/**
	 * A snapshot taken by a refresh.
	 * @param state the overall state
	 * @param rack this application's rack, or {@code null}
	 * @param source where the rack came from, or {@code null}
	 * @param brokerRacks the distinct broker racks, empty when unknown
	 * @param selector what the brokers' replica selectors are, in words
	 * @param consumers what each consumer of the application reads, by kind and name
	 * @param problems what went wrong reading the facts
	 * @param takenAt when the snapshot was taken
	 * @param producers where each producer factory's producers write, by name
	 */
	public FollowerFetchSnapshot(FollowerFetchState state, @Nullable String rack, @Nullable String source,
			Set<String> brokerRacks,
			String selector, Map<ConsumerKind, Map<String, ConsumerReads>> consumers, List<Problem> problems,
			Instant takenAt, Map<String, ProducerWrites> producers) {
		this(state, rack, source, brokerRacks, selector, consumers, problems, takenAt, producers, null);
	}

	/**
	 * A snapshot without producers.
	 * @param state the overall state
	 * @param rack this application's rack, or {@code null}
	 * @param source where the rack came from, or {@code null}
	 * @param brokerRacks the distinct broker racks, empty when unknown
	 * @param selector what the brokers' replica selectors are, in words
	 * @param consumers what each consumer of the application reads, by kind and name
	 * @param problems what went wrong reading the facts
	 * @param takenAt when the snapshot was taken
	 */
	public FollowerFetchSnapshot(FollowerFetchState state, @Nullable String rack, @Nullable String source,
			Set<String> brokerRacks,
			String selector, Map<ConsumerKind, Map<String, ConsumerReads>> consumers, List<Problem> problems,
			Instant takenAt) {
		this(state, rack, source, brokerRacks, selector, consumers, problems, takenAt, Map.of());
	}

	/**
	 * This snapshot as it reads once no refresh has replaced it for too long: in state
	 * {@link FollowerFetchState#STALE}, with every fact as it was when it was taken.
	 * @param why what the snapshot said and what the refreshes since did
	 * @return the stale snapshot
	 */
	FollowerFetchSnapshot stale(Stale why) {
		return new FollowerFetchSnapshot(FollowerFetchState.STALE, this.rack, this.source, this.brokerRacks,
				this.selector, this.consumers, this.problems, this.takenAt, this.producers, why);
	}

	/**
	 * What each listener reads.
	 * @return the listeners' reads, by listener id
	 */
	public Map<String, ConsumerReads> listeners() {
		return of(ConsumerKind.LISTENER);
	}

	/**
	 * What the consumers of one kind read.
	 * @param kind how the application consumes
	 * @return their reads, by name
	 */
	public Map<String, ConsumerReads> of(ConsumerKind kind) {
		return this.consumers.getOrDefault(kind, Map.of());
	}

	/**
	 * What every consumer of the application reads, whatever its kind.
	 * @return all reads
	 */
	public List<ConsumerReads> all() {
		return this.consumers.values().stream().flatMap((reads) -> reads.values().stream()).toList();
	}

	/**
	 * Why a snapshot is {@link FollowerFetchState#STALE}: what it said when it was taken,
	 * and what the refreshes since did.
	 *
	 * @param lastState the state the snapshot showed when it was taken
	 * @param lastRefreshError why the last refresh failed (the exception's class and
	 * message, without control characters), or {@code null} when none failed since the
	 * snapshot was taken
	 * @param refreshRunningSince when the refresh still running started, or {@code null}
	 * when none is running
	 */
	public record Stale(FollowerFetchState lastState, @Nullable String lastRefreshError,
			@Nullable Instant refreshRunningSince) {

	}

}
