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

/**
 * {@link Balance#TOTAL}: every owner keeps its count, so which member of a class keeps a
 * unit does not matter to the objectives, and the flow ends in the classes: each class
 * takes as many units as its members own. A unit kept stays with its owner; a class's
 * other owners fill their counts with the units moved to it, in the members' order.
 *
 * @author follower-fetch authors
 */
final class KeptCounts implements Shares {

	private final MemberClasses members;

	private final List<Integer> classes;

	/**
	 * How many units each member owns, then, once the flow is solved, still takes.
	 */
	private final int[] room;

	/**
	 * The shares of a group whose units all have owners.
	 * @param members the members
	 * @param owner the owner of each unit, by place
	 * @param classes the classes of the group, in order
	 */
	KeptCounts(MemberClasses members, int[] owner, List<Integer> classes) {
		this.members = members;
		this.classes = classes;
		this.room = new int[members.size()];
		for (int m : owner) {
			this.room[m]++;
		}
	}

	@Override
	public int key(int owner) {
		return this.members.classOf(owner);
	}

	@Override
	public long edges() {
		return this.classes.size();
	}

	@Override
	public void connect(LexicographicFlow flow, int[] classNode, int sink) {
		for (int i = 0; i < this.classes.size(); i++) {
			int memberClass = this.classes.get(i);
			int room = 0;
			for (int m = 0; m < this.members.size(); m++) {
				room += (this.members.classOf(m) == memberClass) ? this.room[m] : 0;
			}
			flow.edge(classNode[i], sink, room);
		}
	}

	@Override
	public int keepNode(int owner, int classNode) {
		return classNode;
	}

	@Override
	public void kept(int owner) {
		this.room[owner]--;
	}

	@Override
	public void hand(int memberClass, List<Integer> pool, LexicographicFlow flow, Give to) {
		int next = 0;
		for (int m = 0; m < this.members.size() && next < pool.size(); m++) {
			if (this.members.classOf(m) != memberClass) {
				continue;
			}
			for (; this.room[m] > 0 && next < pool.size(); this.room[m]--) {
				to.give(pool.get(next++), m);
			}
		}
	}

}
