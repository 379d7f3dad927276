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

/**
 * Whether follower fetching works for this application, in one word. Declared worst
 * first: when several hold, the application is in the first of them.
 *
 * @author follower-fetch authors
 */
public enum FollowerFetchState {

	/**
	 * No refresh has produced a snapshot for longer than two refresh intervals and the
	 * timeout: refreshes fail or hang, so the last snapshot no longer says what the
	 * application reads. Whatever that snapshot's state was, this one is shown until a
	 * refresh works.
	 */
	STALE(true),

	/**
	 * No rack was found, so consumers read from partition leaders.
	 */
	NO_RACK(true),

	/**
	 * Brokers run the default replica selector, which always returns the leader.
	 */
	SELECTOR_DISABLED(true),

	/**
	 * The rack matches no broker's rack, so no follower can be chosen.
	 */
	RACK_MISMATCH(true),

	/**
	 * No fetch has happened yet, or the brokers have not been read yet.
	 */
	STARTING(false),

	/**
	 * Consumers the starter configured are sent to an in-zone replica (the in-sync
	 * follower the leader names, or the leader itself) that this application has not
	 * reached for longer than the grace period: they see no new records from those
	 * partitions until the broker is reachable again or leaves the ISR.
	 */
	UNREACHABLE(true),

	/**
	 * Partitions are read from a follower that has fallen out of the ISR: their consumers
	 * see new records late, or not at all, until the replica lease ends.
	 */
	LAGGING(true),

	/**
	 * Partitions that have an in-zone in-sync replica have been read across zones for
	 * longer than the grace period.
	 */
	FALLBACK(true),

	/**
	 * A consumer the starter did not configure (built by the application or a library
	 * without the detected rack) reads partitions that have an in-zone in-sync replica
	 * across zones, for longer than the grace period, and declared no freshness policy.
	 */
	UNCOVERED(true),

	/**
	 * Working, but some partitions have no in-sync replica in this zone (placement gaps).
	 */
	PARTIAL(false),

	/**
	 * Every partition with an in-sync replica in this zone is read in-zone.
	 */
	ACTIVE(false),

	/**
	 * follower-fetch is switched off.
	 */
	DISABLED(false);

	private final boolean degraded;

	FollowerFetchState(boolean degraded) {
		this.degraded = degraded;
	}

	/**
	 * Whether this state means follower fetching is not saving what it could.
	 * @return {@code true} for a degraded state
	 */
	public boolean isDegraded() {
		return this.degraded;
	}

}
