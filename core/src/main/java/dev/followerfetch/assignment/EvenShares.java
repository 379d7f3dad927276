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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;

/**
 * {@link Balance#PER_TOPIC}: each subscriber takes the group's floor, which balance
 * rewards, and at most one more where there are extras. The members that own units have a
 * node each, since a unit kept stays with its owner; per class, the subscribers that own
 * none share one node and take the units moved to them in the members' order.
 *
 * @author follower-fetch authors
 */
final class EvenShares implements Shares {

	private final MemberClasses members;

	private final Group group;

	private final int[] position;

	/**
	 * How many units each member that owns any owns, by place.
	 */
	private final Map<Integer, Integer> quota = new TreeMap<>();

	/**
	 * The subscribers that own no unit, by class.
	 */
	private final Map<Integer, List<Integer>> othersByClass = new TreeMap<>();

	private final Map<Integer, Integer> memberNode = new LinkedHashMap<>();

	private final Map<Integer, Integer> toMember = new LinkedHashMap<>();

	private final Map<Integer, Integer> toOthers = new TreeMap<>();

	/**
	 * The shares of a group of subscribers.
	 * @param members the members
	 * @param group the group, with its subscribers
	 * @param owner the owner of each unit, by place, or -1
	 * @param position the position of each class among the group's classes
	 */
	EvenShares(MemberClasses members, Group group, int[] owner, int[] position) {
		this.members = members;
		this.group = group;
		this.position = position;
		for (int m : owner) {
			if (m >= 0) {
				this.quota.merge(m, 1, Integer::sum);
			}
		}
		for (int m : Objects.requireNonNull(group.subscribers())) {
			if (!this.quota.containsKey(m)) {
				this.othersByClass.computeIfAbsent(members.classOf(m), (key) -> new ArrayList<>()).add(m);
			}
		}
	}

	@Override
	public int key(int owner) {
		return owner;
	}

	@Override
	public long edges() {
		return 3L * this.quota.size() + 3L * this.othersByClass.size();
	}

	@Override
	public void connect(LexicographicFlow flow, int[] classNode, int sink) {
		Group group = this.group;
		this.quota.keySet().forEach((m) -> {
			int node = flow.node();
			this.memberNode.put(m, node);
			this.toMember.put(m, flow.edge(classNode[this.position[this.members.classOf(m)]], node,
					LexicographicFlow.UNBOUNDED));
			limit(flow, node, sink, group.floor(), group.extras(), 1);
		});
		this.othersByClass.forEach((c, others) -> {
			int node = flow.node();
			this.toOthers.put(c, flow.edge(classNode[this.position[c]], node, LexicographicFlow.UNBOUNDED));
			limit(flow, node, sink, group.floor(), group.extras(), others.size());
		});
	}

	/**
	 * A member's (or several alike members') room: the share they must get, which balance
	 * rewards, and at most one more each where there are extras.
	 */
	private static void limit(LexicographicFlow flow, int node, int sink, int share, int extras, int readers) {
		if (share > 0) {
			flow.edge(node, sink, share * readers, -1);
		}
		if (extras > 0) {
			flow.edge(node, sink, readers);
		}
	}

	@Override
	public int keepNode(int owner, int classNode) {
		return Objects.requireNonNull(this.memberNode.get(owner), () -> "no entry for " + owner);
	}

	@Override
	public void hand(int memberClass, List<Integer> pool, LexicographicFlow flow, Give to) {
		int next = 0;
		for (Map.Entry<Integer, Integer> member : this.toMember.entrySet()) {
			if (this.members.classOf(member.getKey()) != memberClass) {
				continue;
			}
			for (int n = flow.flow(member.getValue()); n > 0; n--) {
				to.give(pool.get(next++), member.getKey());
			}
		}
		Integer others = this.toOthers.get(memberClass);
		if (others != null) {
			List<Integer> readers = Objects.requireNonNull(this.othersByClass.get(memberClass));
			int floor = this.group.floor();
			int extras = flow.flow(others) - floor * readers.size();
			for (int r = 0; r < readers.size(); r++) {
				for (int n = floor + ((r < extras) ? 1 : 0); n > 0; n--) {
					to.give(pool.get(next++), readers.get(r));
				}
			}
		}
	}

}
