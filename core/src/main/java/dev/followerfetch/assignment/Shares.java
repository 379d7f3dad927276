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

/**
 * The members' side of a {@link GroupFlow}, from the member classes to the sink: how many
 * units the members may take, where a unit its owner keeps flows, and which members of a
 * class take the units the flow moved to that class.
 *
 * @author follower-fetch authors
 */
sealed interface Shares permits KeptCounts, EvenShares {

	/**
	 * What makes the units of one owner alike for the flow.
	 * @param owner the owner's place, or -1 for none
	 * @return the owner's class where any member of it may keep them, else the owner
	 */
	int key(int owner);

	/**
	 * How many edges {@link #connect} adds.
	 * @return the count
	 */
	long edges();

	/**
	 * Add the nodes and edges from the class nodes to the sink.
	 * @param flow the flow, holding the source, the sink and the class nodes
	 * @param classNode the node of each class of the group, by its position
	 * @param sink the sink
	 */
	void connect(LexicographicFlow flow, int[] classNode, int sink);

	/**
	 * Where a unit its owner keeps flows.
	 * @param owner the owner's place
	 * @param classNode the node of the owner's class
	 * @return the node
	 */
	int keepNode(int owner, int classNode);

	/**
	 * Note a unit its owner keeps, once the flow is solved, where the shares count what
	 * their members still take.
	 * @param owner the owner's place
	 */
	default void kept(int owner) {
	}

	/**
	 * Hand the units the flow moved to one class to its members.
	 * @param memberClass the class
	 * @param pool the units, in order
	 * @param flow the solved flow
	 * @param to what gives a unit to a member
	 */
	void hand(int memberClass, List<Integer> pool, LexicographicFlow flow, Give to);

	/**
	 * Gives a unit to a member.
	 */
	@FunctionalInterface
	interface Give {

		/**
		 * Give a unit to a member.
		 * @param unit the unit
		 * @param member the member's place
		 */
		void give(int unit, int member);

	}

}
