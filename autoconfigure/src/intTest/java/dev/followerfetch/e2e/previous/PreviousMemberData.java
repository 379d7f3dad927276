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

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.followerfetch.Policy;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * The previous release's own code, kept as it was (but for its name) so that tests can run
 * groups that mix it with this release, as a rolling upgrade does.
 * <p>
 * What a member tells the group's leader in its subscription's user data: its zone and
 * policy (a FRESHNESS member's {@code client.rack} is empty, so Kafka's rack id cannot
 * carry its zone), and what it was last assigned, with the generation, for stickiness
 * under the eager protocol, where members report no owned partitions. Version 1; a later
 * version only appends, so every version reads what it knows and skips the rest.
 *
 * @param zone the member's zone, or {@code null}
 * @param policy where the member reads from
 * @param generation the generation of its last assignment, -1 before the first
 * @param assigned its last assignment
 * @author follower-fetch authors
 */
record PreviousMemberData(@Nullable String zone, Policy policy, int generation, List<TopicPartition> assigned) {

	static final short VERSION = 1;

	PreviousMemberData {
		assigned = List.copyOf(assigned);
	}

	ByteBuffer encode() {
		Map<String, List<Integer>> byTopic = new TreeMap<>();
		this.assigned.forEach((tp) -> byTopic.computeIfAbsent(tp.topic(), (topic) -> new ArrayList<>()).add(tp.partition()));
		byte[] zoneBytes = (this.zone != null) ? this.zone.getBytes(StandardCharsets.UTF_8) : null;
		int size = 2 + 2 + ((zoneBytes != null) ? zoneBytes.length : 0) + 1 + 4 + 4;
		List<byte[]> topics = new ArrayList<>();
		for (Map.Entry<String, List<Integer>> topic : byTopic.entrySet()) {
			byte[] name = topic.getKey().getBytes(StandardCharsets.UTF_8);
			topics.add(name);
			size += 2 + name.length + 4 + 4 * topic.getValue().size();
		}
		ByteBuffer buffer = ByteBuffer.allocate(size);
		buffer.putShort(VERSION);
		putString(buffer, zoneBytes);
		buffer.put((byte) ((this.policy == Policy.FRESHNESS) ? 1 : 0));
		buffer.putInt(this.generation);
		buffer.putInt(byTopic.size());
		int index = 0;
		for (List<Integer> partitions : byTopic.values()) {
			putString(buffer, topics.get(index++));
			buffer.putInt(partitions.size());
			partitions.forEach(buffer::putInt);
		}
		return buffer.flip();
	}

	/**
	 * Read what a member sent.
	 * @param userData its subscription's user data, may be {@code null}
	 * @return what it said, or empty when it sent nothing this version can read
	 */
	static Optional<PreviousMemberData> decode(@Nullable ByteBuffer userData) {
		if (userData == null || !userData.hasRemaining()) {
			return Optional.empty();
		}
		ByteBuffer buffer = userData.duplicate();
		try {
			if (buffer.getShort() < VERSION) {
				return Optional.empty();
			}
			String zone = getString(buffer);
			Policy policy = (buffer.get() == 1) ? Policy.FRESHNESS : Policy.LOCALITY;
			int generation = buffer.getInt();
			int topics = buffer.getInt();
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
			return Optional.of(new PreviousMemberData(zone, policy, generation, assigned));
		}
		catch (BufferUnderflowException | IllegalArgumentException ex) {
			return Optional.empty();
		}
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
