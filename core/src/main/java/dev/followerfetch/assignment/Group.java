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
package dev.followerfetch.assignment;

import java.util.List;

import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.jspecify.annotations.Nullable;

/**
 * Partitions assigned together: one topic, or co-partitioned topics whose partition
 * {@code u} goes to one member. Under {@link Balance#TOTAL} every owner keeps its count
 * ({@code subscribers} {@code null}); under {@link Balance#PER_TOPIC} each subscriber
 * gets {@code floor}, and {@code extras} of them one more.
 *
 * @param topics each topic's partitions, unit {@code u} at index {@code u}
 * @param leader the zone index of each partition's leader, -1 for none
 * @param inSync the zone indexes of each partition's in-sync replicas, as bits
 * @param subscribers the members that may get units, or {@code null} for the owners
 * @param floor the units each subscriber gets at least
 * @param extras how many subscribers get one more
 * @author follower-fetch authors
 */
record Group(List<Partition[]> topics, int[][] leader, long[][] inSync, int @Nullable [] subscribers, int floor,
		int extras) {

	/**
	 * A group of units, partition {@code u} of each topic's array the same unit, with each
	 * partition's leader zone and in-sync zones as the members' zone numbers.
	 * @param topics each topic's partitions, unit {@code u} at index {@code u}
	 * @param zones the members, which number the zones
	 * @param subscribers the members that may get units, or {@code null} for the owners
	 * @param floor the units each subscriber gets at least
	 * @param extras how many subscribers get one more
	 * @return the group
	 */
	static Group of(List<Partition[]> topics, MemberClasses zones, int @Nullable [] subscribers, int floor,
			int extras) {
		int unitCount = topics.get(0).length;
		int[][] leader = new int[topics.size()][unitCount];
		long[][] inSync = new long[topics.size()][unitCount];
		for (int t = 0; t < topics.size(); t++) {
			Partition[] ofTopic = topics.get(t);
			for (int u = 0; u < unitCount; u++) {
				Partition partition = ofTopic[u];
				leader[t][u] = zones.zone(partition.leaderZone());
				long mask = 0;
				for (String zone : partition.inSyncZones()) {
					int index = zones.zone(zone);
					if (index >= 0 && index < Long.SIZE) {
						mask |= 1L << index;
					}
				}
				inSync[t][u] = mask;
			}
		}
		return new Group(topics, leader, inSync, subscribers, floor, extras);
	}

	/**
	 * How many units the group has.
	 * @return the count
	 */
	int units() {
		return this.topics.get(0).length;
	}

	/**
	 * What a unit gains in a zone: its partitions whose leader is there, or (not
	 * {@code leader}) that a member there reads in its zone.
	 * @param unit the unit
	 * @param zone the zone's number
	 * @param locality whether the member reads an in-sync replica in its zone
	 * @param leader whether to count reads from the leader only
	 * @return how many of the unit's partitions
	 */
	int gain(int unit, int zone, boolean locality, boolean leader) {
		int gain = 0;
		for (int t = 0; t < this.leader.length; t++) {
			boolean fromLeader = this.leader[t][unit] == zone;
			boolean local = fromLeader || (locality && zone < Long.SIZE && (this.inSync[t][unit] & (1L << zone)) != 0);
			gain += (leader ? fromLeader : local) ? 1 : 0;
		}
		return gain;
	}

}
