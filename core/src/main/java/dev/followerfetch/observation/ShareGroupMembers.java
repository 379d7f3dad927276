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

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeShareGroupsOptions;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListGroupsResult;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.admin.ShareMemberDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Reads which share group each share consumer is a member of, and its assignment, with
 * the Admin calls of KIP-932 (Kafka 4.0+): only loaded when the application has share
 * consumers, so the core runs on older clients too.
 *
 * @author follower-fetch authors
 */
final class ShareGroupMembers {

	private final ShareGroupSearch shareSearch = new ShareGroupSearch();

	private @Nullable Set<String> localAddresses;

	/**
	 * The share group membership of some share consumers: the groups where they were
	 * found before, and every share group the cluster lists when one of them is not found
	 * yet ({@link ShareGroupSearch}). Groups the cluster cannot list or describe now leave
	 * the membership unknown this refresh.
	 */
	Map<String, ClusterView.ShareMember> read(Admin client, Set<String> clientIds, int millis)
			throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		ShareGroupSearch.Plan plan = this.shareSearch.plan(clientIds, System.nanoTime());
		Set<String> groupIds = new TreeSet<>(plan.groups());
		boolean everyGroup = plan.everyGroup();
		if (everyGroup) {
			try {
				ListGroupsResult listed = client.listGroups(ListGroupsOptions.forShareGroups().timeoutMs(millis));
				listed.valid()
					.get(millis, TimeUnit.MILLISECONDS)
					.forEach((listing) -> groupIds.add(listing.groupId()));
				// a broker that did not answer may hold the group sought: not a complete search
				everyGroup = listed.errors().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
					.isEmpty();
			}
			catch (ExecutionException | TimeoutException ex) {
				// a broker before 4.0 (ListGroups without types), or no answer
				everyGroup = false;
			}
		}
		Map<String, ClusterView.ShareMember> members = new TreeMap<>();
		Map<String, String> foundIn = new HashMap<>();
		if (!groupIds.isEmpty()) {
			Map<String, KafkaFuture<ShareGroupDescription>> described = client
				.describeShareGroups(groupIds, new DescribeShareGroupsOptions().timeoutMs(millis))
				.describedGroups();
			for (KafkaFuture<ShareGroupDescription> future : described.values()) {
				try {
					ShareGroupDescription group = future.get(Math.max(0, deadline - System.nanoTime()),
							TimeUnit.NANOSECONDS);
					Map<String, List<ShareMemberDescription>> byClientId = group.members()
						.stream()
						.filter((member) -> clientIds.contains(member.clientId()))
						.collect(Collectors.groupingBy(ShareMemberDescription::clientId));
					byClientId.forEach((clientId, candidates) -> {
						foundIn.putIfAbsent(clientId, group.groupId());
						ShareGroupSearch.own(candidates, ShareMemberDescription::host, localAddresses())
							.ifPresent((member) -> members.merge(clientId,
									new ClusterView.ShareMember(Set.of(group.groupId()),
											member.assignment().topicPartitions()),
									ShareGroupMembers::bothGroups));
					});
				}
				catch (ExecutionException | TimeoutException ex) {
					// that group is unknown this refresh
				}
			}
		}
		this.shareSearch.found(clientIds, foundIn, everyGroup, System.nanoTime());
		return members;
	}

	private Set<String> localAddresses() {
		Set<String> addresses = this.localAddresses;
		if (addresses == null) {
			addresses = ShareGroupSearch.localAddresses();
			this.localAddresses = addresses;
		}
		return addresses;
	}

	/**
	 * One client id in two share groups (two consumers given the same {@code client.id}).
	 */
	private static ClusterView.ShareMember bothGroups(ClusterView.ShareMember first, ClusterView.ShareMember second) {
		Set<String> groups = new TreeSet<>(first.groups());
		groups.addAll(second.groups());
		Set<TopicPartition> partitions = new HashSet<>(first.partitions());
		partitions.addAll(second.partitions());
		return new ClusterView.ShareMember(groups, partitions);
	}

}
