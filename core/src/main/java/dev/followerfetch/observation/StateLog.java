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

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs what changes between refreshes, not each refresh: one WARN when the application
 * enters a degraded {@link FollowerFetchState}, with its cause and fix, and one INFO when
 * it leaves it; one WARN when refreshing, or reading a cluster's brokers, starts failing
 * or fails differently, and one INFO when it works again. A degraded state counts as left
 * only after {@value #CLEAN_REFRESHES_TO_LEAVE} refreshes in a row without one, so a state
 * that flaps (LAGGING, ACTIVE, LAGGING during a network partition) is logged once.
 * {@link FollowerFetchState#STALE} is entered by the read that finds the snapshot too old
 * (no refresh runs to find it) and left like the other degraded states.
 *
 * @author follower-fetch authors
 */
final class StateLog {

	static final int CLEAN_REFRESHES_TO_LEAVE = 2;

	private static final int MAX_LISTED_CONSUMERS = 5;

	private static final Logger logger = LoggerFactory.getLogger(StateLog.class);

	private FollowerFetchState logged = FollowerFetchState.STARTING;

	private Instant degradedSince = Instant.EPOCH;

	private int cleanRefreshes;

	private @Nullable String refreshFailure;

	private int failedRefreshes;

	private Map<Problem, String> unreachable = Map.of();

	/**
	 * Take note of a refresh that worked.
	 * @param snapshot what it found
	 */
	synchronized void refreshed(FollowerFetchSnapshot snapshot) {
		if (this.refreshFailure != null) {
			logger.info("follower-fetch refreshes its read-locality snapshot again, after " + this.failedRefreshes
					+ " failed refresh" + ((this.failedRefreshes != 1) ? "es" : ""));
			this.refreshFailure = null;
			this.failedRefreshes = 0;
		}
		brokers(snapshot);
		state(snapshot);
	}

	/**
	 * Take note of a refresh that failed. Logs the failure, without its stack trace
	 * (DEBUG has it), when it differs from the last one.
	 * @param ex why it failed
	 * @param kept the snapshot the health contributor and the meters keep showing
	 */
	synchronized void refreshFailed(Throwable ex, FollowerFetchSnapshot kept) {
		String failure = FailureText.of(ex);
		this.failedRefreshes++;
		if (!failure.equals(this.refreshFailure)) {
			logger.warn("follower-fetch could not refresh its read-locality snapshot (" + failure
					+ "): the health contributor and the meters show the snapshot taken at " + kept.takenAt()
					+ " until a refresh works, as STALE once no refresh has replaced it for two refresh intervals "
					+ "and the timeout");
		}
		if (logger.isDebugEnabled()) {
			logger.debug("follower-fetch refresh failure", ex);
		}
		this.refreshFailure = failure;
	}

	private void brokers(FollowerFetchSnapshot snapshot) {
		Map<Problem, String> now = new LinkedHashMap<>();
		for (Problem problem : snapshot.problems()) {
			if (problem.unreachable()) {
				now.put(problem.withoutCause(), String.valueOf(problem.cause()));
			}
		}
		now.forEach((brokers, failure) -> {
			if (failure.equals(this.unreachable.get(brokers))) {
				return;
			}
			if (brokers.kind() == Problem.Kind.BROKER_UNREACHABLE) {
				logger.warn("follower-fetch could not read the " + brokers.where() + " (" + failure
						+ "): the cluster answers, but this broker's replica selector is unknown, and LOCALITY "
						+ "consumers sent to it count as UNREACHABLE after follower-fetch.observation.fallback-grace");
			}
			else {
				logger.warn("follower-fetch could not read the " + brokers.where() + " (" + failure
						+ "): the health contributor and the meters use what they said at the last refresh that "
						+ "reached them, until they answer");
			}
		});
		this.unreachable.keySet()
			.stream()
			.filter((brokers) -> !now.containsKey(brokers))
			.forEach((brokers) -> logger.info("follower-fetch reads the " + brokers.where() + " again"));
		this.unreachable = now;
	}

	/**
	 * Take note of a snapshot a reader found {@link FollowerFetchState#STALE}: no refresh
	 * runs to log it, so the read that finds it does, once until a refresh works again.
	 * @param stale the stale snapshot
	 */
	synchronized void stale(FollowerFetchSnapshot stale) {
		degraded(stale);
	}

	private void state(FollowerFetchSnapshot snapshot) {
		FollowerFetchState state = snapshot.state();
		if (state.isDegraded()) {
			degraded(snapshot);
			return;
		}
		if (this.logged.isDegraded() && ++this.cleanRefreshes < CLEAN_REFRESHES_TO_LEAVE) {
			return;
		}
		if (this.logged.isDegraded()) {
			Duration degraded = Duration.between(this.degradedSince, snapshot.takenAt());
			logger.info("follower-fetch state " + state + ", no longer " + this.logged + " (degraded for "
					+ degraded.toSeconds() + " s, " + CLEAN_REFRESHES_TO_LEAVE + " refreshes in a row without it)");
		}
		this.cleanRefreshes = 0;
		this.logged = state;
	}

	private void degraded(FollowerFetchSnapshot snapshot) {
		FollowerFetchState state = snapshot.state();
		this.cleanRefreshes = 0;
		if (state != this.logged) {
			logger.warn("follower-fetch state " + state + " (was " + this.logged + "): " + cause(snapshot)
					+ ". Fix: " + fix(state));
			if (!this.logged.isDegraded()) {
				this.degradedSince = snapshot.takenAt();
			}
			this.logged = state;
		}
	}

	private static String cause(FollowerFetchSnapshot snapshot) {
		return switch (snapshot.state()) {
			case NO_RACK -> "no Kafka client.rack was found, so LOCALITY consumers read from partition leaders";
			case RACK_MISMATCH -> "Kafka client.rack " + snapshot.rack() + " (from " + snapshot.source()
					+ ") is none of the racks of the brokers LOCALITY consumers read from (broker racks "
					+ snapshot.brokerRacks() + "), so no follower can be chosen";
			case SELECTOR_DISABLED -> "brokers LOCALITY consumers read from run a replica selector that is not "
					+ "rack-aware (" + snapshot.selector() + "), so partitions they lead are read from the leader";
			case UNREACHABLE -> "consumers are sent to replicas in " + snapshot.rack()
					+ " (the in-sync follower the leader names, or the leader) that this application has not reached "
					+ "for longer than follower-fetch.observation.fallback-grace, so no new records arrive from: "
					+ partitions(snapshot, ConsumerReads::unreachablePartitions);
			case LAGGING -> "partitions are read from a follower that has fallen out of their ISR, so their "
					+ "consumers see new records late until the replica lease ends: "
					+ partitions(snapshot, ConsumerReads::laggingPartitions);
			case FALLBACK -> "partitions that have an in-sync replica in " + snapshot.rack()
					+ " have been read across zones for longer than follower-fetch.observation.fallback-grace: "
					+ partitions(snapshot, ConsumerReads::fallbackPartitions);
			case UNCOVERED -> "consumers the starter did not configure read partitions that have an in-sync "
					+ "replica in " + snapshot.rack() + " across zones: "
					+ partitions(snapshot, ConsumerReads::uncoveredPartitions);
			case STALE -> staleCause(snapshot);
			default -> snapshot.state().name();
		};
	}

	private static String staleCause(FollowerFetchSnapshot snapshot) {
		FollowerFetchSnapshot.Stale why = Objects.requireNonNull(snapshot.stale());
		String refreshes = (why.lastRefreshError() != null) ? "the last refresh failed (" + why.lastRefreshError() + ")"
				: (why.refreshRunningSince() != null)
						? "the refresh started at " + why.refreshRunningSince() + " has not finished"
						: "no refresh ran since (the monitor is stopped, or its thread is gone)";
		return "no refresh has replaced the read-locality snapshot taken at " + snapshot.takenAt() + " (state "
				+ why.lastState() + ") for two refresh intervals and the timeout: " + refreshes;
	}

	/**
	 * The fix of a degraded state, in the words of {@code docs/troubleshooting.md}.
	 * @param state a degraded state
	 * @return what to do
	 */
	static String fix(FollowerFetchState state) {
		return switch (state) {
			case NO_RACK -> "set follower-fetch.rack (or KAFKA_CLIENT_RACK) to this zone's broker.rack, or fix the "
					+ "source that should have answered (see the start-up line 'No Kafka client.rack found')";
			case RACK_MISMATCH -> "set follower-fetch.rack (or the variable or file) to this zone's broker.rack, "
					+ "keep follower-fetch.detection.aws.zone-format=auto, or fix broker.rack";
			case SELECTOR_DISABLED -> "set replica.selector.class="
					+ "org.apache.kafka.common.replica.RackAwareReplicaSelector on every broker (rolling restart)";
			case UNREACHABLE -> "check the network path from this zone to the broker named in the health problems "
					+ "(security groups, routes, DNS of its advertised listener); until it is fixed, keep the "
					+ "consumers on the leaders with follower-fetch.policy.default=freshness, or take the broker "
					+ "out of service";
			case LAGGING -> "look at the broker that serves this zone's reads (under-replicated partitions, "
					+ "ReplicaFetcherThread errors, disk and network); a lower follower-fetch.policy.replica-lease "
					+ "shortens the stall";
			case FALLBACK -> "check the consumer's client.rack, the ISR of the listed partitions and recent "
					+ "reassignments";
			case UNCOVERED -> "configure the consumer through ClientRackDecider.configure(ConsumerKind.OTHER, "
					+ "clientId, config), or set client.rack=\"\" in its configuration (or "
					+ "follower-fetch.policy.consumers.<client-id>=freshness) to keep it on the leaders";
			case STALE -> "read the WARN 'could not refresh its read-locality snapshot' logged before this line; when "
					+ "there is none, a thread dump shows where the follower-fetch-monitor thread is stuck. The state "
					+ "is judged again at the first refresh that works";
			default -> "nothing";
		};
	}

	private static String partitions(FollowerFetchSnapshot snapshot, Function<ConsumerReads, List<String>> listed) {
		List<String> consumers = new ArrayList<>();
		int more = 0;
		for (ConsumerReads reads : snapshot.all()) {
			List<String> partitions = listed.apply(reads);
			if (partitions.isEmpty()) {
				continue;
			}
			if (consumers.size() < MAX_LISTED_CONSUMERS) {
				consumers.add(reads.kind().tag() + " " + reads.name() + " " + partitions);
			}
			else {
				more++;
			}
		}
		return String.join("; ", consumers) + ((more > 0) ? "; and " + more + " more" : "");
	}

}
