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

package dev.followerfetch.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import org.springframework.util.Assert;

import static org.awaitility.Awaitility.await;

/**
 * The clients a test cluster uses on itself, in-process or in containers: an Admin client
 * for topics and broker membership, and a producer for test records, each bounded by the
 * cluster's timeout.
 *
 * @author follower-fetch authors
 */
final class ClusterClients implements AutoCloseable {

	static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

	private final String bootstrapServers;

	private final Duration timeout;

	private final Admin admin;

	ClusterClients(String bootstrapServers, Duration timeout) {
		this.bootstrapServers = bootstrapServers;
		this.timeout = timeout;
		int timeoutMs = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
		this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
				AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs,
				AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(timeoutMs, 10_000)));
	}

	Admin admin() {
		return this.admin;
	}

	/**
	 * Create a topic and wait until the Admin client, and the given check of the brokers
	 * themselves, see every partition with a leader and a full ISR.
	 */
	void createTopic(String name, Map<Integer, List<Integer>> replicaAssignment, int brokers, ReadyCheck brokersReady) {
		Assert.hasText(name, "'name' must not be empty");
		Assert.notEmpty(replicaAssignment, "'replicaAssignment' must not be empty");
		Map<Integer, List<Integer>> assignment = new TreeMap<>(replicaAssignment);
		Assert.isTrue(
				assignment.keySet()
					.equals(IntStream.range(0, assignment.size()).boxed().collect(Collectors.toSet())),
				() -> "Partitions of '" + name + "' must be numbered 0.." + (assignment.size() - 1) + ": "
						+ assignment.keySet());
		assignment.forEach((partition, replicas) -> Assert.isTrue(
				!replicas.isEmpty() && replicas.stream().distinct().count() == replicas.size()
						&& replicas.stream().allMatch((id) -> id >= 0 && id < brokers),
				() -> "Partition " + partition + " of '" + name + "' needs distinct broker ids in 0.." + (brokers - 1)
						+ ": " + replicas));
		get(this.admin.createTopics(List.of(new NewTopic(name, assignment))).all(), "create topic '" + name + "'");
		awaitReady("topic '" + name + "' ready", name, assignment, brokersReady);
	}

	/**
	 * Wait until every replica of every partition of a topic is in its ISR again.
	 */
	void awaitInSync(String topic, ReadyCheck brokersReady) {
		Map<Integer, List<Integer>> assignment = new TreeMap<>();
		describeTopic(topic).partitions()
			.forEach((partition) -> assignment.put(partition.partition(),
					partition.replicas().stream().map(Node::id).toList()));
		awaitReady("topic '" + topic + "' in sync", topic, assignment, brokersReady);
	}

	private void awaitReady(String what, String topic, Map<Integer, List<Integer>> assignment,
			ReadyCheck brokersReady) {
		await(what).atMost(this.timeout)
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> brokersReady.assertReady(topic, assignment, assertAdminSeesReady(topic, assignment)));
	}

	private List<TopicPartitionInfo> assertAdminSeesReady(String name, Map<Integer, List<Integer>> assignment)
			throws Exception {
		List<TopicPartitionInfo> partitions;
		try {
			partitions = this.admin.describeTopics(List.of(name))
				.allTopicNames()
				.get(this.timeout.toMillis(), TimeUnit.MILLISECONDS)
				.get(name)
				.partitions();
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof RetriableException) {
				throw new AssertionError("Admin cannot describe the topic yet: " + ex.getCause());
			}
			throw ex;
		}
		if (partitions.size() != assignment.size()) {
			throw new AssertionError("Admin sees " + partitions.size() + " partitions, expected " + assignment.size());
		}
		for (TopicPartitionInfo partition : partitions) {
			Set<Integer> replicas = ids(partition.replicas());
			Set<Integer> isr = ids(partition.isr());
			if (partition.leader() == null || partition.leader().isEmpty() || !isr.equals(replicas)) {
				throw new AssertionError("Admin sees partition " + partition.partition() + " with leader "
						+ ((partition.leader() != null) ? partition.leader().idString() : "none") + ", ISR " + isr
						+ ", replicas " + replicas);
			}
		}
		return partitions;
	}

	TopicDescription describeTopic(String name) {
		return get(this.admin.describeTopics(List.of(name)).allTopicNames(), "describe topic '" + name + "'")
			.get(name);
	}

	/**
	 * Send records with {@code acks=all}, idempotent, round-robin over the topic's
	 * partitions, and return once every one is acknowledged. One request in flight per
	 * broker: with five, right after a leader was killed, the producer was seen to retry
	 * {@code OUT_OF_ORDER_SEQUENCE_NUMBER} on the new leader until its delivery timeout.
	 */
	void produce(String topic, int count, int recordSizeBytes) {
		Assert.isTrue(count >= 0, "'count' must not be negative");
		Assert.isTrue(recordSizeBytes >= 0, "'recordSizeBytes' must not be negative");
		long deadline = System.nanoTime() + this.timeout.toNanos();
		int deliveryTimeoutMs = (int) Math.min(Integer.MAX_VALUE, this.timeout.toMillis());
		Map<String, Object> configs = new LinkedHashMap<>();
		configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, this.bootstrapServers);
		configs.put(ProducerConfig.ACKS_CONFIG, "all");
		configs.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
		configs.put(ProducerConfig.LINGER_MS_CONFIG, 5);
		configs.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, deliveryTimeoutMs);
		configs.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, deliveryTimeoutMs / 2);
		configs.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, deliveryTimeoutMs);
		try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(configs, new ByteArraySerializer(),
				new ByteArraySerializer())) {
			int partitions = producer.partitionsFor(topic).size();
			byte[] value = new byte[recordSizeBytes];
			List<Future<RecordMetadata>> sends = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				sends.add(producer.send(new ProducerRecord<>(topic, i % partitions, null, value)));
			}
			producer.flush();
			String action = "produce " + count + " records to '" + topic + "'";
			for (Future<RecordMetadata> send : sends) {
				get(send, Math.max(0, deadline - System.nanoTime()), action);
			}
		}
	}

	/**
	 * The brokers the cluster metadata lists as alive.
	 */
	Set<Integer> liveBrokerIds() throws Exception {
		return ids(List.copyOf(
				this.admin.describeCluster().nodes().get(this.timeout.toMillis(), TimeUnit.MILLISECONDS)));
	}

	<T> T get(KafkaFuture<T> future, String action) {
		return get(future, this.timeout.toNanos(), action);
	}

	static <T> T get(Future<T> future, long timeoutNanos, String action) {
		try {
			return future.get(timeoutNanos, TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting to " + action, ex);
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException("Failed to " + action + ": " + ex.getCause(), ex.getCause());
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException(
					"Timed out after " + Duration.ofNanos(timeoutNanos) + " waiting to " + action, ex);
		}
	}

	static Set<Integer> ids(List<Node> nodes) {
		return nodes.stream().map(Node::id).collect(Collectors.toCollection(HashSet::new));
	}

	@Override
	public void close() {
		this.admin.close(CLOSE_TIMEOUT);
	}

	/**
	 * What a cluster checks of its brokers themselves before a topic counts as ready.
	 */
	@FunctionalInterface
	interface ReadyCheck {

		/**
		 * Throw an {@link AssertionError} that says what is not ready yet.
		 * @param topic the topic
		 * @param assignment its replicas, by partition
		 * @param partitions the partitions as the Admin client sees them: every one with a
		 * leader and a full ISR
		 * @throws Exception if the brokers cannot be asked yet
		 */
		void assertReady(String topic, Map<Integer, List<Integer>> assignment, List<TopicPartitionInfo> partitions)
				throws Exception;

	}

}
