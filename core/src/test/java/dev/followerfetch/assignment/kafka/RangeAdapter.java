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

import dev.followerfetch.assignment.kafka.StarterGroup.Claim;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * What Kafka's {@code RangeAssignorTest} holds as its assignor: the zone-aware assignor
 * with the range one after it (Kafka's default list), leading a {@link StarterGroup}.
 *
 * @author follower-fetch authors
 */
final class RangeAdapter extends RangeAssignor implements LeadsGroup {

	private final StarterGroup group = new StarterGroup(RangeAssignor.class, RangeAssignor::new);

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
		return this.group.rebalance(this, partitionsPerTopic, subscriptions, Claim::of, false).assignment();
	}

}
