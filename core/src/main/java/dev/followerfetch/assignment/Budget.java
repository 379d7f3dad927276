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

import java.time.Duration;

/**
 * The work the rule may do in one rebalance, so that it never costs more than a bounded
 * amount of memory and time: past it, the wrapped strategy's assignment stands.
 *
 * @param maxGroupEdges the most edges the flow of one group of partitions may have
 * (about 72 bytes each)
 * @param maxVisits the most edge visits the flows may make in all
 * @param time the most time the rule may take
 * @param start the {@link System#nanoTime()} it started at
 * @author follower-fetch authors
 */
record Budget(long maxGroupEdges, long maxVisits, Duration time, long start) {

	/**
	 * 2,000,000 edges (about 144 MB), 2,000,000,000 visits, 10 s.
	 */
	static final Budget DEFAULT = new Budget(2_000_000, 2_000_000_000L, Duration.ofSeconds(10), 0);

	/**
	 * This budget, from now on.
	 * @return a budget whose time starts now
	 */
	Budget startingNow() {
		return new Budget(this.maxGroupEdges, this.maxVisits, this.time, System.nanoTime());
	}

	long deadline() {
		return ((this.start != 0) ? this.start : System.nanoTime()) + this.time.toNanos();
	}

	void checkEdges(long edges) {
		if (edges > this.maxGroupEdges) {
			throw new OverBudgetException(
					"a group of its partitions needs " + edges + " flow edges, more than " + this.maxGroupEdges);
		}
	}

	void checkVisits(long visits) {
		if (visits > this.maxVisits) {
			throw new OverBudgetException("its flows took " + visits + " edge visits, more than " + this.maxVisits);
		}
	}

}
