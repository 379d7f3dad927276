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

import java.util.Arrays;

/**
 * A minimum-cost maximum flow whose edge costs are vectors compared lexicographically, so
 * that one objective strictly outranks the next (balance, then leader zone, then zone,
 * then stickiness) without weights that overflow. Primal-dual: shortest paths with
 * potentials (one pass over the edges in the order they were added, which is a
 * topological order for the graphs the rule builds, then Dijkstra), then a blocking flow
 * along all of them. Neither the JDK nor kafka-clients has a flow solver. Deterministic:
 * ties go to the node and edge added first. One instance is reset and reused for each
 * group of a rebalance; it allocates nothing per relaxation, and counts the edge visits
 * it makes so that the caller can bound its work.
 *
 * @author follower-fetch authors
 */
final class LexicographicFlow {

	/**
	 * How many objectives a cost has.
	 */
	static final int DIMENSIONS = 4;

	static final int UNBOUNDED = Integer.MAX_VALUE / 4;

	private int nodes;

	private int edges;

	private int[] from = new int[64];

	private int[] to = new int[64];

	private int[] capacity = new int[64];

	private int[] flow = new int[64];

	private int[] cost = new int[64 * DIMENSIONS];

	private int[] nextEdge = new int[64];

	private int[] firstEdge = new int[16];

	private long[] potential = new long[16 * DIMENSIONS];

	private long[] distance = new long[16 * DIMENSIONS];

	private boolean[] done = new boolean[16];

	private int[] heap = new int[16];

	private int[] heapIndex = new int[16];

	private int[] level = new int[16];

	private int[] current = new int[16];

	private long visits;

	/**
	 * Forget every node and edge, keeping the arrays for the next graph.
	 */
	void reset() {
		this.nodes = 0;
		this.edges = 0;
	}

	/**
	 * Add a node.
	 * @return its index
	 */
	int node() {
		if (this.nodes == this.firstEdge.length) {
			int size = this.nodes * 2;
			this.firstEdge = Arrays.copyOf(this.firstEdge, size);
			this.potential = new long[size * DIMENSIONS];
			this.distance = new long[size * DIMENSIONS];
			this.done = new boolean[size];
			this.heap = new int[size];
			this.heapIndex = new int[size];
			this.level = new int[size];
			this.current = new int[size];
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
	int edge(int tail, int head, int cap, int... costs) {
		int edge = this.edges;
		add(tail, head, cap, costs, 1);
		add(head, tail, 0, costs, -1);
		return edge;
	}

	private void add(int tail, int head, int cap, int[] costs, int sign) {
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
		this.flow[edge] = 0;
		int base = edge * DIMENSIONS;
		for (int d = 0; d < DIMENSIONS; d++) {
			this.cost[base + d] = (d < costs.length) ? sign * costs[d] : 0;
		}
		this.nextEdge[edge] = this.firstEdge[tail];
		this.firstEdge[tail] = edge;
	}

	/**
	 * How much flows through an edge.
	 * @param edge the edge, as {@link #edge} returned it
	 * @return the flow
	 */
	int flow(int edge) {
		return this.flow[edge];
	}

	/**
	 * The edges the graph holds now, twins included.
	 * @return the count
	 */
	int edges() {
		return this.edges;
	}

	/**
	 * The edge visits made since this instance was created: the work done.
	 * @return the count
	 */
	long visits() {
		return this.visits;
	}

	/**
	 * Push as much as can flow from source to sink, at the least cost.
	 * @param source where flow starts
	 * @param sink where it ends
	 * @param deadline the {@link System#nanoTime()} after which to give up
	 * @return how much flowed
	 * @throws IllegalStateException once the deadline has passed
	 */
	long solve(int source, int sink, long deadline) {
		initialPotentials(source);
		long total = 0;
		while (shortestPaths(source, sink)) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("the zone-aware rule ran out of time");
			}
			for (int v = 0; v < this.nodes; v++) {
				if (this.done[v]) {
					for (int d = 0; d < DIMENSIONS; d++) {
						this.potential[v * DIMENSIONS + d] += this.distance[v * DIMENSIONS + d];
					}
				}
			}
			total += blockingFlows(source, sink);
		}
		return total;
	}

	/**
	 * Push along every shortest path at once (Dinic on the edges whose reduced cost is
	 * zero), instead of one path per Dijkstra: a steady group has one path per member.
	 */
	private long blockingFlows(int source, int sink) {
		long total = 0;
		while (levels(source, sink)) {
			System.arraycopy(this.firstEdge, 0, this.current, 0, this.nodes);
			long pushed;
			while ((pushed = push(source, sink, UNBOUNDED)) > 0) {
				total += pushed;
			}
		}
		return total;
	}

	private boolean levels(int source, int sink) {
		Arrays.fill(this.level, 0, this.nodes, -1);
		this.level[source] = 0;
		int[] queue = this.heap;
		int head = 0;
		int tail = 0;
		queue[tail++] = source;
		while (head < tail) {
			int v = queue[head++];
			for (int e = this.firstEdge[v]; e >= 0; e = this.nextEdge[e]) {
				this.visits++;
				int next = this.to[e];
				if (this.level[next] < 0 && this.done[next] && admissible(e)) {
					this.level[next] = this.level[v] + 1;
					queue[tail++] = next;
				}
			}
		}
		return this.level[sink] >= 0;
	}

