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

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import dev.followerfetch.observation.ClientMetrics.NodeTotal;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Reads what Kafka consumer clients report about their reads: from the {@code Metric}
 * maps of the consumers a source knows (listener containers, Streams applications,
 * bindings), or from JMX, where every consumer of the process registers its metrics under
 * its client id whoever built it. Share consumers (KIP-932) register their per-broker
 * bytes under the same types, and a {@code consumer-share-*} type besides: they are told
 * apart by that type.
 *
 * @author follower-fetch authors
 */
final class ConsumerMetricsReader {

	static final String DOMAIN = "kafka.consumer";

	private static final String FETCH_GROUP = "consumer-fetch-manager-metrics";

	private static final String NODE_GROUP = "consumer-node-metrics";

	private static final String COORDINATOR_GROUP = "consumer-coordinator-metrics";

	private static final String REBALANCES = "rebalance-total";

	private static final String SHARE_GROUP_PREFIX = "consumer-share";

	private static final String READ_REPLICA = "preferred-read-replica";

	private static final String RECORDS_LAG = "records-lag";

	private static final String INCOMING_BYTES = "incoming-byte-total";

	private static final String[] FETCH_ATTRIBUTES = { READ_REPLICA, RECORDS_LAG };

	private final Supplier<MBeanServer> server;

	ConsumerMetricsReader() {
		this(ManagementFactory::getPlatformMBeanServer);
	}

	ConsumerMetricsReader(Supplier<MBeanServer> server) {
		this.server = server;
	}

	/**
	 * Read the metrics of the clients a source knows.
	 * @param metrics client metrics by client id, as
	 * {@code MessageListenerContainer.metrics()} gives them
	 * @return what each client reports, by client id
	 */
	static Map<String, ClientMetrics> fromMetrics(Map<String, ? extends Map<MetricName, ? extends Metric>> metrics) {
		Map<String, Builder> clients = new LinkedHashMap<>();
		metrics.forEach((key, clientMetrics) -> clientMetrics.forEach((name, metric) -> {
			String clientId = name.tags().getOrDefault("client-id", key);
			Builder client = clients.computeIfAbsent(clientId, (id) -> new Builder());
			if (name.group().equals(FETCH_GROUP) && isFetchAttribute(name.name())) {
				TopicPartition tp = partition(name.tags().get("topic"), name.tags().get("partition"));
				if (tp != null) {
					client.fetchMetric(tp, name.name(), metric.metricValue());
				}
			}
			else if (name.group().equals(NODE_GROUP) && name.name().equals(INCOMING_BYTES)) {
				client.nodeTotal(name.tags().get("node-id"), metric.metricValue(), metric);
			}
			else if (name.group().equals(COORDINATOR_GROUP) && name.name().equals(REBALANCES)) {
				client.rebalances(metric.metricValue());
			}
		}));
		Map<String, ClientMetrics> built = new LinkedHashMap<>();
		clients.forEach((clientId, client) -> built.put(clientId, client.build(clientId)));
		return built;
	}

	/**
	 * Read every consumer client the process registered in JMX, the metrics only of those
	 * not already known: a known client's per-partition metrics are many, and its source
	 * gives them without JMX.
	 * @param known client ids whose metrics are not read
	 * @return the clients found, or why none could be read
	 */
	JmxConsumers fromJmx(Set<String> known) {
		MBeanServer server;
		Set<ObjectName> names;
		try {
			server = this.server.get();
			names = server.queryNames(new ObjectName(DOMAIN + ":*"), null);
		}
		catch (JMException | RuntimeException | Error ex) {
			return new JmxConsumers(Map.of(), Map.of(), Set.of(), ClusterInspector.describe(ex));
		}
		Map<String, Builder> clients = new HashMap<>();
		Map<String, Object> startTimes = new HashMap<>();
		Set<String> share = new HashSet<>();
		Set<String> all = new TreeSet<>();
		for (ObjectName name : names) {
			String type = name.getKeyProperty("type");
			String clientId = unquote(name.getKeyProperty(type != null && type.equals("app-info") ? "id" : "client-id"));
			if (type == null || clientId == null) {
				continue;
			}
			all.add(clientId);
			if (known.contains(clientId)) {
				continue;
			}
			try {
				if (type.startsWith(SHARE_GROUP_PREFIX)) {
					share.add(clientId);
				}
				else if (type.equals("app-info")) {
					startTimes.put(clientId, server.getAttribute(name, "start-time-ms"));
				}
				else if (type.equals(FETCH_GROUP)) {
					TopicPartition tp = partition(unquote(name.getKeyProperty("topic")),
							unquote(name.getKeyProperty("partition")));
					if (tp != null) {
						Builder client = clients.computeIfAbsent(clientId, (id) -> new Builder());
						for (Object attribute : server.getAttributes(name, present(server, name))) {
							Attribute value = (Attribute) attribute;
							client.fetchMetric(tp, value.getName(), value.getValue());
						}
					}
				}
				else if (type.equals(NODE_GROUP)) {
					Builder client = clients.computeIfAbsent(clientId, (id) -> new Builder());
					client.nodeTotal(unquote(name.getKeyProperty("node-id")),
							server.getAttribute(name, INCOMING_BYTES), null);
				}
				else if (type.equals(COORDINATOR_GROUP)) {
					clients.computeIfAbsent(clientId, (id) -> new Builder())
						.rebalances(server.getAttribute(name, REBALANCES));
				}
			}
			catch (JMException | RuntimeException ex) {
				// unregistered meanwhile (the consumer closed), or not readable: skip it
			}
		}
		Map<String, ClientMetrics> built = new LinkedHashMap<>();
		Map<String, ClientMetrics> shares = new LinkedHashMap<>();
		share.forEach((clientId) -> clients.computeIfAbsent(clientId, (id) -> new Builder()));
		clients.keySet()
			.stream()
			.sorted()
			.forEach((clientId) -> (share.contains(clientId) ? shares : built).put(clientId,
					Objects.requireNonNull(clients.get(clientId)).counter(startTimes.get(clientId)).build(clientId)));
		return new JmxConsumers(built, shares, all, null);
	}

