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
package dev.followerfetch.e2e.previous;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * The previous release's own code, kept as it was (but for its name) so that tests can run
 * groups that mix it with this release, as a rolling upgrade does.
 * <p>
 * A minimum-cost maximum flow whose edge costs are vectors compared lexicographically, so
 * that one objective strictly outranks the next (balance, then leader zone, then zone,
 * then stickiness) without weights that overflow. Primal-dual: shortest paths with
 * potentials (Dijkstra after one Bellman-Ford), then a blocking flow along all of them. Neither the JDK nor kafka-clients has a
 * flow solver; this one is about 300 lines and deterministic: ties go to the node and
 * edge added first.
 *
 * @author follower-fetch authors
 */
final class PreviousLexicographicFlow {

	/**
	 * How many objectives a cost has.
	 */
	static final int DIMENSIONS = 4;

	static final long UNBOUNDED = Long.MAX_VALUE / 4;

	private int nodes;

	private int edges;

	private int[] from = new int[16];

	private int[] to = new int[16];

	private long[] capacity = new long[16];

	private long[] flow = new long[16];

	private long[] cost = new long[16 * DIMENSIONS];

	private int[] firstEdge = new int[16];

	private int[] nextEdge = new int[16];

	/**
	 * Add a node.
	 * @return its index
	 */
	int node() {
		if (this.nodes == this.firstEdge.length) {
			this.firstEdge = Arrays.copyOf(this.firstEdge, this.nodes * 2);
		}
		this.firstEdge[this.nodes] = -1;
		return this.nodes++;
	}

	/**
	 * Add an edge and its residual twin.
	 * @param tail where it starts
	 * @param head where it ends
	 * @param cap how much it carries at most
	 * @param costs the cost of one unit, most significant objective first, at most
	 * {@value #DIMENSIONS} values (the rest are zero)
	 * @return the edge, to ask its {@link #flow(int)} after {@link #solve(int, int)}
	 */
	int edge(int tail, int head, long cap, long... costs) {
		int edge = this.edges;
		add(tail, head, cap, costs, 1);
		add(head, tail, 0, costs, -1);
		return edge;
	}

	private void add(int tail, int head, long cap, long[] costs, int sign) {
		if (this.edges == this.to.length) {
			int size = this.edges * 2;
			this.from = Arrays.copyOf(this.from, size);
			this.to = Arrays.copyOf(this.to, size);
			this.capacity = Arrays.copyOf(this.capacity, size);
			this.flow = Arrays.copyOf(this.flow, size);
			this.cost = Arrays.copyOf(this.cost, size * DIMENSIONS);
			this.nextEdge = Arrays.copyOf(this.nextEdge, size);
		}
		int edge = this.edges++;
		this.from[edge] = tail;
		this.to[edge] = head;
		this.capacity[edge] = cap;
		for (int d = 0; d < costs.length; d++) {
			this.cost[edge * DIMENSIONS + d] = sign * costs[d];
		}
		this.nextEdge[edge] = this.firstEdge[tail];
		this.firstEdge[tail] = edge;
	}

	/**
	 * How much flows through an edge.
	 * @param edge the edge, as {@link #edge} returned it
	 * @return the flow
	 */
	long flow(int edge) {
		return this.flow[edge];
	}

	/**
	 * Push as much as can flow from source to sink, at the least cost.
	 * @param source where flow starts
	 * @param sink where it ends
	 * @return how much flowed
	 */
	long solve(int source, int sink) {
		long[] potential = initialPotentials(source);
		long[] distance = new long[this.nodes * DIMENSIONS];
		int[] via = new int[this.nodes];
		boolean[] done = new boolean[this.nodes];
		long total = 0;
		while (shortestPaths(source, sink, potential, distance, via, done)) {
			for (int v = 0; v < this.nodes; v++) {
				if (done[v]) {
					for (int d = 0; d < DIMENSIONS; d++) {
						potential[v * DIMENSIONS + d] += distance[v * DIMENSIONS + d];
					}
				}
			}
			total += blockingFlows(source, sink, potential, done);
		}
		return total;
	}

	/**
	 * Push along every shortest path at once (Dinic on the edges whose reduced cost is
	 * zero), instead of one path per Dijkstra: a steady group has one path per member.
	 */
	private long blockingFlows(int source, int sink, long[] potential, boolean[] reachable) {
		long total = 0;
		int[] level = new int[this.nodes];
		int[] current = new int[this.nodes];
		while (levels(source, sink, potential, reachable, level)) {
			System.arraycopy(this.firstEdge, 0, current, 0, this.nodes);
			long pushed;
			while ((pushed = push(source, sink, UNBOUNDED, potential, level, current)) > 0) {
				total += pushed;
			}
		}
		return total;
	}

	private boolean levels(int source, int sink, long[] potential, boolean[] reachable, int[] level) {
		Arrays.fill(level, -1);
		level[source] = 0;
		int[] queue = new int[this.nodes];
		int head = 0;
		int tail = 0;
		queue[tail++] = source;
		while (head < tail) {
			int v = queue[head++];
			for (int e = this.firstEdge[v]; e >= 0; e = this.nextEdge[e]) {
				int next = this.to[e];
				if (level[next] < 0 && reachable[next] && admissible(e, potential)) {
					level[next] = level[v] + 1;
					queue[tail++] = next;
				}
			}
		}
		return level[sink] >= 0;
	}

