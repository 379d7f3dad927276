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

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.jspecify.annotations.Nullable;

/**
 * Which consumer groups one cluster's inspector describes, and what they said. A group's
 * description carries every member's subscription and assignment, so it grows with the
 * group, and every instance of a service would read it. A group whose consumers here all
 * had their zone-aware assignor chosen at their last rebalance is not described at all:
 * Kafka calls only the chosen assignor when a rebalance completes. Another is described
 * again only when this application's consumers in it went through a rebalance since (the
 * only way its assignor changes under the classic protocol); a group that could not be
 * described, or had no assignor yet, is asked again after 1, 2, 4, 8, then every 16
 * inspections, and one whose consumers report no rebalance count every 16.
 *
 * @author follower-fetch authors
 */
final class GroupAssignors {

	private static final int MAX_BACKOFF = 16;

	private static final ClusterView.GroupAssignor ZONE_AWARE = new ClusterView.GroupAssignor(false,
			ZoneAwareAssignor.NAME);

	private final Map<String, Known> known = new HashMap<>();

	private long inspections;

	/**
	 * Start an inspection: forget the groups no consumer is in any more, and say which of
	 * the others to describe now.
	 * @param groups every group this application's consumers of the cluster are in, with
	 * their rebalances
	 * @return the groups to describe
	 */
	synchronized Set<String> toDescribe(Map<String, Rebalances> groups) {
		this.inspections++;
		this.known.keySet().retainAll(groups.keySet());
		Set<String> describe = new TreeSet<>();
		groups.forEach((group, rebalances) -> {
			Known last = this.known.get(group);
			if (rebalances.zoneAwareChosen()) {
				this.known.put(group, new Known(rebalances, ZONE_AWARE, 0, Long.MAX_VALUE));
			}
			else if (last == null || !last.rebalances().equals(rebalances)
					|| this.inspections >= last.nextAttempt()) {
				describe.add(group);
			}
		});
		return describe;
	}

	/**
	 * Record what a group's description said.
	 * @param group the group id
	 * @param rebalances the rebalances of its consumers when it was asked
	 * @param assignor how the group is assigned, or {@code null} when it could not be
	 * described
	 */
	synchronized void described(String group, Rebalances rebalances, ClusterView.@Nullable GroupAssignor assignor) {
		Known last = this.known.get(group);
		boolean unanswered = assignor == null || assignor.assignor().isEmpty();
		int misses = (!unanswered) ? 0 : (last != null && last.rebalances().equals(rebalances)) ? last.misses() + 1 : 1;
		long next;
		if (unanswered) {
			next = this.inspections + Math.min(MAX_BACKOFF, 1L << Math.min(misses - 1, 4));
		}
		else {
			next = rebalances.clientIds().isEmpty() ? this.inspections + MAX_BACKOFF : Long.MAX_VALUE;
		}
		ClusterView.GroupAssignor kept = (assignor == null && last != null) ? last.assignor() : assignor;
		this.known.put(group, new Known(rebalances, kept, misses, next));
	}

	/**
	 * How each group is assigned, as last described.
	 * @return the assignor of every group that was described, by group id
	 */
	synchronized Map<String, ClusterView.GroupAssignor> assignors() {
		Map<String, ClusterView.GroupAssignor> assignors = new TreeMap<>();
		this.known.forEach((group, known) -> {
			if (known.assignor() != null) {
				assignors.put(group, known.assignor());
			}
		});
		return assignors;
	}

	/**
	 * What this application sees of a group's rebalances: which of its consumer clients
	 * are in it, and how many rebalances they completed ({@code rebalance-total}). Either
	 * changes when the group rebalanced, or one of the consumers was replaced.
	 *
	 * @param clientIds the client ids of this application's consumers in the group
	 * @param total the sum of their rebalance counts
	 * @param zoneAwareChosen whether each of these consumers knows that the group chose
	 * its zone-aware assignor at its last rebalance
	 */
	record Rebalances(Set<String> clientIds, long total, boolean zoneAwareChosen) {

		Rebalances {
			clientIds = Set.copyOf(clientIds);
		}

		Rebalances(Set<String> clientIds, long total) {
			this(clientIds, total, false);
		}

	}

	private record Known(Rebalances rebalances, ClusterView.@Nullable GroupAssignor assignor, int misses,
			long nextAttempt) {

	}

}
