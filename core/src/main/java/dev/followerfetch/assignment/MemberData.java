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

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.followerfetch.ClientRack;
import dev.followerfetch.Policy;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * What a member tells the group's leader in its subscription's user data: its zone and
 * policy (a FRESHNESS member's {@code client.rack} is empty, so Kafka's rack id cannot
 * carry its zone), and the user data of the strategy the zone-aware assignor wraps
 * (Kafka's sticky assignor keeps its last assignment there), which the leader hands to
 * that strategy as the member sent it. Version 2; version 1 also carried the member's last
 * assignment, which version 2 leaves empty. A later version only appends, so every version
 * reads what it knows and skips the rest: a leader of the previous release reads this one.
 * What another member sent is bounded by its own length, and a zone that is not a
 * well-formed rack ({@link ClientRack#isWellFormed}) is read as none.
 *
 * @param zone the member's zone, or {@code null}
 * @param policy where the member reads from
 * @param generation the generation of its last assignment, -1 before the first
 * @param assigned its last assignment, as version 1 sent it (empty from version 2)
 * @param inner the user data of the wrapped strategy, or {@code null} for none (and from
 * members of version 1)
 * @author follower-fetch authors
 */
record MemberData(@Nullable String zone, Policy policy, int generation, List<TopicPartition> assigned,
		@Nullable ByteBuffer inner) {

	static final short VERSION = 2;

	MemberData {
		assigned = List.copyOf(assigned);
		inner = (inner != null) ? inner.asReadOnlyBuffer() : null;
	}

	MemberData(@Nullable String zone, Policy policy, int generation, @Nullable ByteBuffer inner) {
		this(zone, policy, generation, List.of(), inner);
	}

	ByteBuffer encode() {
		byte[] zoneBytes = (this.zone != null) ? this.zone.getBytes(StandardCharsets.UTF_8) : null;
		ByteBuffer inner = (this.inner != null) ? this.inner.duplicate() : null;
		int size = 2 + 2 + ((zoneBytes != null) ? zoneBytes.length : 0) + 1 + 4 + 4 + 4
				+ ((inner != null) ? inner.remaining() : 0);
		ByteBuffer buffer = ByteBuffer.allocate(size);
		buffer.putShort(VERSION);
		putString(buffer, zoneBytes);
		buffer.put((byte) ((this.policy == Policy.FRESHNESS) ? 1 : 0));
		buffer.putInt(this.generation);
		// version 1's last assignment, by topic: none
		buffer.putInt(0);
		buffer.putInt((inner != null) ? inner.remaining() : -1);
		if (inner != null) {
			buffer.put(inner);
		}
		return buffer.flip();
	}

	/**
	 * Read what a member sent.
	 * @param userData its subscription's user data, may be {@code null}
	 * @return what it said, or empty when it sent nothing this version can read
	 */
	static Optional<MemberData> decode(@Nullable ByteBuffer userData) {
		if (userData == null || !userData.hasRemaining()) {
			return Optional.empty();
		}
		ByteBuffer buffer = userData.duplicate();
		try {
			short version = buffer.getShort();
			if (version < 1) {
				return Optional.empty();
			}
			String zone = zone(getString(buffer));
			byte freshness = buffer.get();
			if (freshness != 0 && freshness != 1) {
				return Optional.empty();
			}
			Policy policy = (freshness == 1) ? Policy.FRESHNESS : Policy.LOCALITY;
			int generation = buffer.getInt();
			int topics = buffer.getInt();
			if (topics < 0) {
				return Optional.empty();
			}
			List<TopicPartition> assigned = new ArrayList<>();
			for (int t = 0; t < topics; t++) {
				String topic = getString(buffer);
				int partitions = buffer.getInt();
				if (topic == null || partitions < 0 || partitions > buffer.remaining() / 4) {
					return Optional.empty();
				}
				for (int p = 0; p < partitions; p++) {
					assigned.add(new TopicPartition(topic, buffer.getInt()));
				}
			}
			ByteBuffer inner = null;
			if (version >= 2) {
				int length = buffer.getInt();
				if (length > buffer.remaining()) {
					return Optional.empty();
				}
				if (length >= 0) {
					inner = buffer.slice();
					inner.limit(length);
				}
			}
			return Optional.of(new MemberData(zone, policy, generation, assigned, inner));
		}
		catch (BufferUnderflowException | IllegalArgumentException ex) {
			return Optional.empty();
		}
	}

	/**
	 * A zone as detection accepts a rack, else none: what another member sends is shown
	 * in logs and the health.
	 */
	private static @Nullable String zone(@Nullable String sent) {
		String zone = ClientRack.zoneOf(sent);
		return ClientRack.isWellFormed(zone) ? zone : null;
	}

	private static void putString(ByteBuffer buffer, byte @Nullable [] bytes) {
		if (bytes == null) {
			buffer.putShort((short) -1);
			return;
		}
		buffer.putShort((short) bytes.length);
		buffer.put(bytes);
	}

	private static @Nullable String getString(ByteBuffer buffer) {
		short length = buffer.getShort();
		if (length < 0) {
			return null;
		}
		byte[] bytes = new byte[length];
		buffer.get(bytes);
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
