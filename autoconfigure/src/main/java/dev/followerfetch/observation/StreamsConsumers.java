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
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.application.StreamsApplications;
import dev.followerfetch.application.StreamsApplications.StreamsApplication;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * The Kafka Streams applications of every {@link StreamsBuilderFactoryBean}, one
 * observed group each, named by application id: the partitions of its active tasks and
 * global tables, and the bytes of its main, restore and global consumers, from
 * {@link KafkaStreams#metrics()}. An application that is not running (created, stopped,
 * failed) shows nothing.
 *
 * @author follower-fetch authors
 */
final class StreamsConsumers implements ObservedConsumers {

	private static final String CLIENT_ID = "client-id";

	private static final String GLOBAL_CONSUMER = "-global-consumer";

	private final ListableBeanFactory beanFactory;

	private final ObjectProvider<StreamsApplications> applications;

	StreamsConsumers(ListableBeanFactory beanFactory, ObjectProvider<StreamsApplications> applications) {
		this.beanFactory = beanFactory;
		this.applications = applications;
	}

	@Override
	public Collection<ObservedConsumer> find() {
		List<ObservedConsumer> found = new ArrayList<>();
		StreamsApplications decided = this.applications.getIfAvailable();
		this.beanFactory.getBeansOfType(StreamsBuilderFactoryBean.class, false, false).values().forEach((factory) -> {
			KafkaStreams streams = factory.getKafkaStreams();
			Properties properties = factory.getStreamsConfiguration();
			Object applicationId = (properties != null) ? properties.get(StreamsConfig.APPLICATION_ID_CONFIG) : null;
			if (streams == null || properties == null || applicationId == null || !running(streams)) {
				return;
			}
			StreamsApplication application = (decided != null) ? decided.get(applicationId.toString()).orElse(null)
					: null;
			Map<String, Object> config = new HashMap<>();
			properties.forEach((name, value) -> config.put(name.toString(), value));
			Policy policy = (application != null) ? application.policy().policy() : Policy.LOCALITY;
			Map<String, Map<MetricName, ? extends Metric>> metrics = metrics(streams);
			found.add(new ObservedConsumer(ConsumerKind.STREAMS, applicationId.toString(), policy, config,
					assigned(streams, metrics), () -> metrics(streams),
					(application != null) ? details(application) : Map.of()));
		});
		return found;
	}

	private static Map<String, Object> details(StreamsApplication application) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put(ReadLocalityJudge.CLIENT_RACK, application.clientRacks());
		details.put("rackAwareAssignmentStrategy", application.rackAwareAssignmentStrategy());
		return details;
	}

	/**
	 * The partitions of the application's active tasks and of its global tables. The
	 * restore consumer's partitions are left out: Kafka Streams stops polling it once a
	 * store is restored, so its read-replica gauges outlive the restoration.
	 */
	private static Collection<TopicPartition> assigned(KafkaStreams streams,
			Map<String, Map<MetricName, ? extends Metric>> metrics) {
		Set<TopicPartition> assigned = new HashSet<>();
		try {
			streams.metadataForLocalThreads()
				.forEach((thread) -> thread.activeTasks().forEach((task) -> assigned.addAll(task.topicPartitions())));
		}
		catch (RuntimeException ex) {
			return List.of();
		}
		metrics.forEach((clientId, clientMetrics) -> {
			if (clientId.endsWith(GLOBAL_CONSUMER)) {
				clientMetrics.keySet()
					.stream()
					.filter((name) -> name.name().equals("preferred-read-replica"))
					.forEach((name) -> assigned.add(new TopicPartition(name.tags().get("topic"),
							Integer.parseInt(name.tags().get("partition")))));
			}
		});
		return assigned;
	}

	private static boolean running(KafkaStreams streams) {
		try {
			return streams.state().isRunningOrRebalancing();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * The client metrics of a Kafka Streams application by client id: its main, restore
	 * and global consumers, producers and admin client. Nothing once it stopped running.
	 * @param streams a Kafka Streams application
	 * @return the metrics by client id
	 */
	static Map<String, Map<MetricName, ? extends Metric>> metrics(KafkaStreams streams) {
		if (!running(streams)) {
			return Map.of();
		}
		Map<String, Map<MetricName, Metric>> byClient = new HashMap<>();
		try {
			streams.metrics().forEach((name, metric) -> {
				String clientId = name.tags().get(CLIENT_ID);
				if (clientId != null) {
					byClient.computeIfAbsent(clientId, (key) -> new HashMap<>()).put(name, metric);
				}
			});
		}
		catch (RuntimeException ex) {
			return Map.of();
		}
		return new HashMap<>(byClient);
	}

}