	/**
	 * One augmenting path of the level graph; paths here are at most a handful of edges
	 * long, so the recursion stays shallow.
	 */
	private int push(int v, int sink, int limit) {
		if (v == sink) {
			return limit;
		}
		for (; this.current[v] >= 0; this.current[v] = this.nextEdge[this.current[v]]) {
			int e = this.current[v];
			this.visits++;
			int next = this.to[e];
			if (this.level[next] == this.level[v] + 1 && admissible(e)) {
				int pushed = push(next, sink, Math.min(limit, this.capacity[e] - this.flow[e]));
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
	private boolean admissible(int edge) {
		if (this.capacity[edge] <= this.flow[edge]) {
			return false;
		}
		int tail = this.from[edge] * DIMENSIONS;
		int head = this.to[edge] * DIMENSIONS;
		int base = edge * DIMENSIONS;
		for (int d = 0; d < DIMENSIONS; d++) {
			if (this.cost[base + d] + this.potential[tail + d] - this.potential[head + d] != 0) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Shortest distances from the source over edges with room, by relaxing the edges in
	 * the order they were added, again while any improves: the costs may be negative, and
	 * the graph has no negative cycle before any flow.
	 */
	private void initialPotentials(int source) {
		Arrays.fill(this.potential, 0, this.nodes * DIMENSIONS, 0);
		boolean[] reached = this.done;
		Arrays.fill(reached, 0, this.nodes, false);
		reached[source] = true;
		for (int round = 0; round < this.nodes; round++) {
			boolean changed = false;
			for (int e = 0; e < this.edges; e++) {
				this.visits++;
				int tail = this.from[e];
				int head = this.to[e];
				if (this.capacity[e] > this.flow[e] && reached[tail] && (!reached[head] || lessVia(tail, e, head))) {
					reached[head] = true;
					for (int d = 0; d < DIMENSIONS; d++) {
						this.potential[head * DIMENSIONS + d] = this.potential[tail * DIMENSIONS + d]
								+ this.cost[e * DIMENSIONS + d];
					}
					changed = true;
				}
			}
			if (!changed) {
				break;
			}
		}
	}

	private boolean lessVia(int tail, int edge, int head) {
		for (int d = 0; d < DIMENSIONS; d++) {
			long candidate = this.potential[tail * DIMENSIONS + d] + this.cost[edge * DIMENSIONS + d];
			long current = this.potential[head * DIMENSIONS + d];
			if (candidate != current) {
				return candidate < current;
			}
		}
		return false;
	}

	/**
	 * Dijkstra over reduced costs from the source, with an indexed binary heap; {@code done}
	 * marks the nodes reached.
	 * @return whether the sink was reached
	 */
	private boolean shortestPaths(int source, int sink) {
		Arrays.fill(this.done, 0, this.nodes, false);
		Arrays.fill(this.heapIndex, 0, this.nodes, -1);
		int size = 0;
		Arrays.fill(this.distance, source * DIMENSIONS, source * DIMENSIONS + DIMENSIONS, 0);
		size = offer(source, size);
		while (size > 0) {
			int v = this.heap[0];
			size = poll(size);
			this.done[v] = true;
			int vBase = v * DIMENSIONS;
			for (int e = this.firstEdge[v]; e >= 0; e = this.nextEdge[e]) {
				this.visits++;
				int head = this.to[e];
				if (this.capacity[e] <= this.flow[e] || this.done[head]) {
					continue;
				}
				int headBase = head * DIMENSIONS;
				int eBase = e * DIMENSIONS;
				boolean seen = this.heapIndex[head] >= 0;
				int order = seen ? 0 : -1;
				for (int d = 0; d < DIMENSIONS && order == 0; d++) {
					long candidate = this.distance[vBase + d] + this.cost[eBase + d] + this.potential[vBase + d]
							- this.potential[headBase + d];
					order = Long.compare(candidate, this.distance[headBase + d]);
				}
				if (order < 0) {
					for (int d = 0; d < DIMENSIONS; d++) {
						this.distance[headBase + d] = this.distance[vBase + d] + this.cost[eBase + d]
								+ this.potential[vBase + d] - this.potential[headBase + d];
					}
					size = seen ? siftUp(this.heapIndex[head], size) : offer(head, size);
				}
			}
		}
		return this.done[sink];
	}

	private int offer(int node, int size) {
		this.heap[size] = node;
		this.heapIndex[node] = size;
		return siftUp(size, size + 1);
	}

	private int poll(int size) {
		int last = this.heap[size - 1];
		this.heapIndex[this.heap[0]] = -2;
		size--;
		if (size > 0) {
			this.heap[0] = last;
			this.heapIndex[last] = 0;
			siftDown(0, size);
		}
		return size;
	}

	private int siftUp(int index, int size) {
		int node = this.heap[index];
		while (index > 0) {
			int parent = (index - 1) / 2;
			if (!before(node, this.heap[parent])) {
				break;
			}
			this.heap[index] = this.heap[parent];
			this.heapIndex[this.heap[index]] = index;
			index = parent;
		}
		this.heap[index] = node;
		this.heapIndex[node] = index;
		return size;
	}

	private void siftDown(int index, int size) {
		int node = this.heap[index];
		while (true) {
			int child = 2 * index + 1;
			if (child >= size) {
				break;
			}
			if (child + 1 < size && before(this.heap[child + 1], this.heap[child])) {
				child++;
			}
			if (!before(this.heap[child], node)) {
				break;
			}
			this.heap[index] = this.heap[child];
			this.heapIndex[this.heap[index]] = index;
			index = child;
		}
		this.heap[index] = node;
		this.heapIndex[node] = index;
	}

	/**
	 * The smaller distance first, the node added first among equals.
	 */
	private boolean before(int left, int right) {
		int leftBase = left * DIMENSIONS;
		int rightBase = right * DIMENSIONS;
		for (int d = 0; d < DIMENSIONS; d++) {
			int order = Long.compare(this.distance[leftBase + d], this.distance[rightBase + d]);
			if (order != 0) {
				return order < 0;
			}
		}
		return left < right;
	}

}