	private static boolean isFetchAttribute(String name) {
		return name.equals(READ_REPLICA) || name.equals(RECORDS_LAG);
	}

	/**
	 * The fetch attributes an MBean has: asking Kafka's JMX reporter for one it lacks
	 * ({@code records-lag} before the first fetch answer) logs a warning.
	 */
	private static String[] present(MBeanServer server, ObjectName name) throws JMException {
		Set<String> present = new HashSet<>();
		for (MBeanAttributeInfo attribute : server.getMBeanInfo(name).getAttributes()) {
			present.add(attribute.getName());
		}
		return Arrays.stream(FETCH_ATTRIBUTES).filter(present::contains).toArray(String[]::new);
	}

	private static @Nullable String unquote(@Nullable String value) {
		if (value != null && value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
			try {
				return ObjectName.unquote(value);
			}
			catch (IllegalArgumentException ex) {
				return value;
			}
		}
		return value;
	}

	private static @Nullable TopicPartition partition(@Nullable String topic, @Nullable String partition) {
		if (topic == null || partition == null) {
			return null;
		}
		try {
			return new TopicPartition(topic, Integer.parseInt(partition));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * What JMX holds of the process's consumers.
	 *
	 * @param clients what each consumer client (share consumers left out) reports, by
	 * client id
	 * @param shares what each share consumer client reports (its bytes per broker), by
	 * client id
	 * @param clientIds every client id with metrics in the {@code kafka.consumer} domain
	 * @param failure why JMX could not be read, or {@code null}
	 */
	record JmxConsumers(Map<String, ClientMetrics> clients, Map<String, ClientMetrics> shares, Set<String> clientIds,
			@Nullable String failure) {

	}

	private static final class Builder {

		private final Map<TopicPartition, Integer> readReplicas = new HashMap<>();

		private final Set<TopicPartition> answered = new HashSet<>();

		private final List<NodeTotal> received = new ArrayList<>();

		private @Nullable Object counter;

		private long rebalances = -1;

		void fetchMetric(TopicPartition tp, String name, Object value) {
			if (name.equals(READ_REPLICA) && value instanceof Number replica) {
				this.readReplicas.put(tp, replica.intValue());
			}
			else if (name.equals(RECORDS_LAG) && value != null) {
				this.answered.add(tp);
			}
		}

		void nodeTotal(@Nullable String node, @Nullable Object value, @Nullable Object counter) {
			if (value instanceof Number total) {
				NodeIds.brokerId(node)
					.ifPresent((brokerId) -> this.received.add(new NodeTotal(brokerId, total.doubleValue(), counter)));
			}
		}

		void rebalances(@Nullable Object value) {
			if (value instanceof Number total) {
				this.rebalances = total.longValue();
			}
		}

		Builder counter(@Nullable Object startTime) {
			this.counter = startTime;
			return this;
		}

		ClientMetrics build(String clientId) {
			Set<TopicPartition> twins = new HashSet<>();
			this.readReplicas.keySet().forEach((tp) -> {
				if (tp.topic().contains(".")) {
					twins.add(new TopicPartition(tp.topic().replace('.', '_'), tp.partition()));
				}
			});
			this.readReplicas.keySet().removeAll(twins);
			this.answered.removeAll(twins);
			List<NodeTotal> received = (this.counter != null) ? this.received.stream()
				.map((total) -> new NodeTotal(total.brokerId(), total.total(), this.counter))
				.toList() : this.received;
			return new ClientMetrics(clientId, this.readReplicas, this.answered, received, this.rebalances);
		}

	}

}
