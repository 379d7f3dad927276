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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * One group of units assigned together, by the members the units go to: as the reference
 * has them where nothing can gain, else as a minimum-cost flow whose costs are compared in
 * the rule's order (balance, leader zone, zone, what the member owns). The flow runs from
 * the source through units alike for the rule ({@code (gains, owner)}, see
 * {@link Shares#key}) to the member classes, and from there through the {@link Shares} to
 * the sink; a unit its owner keeps skips its class. One instance serves a rebalance, and
 * its flow's work counts against the budget of the whole rebalance.
 *
 * @author follower-fetch authors
 */
final class GroupFlow {

	private final MemberClasses members;

	private final PartitionTable<Integer> owners;

	private final Placement placement;

	private final Budget budget;

	private final boolean zoned;

	private final LexicographicFlow flow = new LexicographicFlow();

	/**
	 * The flow of one rebalance's groups.
	 * @param members the members
	 * @param owners the member the reference gives each partition to, by place
	 * @param placement where the units go
	 * @param budget the work allowed
	 */
	GroupFlow(MemberClasses members, PartitionTable<Integer> owners, Placement placement, Budget budget) {
		this.members = members;
		this.owners = owners;
		this.placement = placement;
		this.budget = budget;
		this.zoned = members.zoned();
	}

	/**
	 * Give every unit of a group to a member.
	 * @param group the group
	 * @throws OverBudgetException when the flow would exceed the budget
	 */
	void solve(Group group) {
		int unitCount = group.units();
		if (unitCount == 0) {
			return;
		}
		int[] owner = new int[unitCount];
		for (int u = 0; u < unitCount; u++) {
			Integer known = this.owners.get(group.topics().get(0)[u].partition());
			owner[u] = (known != null) ? known : -1;
		}
		if (!this.zoned || keepsReference(group, classes(group, owner))) {
			boolean complete = true;
			for (int u = 0; u < unitCount; u++) {
				complete &= owner[u] >= 0;
			}
			if (complete && (group.subscribers() == null || balanced(group, owner))) {
				for (int u = 0; u < unitCount; u++) {
					this.placement.give(group, u, owner[u]);
				}
				return;
			}
		}
		flow(group, owner);
	}

	private void flow(Group group, int[] owner) {
		int unitCount = group.units();
		List<Integer> classes = new ArrayList<>(classes(group, owner));
		int[] position = new int[this.members.classes()];
		for (int i = 0; i < classes.size(); i++) {
			position[classes.get(i)] = i;
		}
		Shares shares = (group.subscribers() == null) ? new KeptCounts(this.members, owner, classes)
				: new EvenShares(this.members, group, owner, position);
		Map<UnitKey, Integer> keyIndex = new HashMap<>();
		List<UnitKey> keys = new ArrayList<>();
		List<Integer> keyOwner = new ArrayList<>();
		int[] keyOf = new int[unitCount];
		for (int u = 0; u < unitCount; u++) {
			int[] gains = new int[classes.size() * 2];
			for (int i = 0; i < classes.size(); i++) {
				gains[2 * i] = this.members.gain(group, u, classes.get(i), true);
				gains[2 * i + 1] = this.members.gain(group, u, classes.get(i), false);
			}
			UnitKey key = new UnitKey(gains, shares.key(owner[u]));
			Integer index = keyIndex.putIfAbsent(key, keys.size());
			if (index == null) {
				index = keys.size();
				keys.add(key);
				keyOwner.add(owner[u]);
			}
			keyOf[u] = index;
		}
		this.budget.checkEdges((long) keys.size() * (classes.size() + 2) + classes.size() + shares.edges());

		LexicographicFlow flow = this.flow;
		flow.reset();
		int source = flow.node();
		int sink = flow.node();
		int[] classNode = new int[classes.size()];
		for (int i = 0; i < classes.size(); i++) {
			classNode[i] = flow.node();
		}
		shares.connect(flow, classNode, sink);
		int[] size = new int[keys.size()];
		for (int u = 0; u < unitCount; u++) {
			size[keyOf[u]]++;
		}
		int[] keepEdge = new int[keys.size()];
		int[][] moveEdge = new int[keys.size()][classes.size()];
		for (int k = 0; k < keys.size(); k++) {
			int[] gains = keys.get(k).gains();
			int node = flow.node();
			flow.edge(source, node, size[k]);
			int keeper = keyOwner.get(k);
			int keepNode = -1;
			keepEdge[k] = -1;
			if (keeper >= 0) {
				int own = position[this.members.classOf(keeper)];
				keepNode = shares.keepNode(keeper, classNode[own]);
				keepEdge[k] = flow.edge(node, keepNode, size[k], 0, -gains[2 * own], -gains[2 * own + 1], -1);
			}
			for (int i = 0; i < classes.size(); i++) {
				moveEdge[k][i] = (classNode[i] == keepNode) ? -1
						: flow.edge(node, classNode[i], size[k], 0, -gains[2 * i], -gains[2 * i + 1], 0);
			}
		}
		flow.solve(source, sink, this.budget.deadline());
		this.budget.checkVisits(flow.visits());

		// realize: kept units stay, moved ones pool per class, in unit order
		int[] kept = new int[keys.size()];
		int[][] moved = new int[keys.size()][classes.size()];
		for (int k = 0; k < keys.size(); k++) {
			kept[k] = (keepEdge[k] >= 0) ? flow.flow(keepEdge[k]) : 0;
			for (int i = 0; i < classes.size(); i++) {
				moved[k][i] = (moveEdge[k][i] >= 0) ? flow.flow(moveEdge[k][i]) : 0;
			}
		}
		List<List<Integer>> pools = new ArrayList<>();
		classes.forEach((c) -> pools.add(new ArrayList<>()));
		for (int u = 0; u < unitCount; u++) {
			int k = keyOf[u];
			if (kept[k] > 0) {
				kept[k]--;
				this.placement.give(group, u, owner[u]);
				shares.kept(owner[u]);
				continue;
			}
			for (int i = 0; i < classes.size(); i++) {
				if (moved[k][i] > 0) {
					moved[k][i]--;
					pools.get(i).add(u);
					break;
				}
			}
		}
		for (int i = 0; i < classes.size(); i++) {
			shares.hand(classes.get(i), pools.get(i), flow, (unit, member) -> this.placement.give(group, unit, member));
		}
	}

	/**
	 * The classes of the members that may get units: the owners, and the subscribers
	 * where the group has them.
	 */
	private Set<Integer> classes(Group group, int[] owner) {
		Set<Integer> present = new TreeSet<>();
		for (int m : owner) {
			if (m >= 0) {
				present.add(this.members.classOf(m));
			}
		}
		if (group.subscribers() != null) {
			for (int m : group.subscribers()) {
				present.add(this.members.classOf(m));
			}
		}
		return present;
	}

	/**
	 * Whether nothing can gain from moving: every unit and member class scores alike.
	 */
	private boolean keepsReference(Group group, Set<Integer> classes) {
		if (classes.size() <= 1) {
			return true;
		}
		for (int u = 0; u < group.units(); u++) {
			for (int c : classes) {
				if (this.members.gain(group, u, c, true) > 0 || this.members.gain(group, u, c, false) > 0) {
					return false;
				}
			}
		}
		return true;
	}

	private boolean balanced(Group group, int[] owner) {
		Map<Integer, Integer> counts = new HashMap<>();
		for (int m : owner) {
			counts.merge(m, 1, Integer::sum);
		}
		int extras = 0;
		for (int m : Objects.requireNonNull(group.subscribers())) {
			int count = counts.getOrDefault(m, 0);
			if (count == group.floor() + 1) {
				extras++;
			}
			else if (count != group.floor()) {
				return false;
			}
			counts.remove(m);
		}
		return counts.isEmpty() && extras == group.extras();
	}

	/**
	 * Units that are alike for the rule: the same gains in every member class of the
	 * group, and the same owner in the reference, or, where any member of its class may
	 * keep them, the same owner's class.
	 */
	private record UnitKey(int[] gains, int owner) {

		@Override
		public boolean equals(Object other) {
			return other instanceof UnitKey key && key.owner == this.owner && Arrays.equals(key.gains, this.gains);
		}

		@Override
		public int hashCode() {
			return 31 * Arrays.hashCode(this.gains) + this.owner;
		}

	}

}
