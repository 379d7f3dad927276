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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.followerfetch.observation.ClientMetrics.NodeTotal;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Reads what a producer client reports about its writes: the bytes it sent to each broker
 * ({@code producer-node-metrics} {@code outgoing-byte-total}: produce requests with their
 * record batches, and metadata and other requests to that broker; bootstrap connections
 * left out) and the topics it has sent records to ({@code producer-topic-metrics}
 * {@code record-send-total}).
 *
 * @author follower-fetch authors
 */
final class ProducerMetricsReader {

	private static final String NODE_GROUP = "producer-node-metrics";

	private static final String TOPIC_GROUP = "producer-topic-metrics";

	private ProducerMetricsReader() {
	}

	static ProducerClient read(Map<MetricName, ? extends Metric> metrics) {
		String clientId = null;
		List<NodeTotal> sent = new ArrayList<>();
		Map<String, Double> topics = new TreeMap<>();
		for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet()) {
			MetricName name = entry.getKey();
			if (clientId == null) {
				clientId = name.tags().get("client-id");
			}
			if (NODE_GROUP.equals(name.group()) && "outgoing-byte-total".equals(name.name())
					&& entry.getValue().metricValue() instanceof Number total) {
				NodeIds.brokerId(name.tags().get("node-id"))
					.ifPresent((brokerId) -> sent.add(new NodeTotal(brokerId, total.doubleValue(), entry.getValue())));
			}
			else if (TOPIC_GROUP.equals(name.group()) && "record-send-total".equals(name.name())
					&& name.tags().get("topic") != null && entry.getValue().metricValue() instanceof Number records
					&& records.doubleValue() > 0) {
				topics.merge(name.tags().get("topic"), records.doubleValue(), Double::sum);
			}
		}
		return new ProducerClient((clientId != null) ? clientId : "unknown", sent, topics);
	}

	/**
	 * One producer client's writes.
	 *
	 * @param clientId the client id
	 * @param sent bytes sent to each broker since the client started
	 * @param topicRecords the records it has sent to each topic, for the topics it has
	 * sent records to
	 */
	record ProducerClient(String clientId, List<NodeTotal> sent, Map<String, Double> topicRecords) {

		/**
		 * The topics it has sent records to.
		 * @return the topics
		 */
		Set<String> topics() {
			return this.topicRecords.keySet();
		}

		ClientMetrics asClientMetrics() {
			return new ClientMetrics(this.clientId, Map.of(), Set.of(), this.sent);
		}

	}

}
