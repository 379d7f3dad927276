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
package dev.followerfetch.observation;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * What the brokers said in one refresh: their racks, whether they run a rack-aware
 * replica selector, and where each partition's replicas are.
 *
 * @param brokerRacks rack by broker id; a broker without a rack maps to {@code null}; a
 * broker that is down but still holds replicas of the partitions asked about maps to the
 * rack it last had
 * @param selectors rack-awareness of the replica selector of each broker that said
 * @param selectorProblem why some or all selectors could not be read (other than the
 * brokers being unreachable), or {@code null}
 * @param partitions placement of the partitions asked about
 * @param topicProblems why a topic asked about has no placement, by topic name
 * @param unreachable brokers this application could not reach in this refresh, with why:
 * asked for their configuration directly, they did not answer in time or the connection
 * failed
 * @param groups how each consumer group asked about is assigned, by group id; a group
 * the brokers did not describe is missing
 * @param shareMembers the share group membership of each share consumer asked about, by
 * client id; one the brokers did not describe is missing
 * @author follower-fetch authors
 */
record ClusterView(Map<Integer, String> brokerRacks, Map<Integer, Selector> selectors, @Nullable String selectorProblem,
		Map<TopicPartition, Placement> partitions, Map<String, String> topicProblems,
		Map<Integer, String> unreachable, Map<String, GroupAssignor> groups, Map<String, ShareMember> shareMembers) {

	/**
	 * Nothing known yet.
	 */
	static final ClusterView UNKNOWN = new ClusterView(Map.of(), Map.of(), null, Map.of(), Map.of());

	ClusterView {
		unreachable = Map.copyOf(unreachable);
		groups = Map.copyOf(groups);
		shareMembers = Map.copyOf(shareMembers);
	}

	ClusterView(Map<Integer, String> brokerRacks, Map<Integer, Selector> selectors, @Nullable String selectorProblem,
			Map<TopicPartition, Placement> partitions, Map<String, String> topicProblems,
			Map<Integer, String> unreachable, Map<String, GroupAssignor> groups) {
		this(brokerRacks, selectors, selectorProblem, partitions, topicProblems, unreachable, groups, Map.of());
	}

	ClusterView(Map<Integer, String> brokerRacks, Map<Integer, Selector> selectors, @Nullable String selectorProblem,
			Map<TopicPartition, Placement> partitions, Map<String, String> topicProblems,
			Map<Integer, String> unreachable) {
		this(brokerRacks, selectors, selectorProblem, partitions, topicProblems, unreachable, Map.of());
	}

	ClusterView(Map<Integer, String> brokerRacks, Map<Integer, Selector> selectors, @Nullable String selectorProblem,
			Map<TopicPartition, Placement> partitions, Map<String, String> topicProblems) {
		this(brokerRacks, selectors, selectorProblem, partitions, topicProblems, Map.of(), Map.of());
	}

	/**
	 * This view, reused when the brokers could not be read, without the brokers found
	 * unreachable then: that is no longer known.
	 * @return the view without reachability
	 */
	ClusterView withoutReachability() {
		return new ClusterView(this.brokerRacks, this.selectors, this.selectorProblem, this.partitions,
				this.topicProblems, Map.of(), this.groups, this.shareMembers);
	}

	Set<String> racks() {
		return this.brokerRacks.values().stream().filter((rack) -> rack != null).collect(Collectors.toSet());
	}

	@Nullable String rackOf(int brokerId) {
		return this.brokerRacks.get(brokerId);
	}

	/**
	 * A broker's {@code replica.selector.class}.
	 *
	 * @param className the configured class, or {@code null} for the default
	 * @param rackAware whether it selects by rack
	 */
	record Selector(@Nullable String className, boolean rackAware) {

	}

	/**
	 * How a consumer group is assigned, as the brokers describe it.
	 *
	 * @param consumerProtocol whether the group uses the consumer group protocol
	 * (KIP-848), whose brokers assign partitions
	 * @param assignor the name of the assignor in effect: the classic protocol's chosen
	 * strategy (for example {@code range}, {@code follower-fetch-zone-aware}), or the
	 * brokers' assignor; empty while the group has no members
	 */
	record GroupAssignor(boolean consumerProtocol, String assignor) {

	}

	/**
	 * A share consumer's membership, as the brokers describe its share group.
	 *
	 * @param groups the share group's id (more than one when several consumers share the
	 * client id)
	 * @param partitions the partitions assigned to the member
	 */
	record ShareMember(Set<String> groups, Set<TopicPartition> partitions) {

		ShareMember {
			groups = Collections.unmodifiableSortedSet(new TreeSet<>(groups));
			partitions = Set.copyOf(partitions);
		}

	}

	/**
	 * Where a partition's replicas are.
	 *
	 * @param leader the leader's broker id, or -1 when there is none
	 * @param replicas every replica's broker id
	 * @param isr the in-sync replicas' broker ids
	 */
	record Placement(int leader, List<Integer> replicas, Set<Integer> isr) {

	}

}
