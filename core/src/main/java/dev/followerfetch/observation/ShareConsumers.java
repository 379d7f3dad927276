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
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.common.TopicPartition;

/**
 * The share consumers (KIP-932) of the process, found in JMX by client id. A share
 * group's ShareFetch request carries no rack and gets no preferred read replica, so a
 * share consumer reads every partition assigned to it from the partition's leader,
 * whatever its configuration: it is observed as a FRESHNESS consumer whose every read
 * goes to the leader, never judged for a locality it cannot have, and its bytes are
 * attributed to the brokers' racks as any consumer's are.
 *
 * @author follower-fetch authors
 */
final class ShareConsumers {

	static final String SHARE_GROUP = "shareGroup";

	private static final int LEADER = -1;

	private ShareConsumers() {
	}

	/**
	 * A share consumer found in JMX, before its share group is known.
	 * @param client what the client reports: its bytes per broker
	 * @return the consumer, with no partitions yet
	 */
	static Subject found(ClientMetrics client) {
		ObservedConsumer consumer = new ObservedConsumer(ConsumerKind.SHARE, client.clientId(), Policy.FRESHNESS,
				Map.of(), List.of(), Map::of, Map.of());
		return new Subject(consumer, true, List.of(), List.of(client));
	}

	/**
	 * A share consumer with the partitions its share group assigns it, each read from its
	 * leader.
	 * @param share a share consumer {@link #found(ClientMetrics) found}
	 * @param view the cluster's facts, with the share group membership
	 * @return the consumer with its partitions and share group, or as it was when the
	 * brokers did not describe its membership
	 */
	static Subject assigned(Subject share, ClusterView view) {
		ClusterView.ShareMember member = view.shareMembers().get(share.consumer().name());
		if (member == null) {
			return share;
		}
		Set<TopicPartition> partitions = member.partitions();
		Map<TopicPartition, Integer> fromLeaders = new HashMap<>();
		partitions.forEach((tp) -> fromLeaders.put(tp, LEADER));
		List<ClientMetrics> clients = share.clients()
			.stream()
			.map((client) -> new ClientMetrics(client.clientId(), fromLeaders, partitions, client.received()))
			.toList();
		String groups = String.join(",", member.groups());
		Subject withGroup = share.withDetail(SHARE_GROUP, groups);
		return new Subject(withGroup.consumer(), true, partitions, clients);
	}

}
