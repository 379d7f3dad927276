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

package dev.followerfetch.test;

/**
 * How a cut network path fails, as the peers on either side see it.
 *
 * @author follower-fetch authors
 * @see MultiZoneKafkaCluster#partition(String, LinkFailure)
 */
public enum LinkFailure {

	/**
	 * Connections stay open and new ones are accepted, but no byte gets through: every
	 * request times out, as across a partitioned network or to a host that lost power.
	 * Bytes held while cut are delivered if the path heals first, as TCP retransmission
	 * would deliver them.
	 */
	BLACK_HOLE(LoopbackLink.State.BLACK_HOLE),

	/**
	 * Every connection is reset and new ones are reset as soon as they open, as a live
	 * host answers for a process that died.
	 */
	REFUSE(LoopbackLink.State.REFUSE);

	private final LoopbackLink.State state;

	LinkFailure(LoopbackLink.State state) {
		this.state = state;
	}

	LoopbackLink.State state() {
		return this.state;
	}

}
