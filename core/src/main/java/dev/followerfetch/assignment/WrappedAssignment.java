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
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.IntPredicate;

import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignment.Partition;
import org.apache.kafka.common.TopicPartition;

/**
 * What the wrapped strategy assigned, made an assignment every member can take: each
 * partition of the metadata once, only to a member subscribed to its topic, and none left
 * to nobody unless a member still owns it (the cooperative protocol's hand-over). Kafka's
 * sticky assignors give partitions to a member subscribed to nothing when its
 * subscription is the first they read (4.1 judges every subscription equal then), and
 * that member can only ignore them and rejoin; here they go to the subscriber of their
 * topic with the fewest partitions. An assignment that needs nothing of this comes back
 * as it is.
 *
 * @param assignment the partitions of each member, every member present
 * @param repairs what was changed, by kind, each with how many partitions; empty when
 * nothing was
 * @author follower-fetch authors
 */
record WrappedAssignment(Map<String, List<TopicPartition>> assignment, Map<String, Integer> repairs) {

	/**
	 * Make the wrapped strategy's assignment one every member can take.
	 * @param wrapped what the wrapped strategy assigned, by member id
	 * @param members the group's members, their owned partitions those of the metadata
	 * @param partitions the partitions of the subscribed topics, as the metadata has them
	 * @return the assignment
	 */
	static WrappedAssignment of(Map<String, ? extends Collection<TopicPartition>> wrapped, Collection<Member> members,
			Collection<Partition> partitions) {
		return of(wrapped, members, partitions, new PartitionIndex(partitions));
	}

	/**
	 * Make the wrapped strategy's assignment one every member can take, the partitions of
	 * the metadata known.
	 * @param wrapped what the wrapped strategy assigned, by member id
	 * @param members the group's members, their owned partitions those of the metadata
	 * @param partitions the partitions of the subscribed topics, as the metadata has them
	 * @param index those partitions, by topic
	 * @return the assignment
	 */
	static WrappedAssignment of(Map<String, ? extends Collection<TopicPartition>> wrapped, Collection<Member> members,
			Collection<Partition> partitions, PartitionIndex index) {
		Map<String, Member> byId = new TreeMap<>();
		members.forEach((member) -> byId.put(member.id(), member));
		Map<String, Integer> repairs = new LinkedHashMap<>();
		Map<String, List<TopicPartition>> assignment = new TreeMap<>();
		// the member each partition went to, by topic number and partition: no second look-up of the topic
		String[][] given = new String[index.topics()][];
		int givenCount = 0;
		List<TopicPartition> homeless = new ArrayList<>();
		for (Member member : byId.values()) {
			Collection<TopicPartition> theirs = wrapped.get(member.id());
			List<TopicPartition> kept = new ArrayList<>((theirs != null) ? theirs.size() : 0);
			IntPredicate subscribed = index.subscribed(member.topics());
			boolean changed = false;
			for (TopicPartition tp : (theirs != null) ? theirs : List.<TopicPartition>of()) {
				int topic = index.topic(tp);
				String[] ofTopic = (topic >= 0) ? given[topic] : null;
				if (topic >= 0 && ofTopic == null) {
					ofTopic = new String[index.span(topic)];
					given[topic] = ofTopic;
				}
				if (ofTopic == null) {
					repairs.merge("not in the metadata", 1, Integer::sum);
					changed = true;
				}
				else if (ofTopic[tp.partition()] != null) {
					repairs.merge("given twice", 1, Integer::sum);
					changed = true;
				}
				else {
					ofTopic[tp.partition()] = member.id();
					givenCount++;
					if (subscribed.test(topic)) {
						kept.add(tp);
					}
					else {
						repairs.merge("given to a member not subscribed to its topic", 1, Integer::sum);
						homeless.add(tp);
						changed = true;
					}
				}
			}
			assignment.put(member.id(), (changed || theirs == null) ? kept : List.copyOf(theirs));
		}
		if (givenCount < index.size()) {
			PartitionTable<Boolean> owned = new PartitionTable<>();
			members.forEach((member) -> member.owned().forEach((tp) -> {
				if (index.contains(tp)) {
					owned.put(tp, Boolean.TRUE);
				}
			}));
			for (Partition partition : partitions) {
				TopicPartition tp = partition.partition();
				String[] ofTopic = given[index.topic(tp)];
				if ((ofTopic == null || ofTopic[tp.partition()] == null) && owned.get(tp) == null) {
					repairs.merge("left to nobody", 1, Integer::sum);
					homeless.add(tp);
				}
			}
		}
		if (!homeless.isEmpty()) {
			place(homeless, byId.values(), assignment, repairs);
		}
		return new WrappedAssignment(assignment, repairs);
	}

	/**
	 * Each partition to the subscriber of its topic with the fewest partitions, the first
	 * in member id order among equals; a partition of a topic no member subscribes to
	 * stays unassigned, as Kafka's assignors leave it.
	 */
	private static void place(List<TopicPartition> homeless, Collection<Member> members,
			Map<String, List<TopicPartition>> assignment, Map<String, Integer> repairs) {
		Map<String, List<TopicPartition>> byTopic = new TreeMap<>();
		homeless.forEach((tp) -> byTopic.computeIfAbsent(tp.topic(), (topic) -> new ArrayList<>()).add(tp));
		Map<String, List<TopicPartition>> writable = new HashMap<>();
		byTopic.forEach((topic, ofTopic) -> {
			PriorityQueue<String> subscribers = new PriorityQueue<>((a, b) -> {
				int bySize = Integer.compare(size(assignment, a), size(assignment, b));
				return (bySize != 0) ? bySize : a.compareTo(b);
			});
			members.stream().filter((member) -> member.topics().contains(topic)).map(Member::id).forEach(subscribers::add);
			for (TopicPartition tp : ofTopic) {
				String to = subscribers.poll();
				if (to == null) {
					repairs.merge("of a topic nobody subscribes to", 1, Integer::sum);
					continue;
				}
				writable.computeIfAbsent(to, (id) -> {
					List<TopicPartition> copy = new ArrayList<>(assignment.getOrDefault(id, List.of()));
					assignment.put(id, copy);
					return copy;
				}).add(tp);
				subscribers.add(to);
			}
		});
	}

	private static int size(Map<String, List<TopicPartition>> assignment, String member) {
		return assignment.getOrDefault(member, List.of()).size();
	}

	/**
	 * What was changed, for a log line.
	 * @return the kinds of change with their counts, or an empty string
	 */
	String describe() {
		StringBuilder text = new StringBuilder();
		this.repairs.forEach((kind, count) -> text.append((text.length() > 0) ? ", " : "")
			.append(count)
			.append((count == 1) ? " partition " : " partitions ")
			.append(kind));
		return text.toString();
	}

}
