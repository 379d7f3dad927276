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

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import org.jspecify.annotations.Nullable;

/**
 * The members as the rule sees them: in Kafka's order, each in a class of alike members
 * (same zone and policy), their zones numbered in the order the members name them.
 *
 * @author follower-fetch authors
 */
final class MemberClasses {

	/**
	 * Kafka's order of members (AbstractPartitionAssignor.MemberInfo): static members by
	 * instance id first, then the others by member id.
	 */
	private static final Comparator<Member> MEMBER_ORDER = Comparator
		.comparing((Member member) -> member.instance() == null)
		.thenComparing((Member member) -> Objects.toString(member.instance(), ""))
		.thenComparing(Member::id);

	private final Member[] members;

	private final int[] memberClass;

	private final List<MemberClass> classes = new ArrayList<>();

	private final Map<String, Integer> zoneIndex = new HashMap<>();

	private final Map<String, Integer> memberIndex = new HashMap<>();

	/**
	 * The zone of each member class, as an index of {@link #zoneIndex}; -1 for none.
	 */
	private final int[] classZone;

	MemberClasses(Collection<Member> members) {
		this.members = members.stream().sorted(MEMBER_ORDER).toArray(Member[]::new);
		this.memberClass = new int[this.members.length];
		Map<MemberClass, Integer> classIndex = new HashMap<>();
		for (int m = 0; m < this.members.length; m++) {
			Member member = this.members[m];
			this.memberIndex.put(member.id(), m);
			if (member.zone() != null) {
				this.zoneIndex.putIfAbsent(member.zone(), this.zoneIndex.size());
			}
			MemberClass key = new MemberClass(member.zone(), member.policy());
			this.memberClass[m] = classIndex.computeIfAbsent(key, (k) -> {
				this.classes.add(k);
				return this.classes.size() - 1;
			});
		}
		this.classZone = this.classes.stream()
			.mapToInt((c) -> (c.zone() != null) ? Objects.requireNonNull(this.zoneIndex.get(c.zone())) : -1)
			.toArray();
	}

	/**
	 * How many members there are.
	 * @return the count
	 */
	int size() {
		return this.members.length;
	}

	/**
	 * A member, by its place in Kafka's order.
	 * @param member the place
	 * @return the member
	 */
	Member get(int member) {
		return this.members[member];
	}

	/**
	 * The place of the member with an id (the last, should two share it).
	 * @param id the member id of one of the members
	 * @return the place
	 */
	int indexOf(String id) {
		return Objects.requireNonNull(this.memberIndex.get(id), () -> "no entry for " + id);
	}

	/**
	 * How many classes there are.
	 * @return the count
	 */
	int classes() {
		return this.classes.size();
	}

	/**
	 * The class of a member.
	 * @param member the member's place
	 * @return the class, numbered from 0 in the order of the members
	 */
	int classOf(int member) {
		return this.memberClass[member];
	}

	/**
	 * Whether moving a partition can bring it closer: some member has a zone, and not
	 * every member is alike.
	 * @return whether the members are in more than one class, with a zone among them
	 */
	boolean zoned() {
		return !this.zoneIndex.isEmpty() && this.classes.size() > 1;
	}

	/**
	 * Whether moving a partition can bring it closer, without ordering the members:
	 * {@link #zoned()} of their classes.
	 * @param members the members
	 * @return whether the members are in more than one class, with a zone among them
	 */
	static boolean zoned(Collection<Member> members) {
		boolean zone = false;
		boolean alike = true;
		MemberClass first = null;
		for (Member member : members) {
			zone |= member.zone() != null;
			MemberClass memberClass = new MemberClass(member.zone(), member.policy());
			if (first == null) {
				first = memberClass;
			}
			else {
				alike &= first.equals(memberClass);
			}
		}
		return zone && !alike;
	}

	/**
	 * The number of a zone.
	 * @param zone the zone, or {@code null}
	 * @return its number, or -1 when no member is in it
	 */
	int zone(@Nullable String zone) {
		return (zone != null) ? this.zoneIndex.getOrDefault(zone, -1) : -1;
	}

	/**
	 * What a unit gains in one member class: partitions of it whose leader is in the
	 * class's zone, or (not {@code leader}) that the class reads in its zone.
	 * @param group the group of the unit
	 * @param unit the unit
	 * @param memberClass the class
	 * @param leader whether to count reads from the leader only
	 * @return how many of the unit's partitions
	 */
	int gain(Group group, int unit, int memberClass, boolean leader) {
		int zone = this.classZone[memberClass];
		if (zone < 0) {
			return 0;
		}
		return group.gain(unit, zone, this.classes.get(memberClass).policy() == Policy.LOCALITY, leader);
	}

	/**
	 * Members that are alike for the rule: same zone and policy.
	 */
	private record MemberClass(@Nullable String zone, Policy policy) {

	}

}