	private long push(int v, int sink, long limit, long[] potential, int[] level, int[] current) {
		if (v == sink) {
			return limit;
		}
		for (; current[v] >= 0; current[v] = this.nextEdge[current[v]]) {
			int e = current[v];
			int next = this.to[e];
			if (level[next] == level[v] + 1 && admissible(e, potential)) {
				long pushed = push(next, sink, Math.min(limit, this.capacity[e] - this.flow[e]), potential, level,
						current);
				if (pushed > 0) {
					this.flow[e] += pushed;
					this.flow[e ^ 1] -= pushed;
					return pushed;
				}
			}
		}
		return 0;
	}

	/**
	 * Whether an edge has room and a reduced cost of zero: it lies on a shortest path.
	 */
	private boolean admissible(int edge, long[] potential) {
		if (this.capacity[edge] <= this.flow[edge]) {
			return false;
		}
		int tail = this.from[edge];
		int head = this.to[edge];
		for (int d = 0; d < DIMENSIONS; d++) {
			if (this.cost[edge * DIMENSIONS + d] + potential[tail * DIMENSIONS + d]
					- potential[head * DIMENSIONS + d] != 0) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Bellman-Ford from the source over edges with room: the costs may be negative, the
	 * graph has no negative cycle before any flow.
	 */
	private long[] initialPotentials(int source) {
		long[] potential = new long[this.nodes * DIMENSIONS];
		boolean[] reached = new boolean[this.nodes];
		reached[source] = true;
		for (int round = 0; round < this.nodes; round++) {
			boolean changed = false;
			for (int e = 0; e < this.edges; e++) {
				int tail = this.from[e];
				int head = this.to[e];
				if (this.capacity[e] > this.flow[e] && reached[tail]
						&& (!reached[head] || lessVia(potential, tail, e, potential, head))) {
					reached[head] = true;
					for (int d = 0; d < DIMENSIONS; d++) {
						potential[head * DIMENSIONS + d] = potential[tail * DIMENSIONS + d]
								+ this.cost[e * DIMENSIONS + d];
					}
					changed = true;
				}
			}
			if (!changed) {
				break;
			}
		}
		return potential;
	}

	/**
	 * Dijkstra over reduced costs from the source; {@code done} marks the nodes reached.
	 * @return whether the sink was reached
	 */
	private boolean shortestPaths(int source, int sink, long[] potential, long[] distance, int[] via,
			boolean[] done) {
		Arrays.fill(done, false);
		boolean[] seen = new boolean[this.nodes];
		PriorityQueue<long[]> queue = new PriorityQueue<>(PreviousLexicographicFlow::compareEntries);
		Arrays.fill(distance, source * DIMENSIONS, source * DIMENSIONS + DIMENSIONS, 0);
		seen[source] = true;
		queue.add(entry(distance, source));
		while (!queue.isEmpty()) {
			long[] next = queue.poll();
			int v = (int) next[DIMENSIONS];
			if (done[v]) {
				continue;
			}
			done[v] = true;
			for (int e = this.firstEdge[v]; e >= 0; e = this.nextEdge[e]) {
				int head = this.to[e];
				if (this.capacity[e] <= this.flow[e] || done[head]) {
					continue;
				}
				long[] candidate = new long[DIMENSIONS];
				for (int d = 0; d < DIMENSIONS; d++) {
					candidate[d] = distance[v * DIMENSIONS + d] + this.cost[e * DIMENSIONS + d]
							+ potential[v * DIMENSIONS + d] - potential[head * DIMENSIONS + d];
				}
				if (!seen[head] || compare(candidate, 0, distance, head * DIMENSIONS) < 0) {
					seen[head] = true;
					System.arraycopy(candidate, 0, distance, head * DIMENSIONS, DIMENSIONS);
					via[head] = e;
					queue.add(entry(distance, head));
				}
			}
		}
		return done[sink];
	}

	private boolean lessVia(long[] tailDistance, int tail, int edge, long[] headDistance, int head) {
		for (int d = 0; d < DIMENSIONS; d++) {
			long candidate = tailDistance[tail * DIMENSIONS + d] + this.cost[edge * DIMENSIONS + d];
			long current = headDistance[head * DIMENSIONS + d];
			if (candidate != current) {
				return candidate < current;
			}
		}
		return false;
	}

	private static long[] entry(long[] distance, int node) {
		long[] entry = Arrays.copyOf(Arrays.copyOfRange(distance, node * DIMENSIONS, node * DIMENSIONS + DIMENSIONS),
				DIMENSIONS + 1);
		entry[DIMENSIONS] = node;
		return entry;
	}

	private static int compareEntries(long[] left, long[] right) {
		int byCost = compare(left, 0, right, 0);
		return (byCost != 0) ? byCost : Long.compare(left[DIMENSIONS], right[DIMENSIONS]);
	}

	private static int compare(long[] left, int leftOffset, long[] right, int rightOffset) {
		for (int d = 0; d < DIMENSIONS; d++) {
			int byDimension = Long.compare(left[leftOffset + d], right[rightOffset + d]);
			if (byDimension != 0) {
				return byDimension;
			}
		}
		return 0;
	}

}
