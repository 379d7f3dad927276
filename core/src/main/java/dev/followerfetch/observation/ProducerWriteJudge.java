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

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.observation.ClusterView.Placement;
import dev.followerfetch.observation.ProducerMetricsReader.ProducerClient;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Judges where a producer factory's producers write, from their own counters and the
 * cluster's view. Byte totals are kept monotonic across producer restarts by
 * {@link ZoneBytes}, fed with the bytes sent to each broker.
 *
 * @author follower-fetch authors
 */
final class ProducerWriteJudge {

	private final ZoneBytes<String> sentBytes = new ZoneBytes<>();

	ProducerWrites judge(ObservedProducer producer, ClusterView view, @Nullable String rack) {
		ZoneBytes.Totals totals = this.sentBytes.count(producer.name(),
				producer.clients().stream().map(ProducerClient::asClientMetrics).toList(), view, rack);
		Set<String> topics = producer.topics();
		List<String> clientIds = producer.clients().stream().map(ProducerClient::clientId).toList();
		int partitions = 0;
		int ledHere = 0;
		for (Map.Entry<TopicPartition, Placement> entry : view.partitions().entrySet()) {
			if (topics.contains(entry.getKey().topic())) {
				partitions++;
				if (rack != null && rack.equals(view.rackOf(entry.getValue().leader()))) {
					ledHere++;
				}
			}
		}
		return new ProducerWrites(producer.name(), clientIds, producer.rackAware(), totals.local(), totals.remote(),
				List.copyOf(topics), partitions, producer.rackAware() ? ledHere : partitions, producer.topicsNotListed());
	}

	/**
	 * Forget the producer factories not listed any more, so that their totals do not
	 * outlive them.
	 * @param listed the names of the factories listed now
	 */
	void retain(Set<String> listed) {
		this.sentBytes.retain(listed);
	}

	/**
	 * Whether one producer factory's totals are kept: it was counted and is still listed.
	 * @param producer the producer factory's name
	 * @return {@code true} when its totals are kept
	 */
	boolean counts(String producer) {
		return this.sentBytes.counts(producer);
	}

	double total(String producer, boolean local) {
		return this.sentBytes.total(producer, local);
	}

}
