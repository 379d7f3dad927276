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

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * An immutable set of partitions, in the order they were first given, hashed by topic
 * and partition number apart. Kafka's {@code TopicPartition} hash gives partition
 * {@code p + 1} of topic {@code t0000} the hash of partition {@code p} of {@code t0010},
 * so {@code Set.copyOf} probes long runs once a group holds a million partitions: the
 * members' sets took about a quarter of the zone-aware assignor's own CPU time in Kafka's
 * million-partition test (some 0.8 s a rebalance), a few tens of milliseconds as these.
 *
 * @author follower-fetch authors
 */
final class PartitionSet extends AbstractSet<TopicPartition> {

	private static final PartitionSet EMPTY = new PartitionSet(new TopicPartition[0], new int[1]);

	private final TopicPartition[] elements;

	/**
	 * Open addressing: the index of an element plus one, 0 for a free slot; a power of two
	 * at least twice the size. Built when first asked for a set of partitions known to
	 * differ, which is mostly only iterated.
	 */
	private volatile int @Nullable [] slots;

	private PartitionSet(TopicPartition[] elements, int @Nullable [] slots) {
		this.elements = elements;
		this.slots = slots;
	}

	/**
	 * The partitions of a list in which none is twice.
	 * @param partitions the partitions, each once, none {@code null}
	 * @return the set
	 */
	static PartitionSet ofDistinct(List<TopicPartition> partitions) {
		return partitions.isEmpty() ? EMPTY : new PartitionSet(partitions.toArray(TopicPartition[]::new), null);
	}

	/**
	 * The partitions of a collection, each once.
	 * @param partitions the partitions, none {@code null}
	 * @return the set: the collection itself when it is one
	 * @throws NullPointerException for a {@code null} partition, as {@code Set.copyOf}
	 */
	static PartitionSet copyOf(Collection<TopicPartition> partitions) {
		if (partitions instanceof PartitionSet set) {
			return set;
		}
		if (partitions.isEmpty()) {
			return EMPTY;
		}
		TopicPartition[] elements = new TopicPartition[partitions.size()];
		int[] slots = slots(elements.length);
		int size = 0;
		for (TopicPartition tp : partitions) {
			Objects.requireNonNull(tp, "partition");
			int slot = slot(slots, elements, tp);
			if (slots[slot] == 0) {
				elements[size] = tp;
				slots[slot] = ++size;
			}
		}
		return new PartitionSet((size == elements.length) ? elements : Arrays.copyOf(elements, size), slots);
	}

	private static int[] slots(int size) {
		return new int[Integer.highestOneBit(Math.max(1, size) * 2 - 1) << 1];
	}

	/**
	 * The slot that holds a partition, or the free slot where it would go.
	 */
	private static int slot(int[] slots, TopicPartition[] elements, TopicPartition tp) {
		int mask = slots.length - 1;
		int slot = hash(tp) & mask;
		while (slots[slot] != 0 && !elements[slots[slot] - 1].equals(tp)) {
			slot = (slot + 1) & mask;
		}
		return slot;
	}

	private static int hash(TopicPartition tp) {
		long h = tp.topic().hashCode() * 0x9E3779B97F4A7C15L + tp.partition();
		h = (h ^ (h >>> 33)) * 0xFF51AFD7ED558CCDL;
		return (int) (h ^ (h >>> 33));
	}

	@Override
	public boolean contains(@Nullable Object candidate) {
		int[] slots = this.slots;
		if (slots == null) {
			slots = slots(this.elements.length);
			for (int i = 0; i < this.elements.length; i++) {
				slots[slot(slots, this.elements, this.elements[i])] = i + 1;
			}
			this.slots = slots;
		}
		return candidate instanceof TopicPartition tp && slots[slot(slots, this.elements, tp)] != 0;
	}

	@Override
	public int size() {
		return this.elements.length;
	}

	@Override
	public Iterator<TopicPartition> iterator() {
		return new Iterator<>() {

			private int next;

			@Override
			public boolean hasNext() {
				return this.next < PartitionSet.this.elements.length;
			}

			@Override
			public TopicPartition next() {
				if (!hasNext()) {
					throw new NoSuchElementException();
				}
				return PartitionSet.this.elements[this.next++];
			}

		};
	}

}
