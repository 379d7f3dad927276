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
package dev.followerfetch.assignment.kafka;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.kafka.StarterGroup.Claim;
import dev.followerfetch.assignment.kafka.StarterGroup.Rebalance;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * What Kafka's {@code CooperativeStickyAssignorTest} holds as its assignor: the
 * zone-aware assignor with the cooperative sticky one after it, leading a
 * {@link StarterGroup}. Only its decoder of user data is the Kafka assignor's own;
 * {@code partitionsTransferringOwnership} and {@code isSticky()} are read off the
 * assignment by Kafka's definitions.
 *
 * @author follower-fetch authors
 */
final class CooperativeStickyAdapter extends CooperativeStickyAssignor implements LeadsGroup {

	private final StarterGroup group = new StarterGroup(CooperativeStickyAssignor.class,
			CooperativeStickyAssignor::new);

	private boolean sticky = true;

	@Override
	public StarterGroup group() {
		return this.group;
	}

	@Override
	public String name() {
		return this.group.leader().name();
	}

	@Override
	public List<RebalanceProtocol> supportedProtocols() {
		return this.group.leader().supportedProtocols();
	}

	@Override
	public @Nullable ByteBuffer subscriptionUserData(Set<String> topics) {
		return this.group.userData(topics, super.subscriptionUserData(topics));
	}

	@Override
	public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
		this.group.leader().onAssignment(assignment, metadata);
		super.onAssignment(assignment, metadata);
	}

	@Override
	public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
		Map<String, Subscription> subscriptions = groupSubscription.groupSubscription();
		return StarterGroup.groupAssignment(assignPartitions(StarterGroup.partitionsPerTopic(metadata, subscriptions),
				subscriptions));
	}

	@Override
	public Map<String, List<TopicPartition>> assign(Map<String, Integer> partitionsPerTopic,
			Map<String, Subscription> subscriptions) {
		return assignPartitions(StarterGroup.withoutLeaders(partitionsPerTopic), subscriptions);
	}

	@Override
	public Map<String, List<TopicPartition>> assignPartitions(Map<String, List<PartitionInfo>> partitionsPerTopic,
			Map<String, Subscription> subscriptions) {
		Rebalance rebalance = this.group.rebalance(this, partitionsPerTopic, subscriptions, this::claim, true);
		this.partitionsTransferringOwnership = rebalance.transferring();
		this.sticky = rebalance.sticky();
		return rebalance.assignment();
	}

	@Override
	public boolean isSticky() {
		return this.sticky;
	}

	/**
	 * Kafka's decoder, on the wrapped strategy's user data inside the zone-aware
	 * assignor's, as the zone-aware assignor hands it to the strategy it wraps.
	 */
	@Override
	protected MemberData memberData(Subscription subscription) {
		Subscription unwrapped = new Subscription(subscription.topics(),
				ZoneAwareAssignor.wrappedUserData(subscription.userData()), subscription.ownedPartitions(),
				subscription.generationId().orElse(StarterGroup.DEFAULT_GENERATION), subscription.rackId());
		return super.memberData(unwrapped);
	}

	private Claim claim(Subscription subscription) {
		MemberData data = memberData(subscription);
		return new Claim(data.partitions, data.generation.orElse(StarterGroup.DEFAULT_GENERATION));
	}

}
