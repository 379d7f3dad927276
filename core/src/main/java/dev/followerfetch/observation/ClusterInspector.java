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

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@link ClusterView cluster facts} with one long-lived admin client built from the
 * application's Kafka admin settings. Every call is bounded by a timeout.
 *
 * @author follower-fetch authors
 */
final class ClusterInspector implements AutoCloseable {

	static final String SELECTOR_CONFIG = "replica.selector.class";

	private final Supplier<Map<String, Object>> adminConfig;

	private final Duration timeout;

	private final Supplier<String> clientId;

	private final Object lock = new Object();

	private final Map<Integer, String> lastKnownRacks = new ConcurrentHashMap<>();

	private @Nullable ShareGroupMembers shareGroupMembers;

	private @Nullable Admin admin;

	private boolean closed;

	ClusterInspector(Supplier<Map<String, Object>> adminConfig, Duration timeout, Supplier<String> clientId) {
		this.adminConfig = adminConfig;
		this.timeout = timeout;
		this.clientId = clientId;
	}

	ClusterView inspect(Collection<String> topics) throws Exception {
		return inspect(topics, List.of(), Set.of());
	}

	/**
	 * Read the cluster's facts for some topics, consumer groups and share consumers.
	 * @param topics the topics whose placement to read
	 * @param groups the consumer groups whose assignor to read
	 * @param shareClients the client ids of share consumers whose share group membership
	 * to read, with the placement of the partitions assigned to them
	 * @return the view
	 * @throws Exception when the brokers cannot be read within the timeout
	 */
	ClusterView inspect(Collection<String> topics, Collection<String> groups, Set<String> shareClients)
			throws Exception {
		Admin client = admin();
		int millis = (int) this.timeout.toMillis();
		Map<String, ClusterView.ShareMember> shareMembers = shareMembers(client, shareClients, millis);
		if (!shareMembers.isEmpty()) {
			Set<String> withShared = new TreeSet<>(topics);
			shareMembers.values().forEach((member) -> member.partitions().forEach((tp) -> withShared.add(tp.topic())));
			topics = withShared;
		}
		Collection<Node> nodes = client.describeCluster(new DescribeClusterOptions().timeoutMs(millis))
			.nodes()
			.get(millis, TimeUnit.MILLISECONDS);
		Map<Integer, String> racks = new LinkedHashMap<>();
		nodes.forEach((node) -> {
			racks.put(node.id(), node.rack());
			if (node.rack() != null) {
				this.lastKnownRacks.put(node.id(), node.rack());
			}
		});
		Selectors selectors = selectors(client, racks.keySet(), millis);
		Map<TopicPartition, ClusterView.Placement> partitions = new HashMap<>();
		Map<String, String> topicProblems = new TreeMap<>();
		if (!topics.isEmpty()) {
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
			Map<String, KafkaFuture<TopicDescription>> descriptions = client
				.describeTopics(topics, new DescribeTopicsOptions().timeoutMs(millis))
				.topicNameValues();
			for (Map.Entry<String, KafkaFuture<TopicDescription>> entry : descriptions.entrySet()) {
				TopicDescription description;
				try {
					description = entry.getValue()
						.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				}
				catch (ExecutionException ex) {
					if (!(ex.getCause() instanceof UnknownTopicOrPartitionException)) {
						throw ex;
					}
					topicProblems.put(entry.getKey(), describe(ex.getCause()));
					continue;
				}
				for (TopicPartitionInfo info : description.partitions()) {
					partitions.put(new TopicPartition(entry.getKey(), info.partition()),
							new ClusterView.Placement((info.leader() != null) ? info.leader().id() : -1,
									info.replicas().stream().map(Node::id).toList(),
									info.isr().stream().map(Node::id).collect(Collectors.toSet())));
				}
			}
		}
		addStoppedReplicas(racks, partitions.values());
		return new ClusterView(racks, selectors.selectors(), selectors.problem(), partitions, topicProblems,
				selectors.unreachable(), groups(client, groups, millis), shareMembers);
	}

	/**
	 * The share group membership of some share consumers, read by a class of its own: its
	 * Admin calls exist from Kafka 4.0, so this class still loads on older clients.
	 */
	private Map<String, ClusterView.ShareMember> shareMembers(Admin client, Set<String> clientIds, int millis)
			throws InterruptedException {
		if (clientIds.isEmpty()) {
			return Map.of();
		}
		ShareGroupMembers members = this.shareGroupMembers;
		if (members == null) {
			members = new ShareGroupMembers();
			this.shareGroupMembers = members;
		}
		return members.read(client, clientIds, millis);
	}

	/**
	 * Which assignor each group is assigned by: one describe request per group
	 * coordinator. A group that cannot be described (not found yet, no {@code DESCRIBE}
	 * on it, a coordinator moving) is left out: its assignment is unknown this refresh.
	 */
	private static Map<String, ClusterView.GroupAssignor> groups(Admin client, Collection<String> groupIds,
			int millis) throws InterruptedException {
		if (groupIds.isEmpty()) {
			return Map.of();
		}
		Map<String, KafkaFuture<ConsumerGroupDescription>> described = client
			.describeConsumerGroups(groupIds, new DescribeConsumerGroupsOptions().timeoutMs(millis))
			.describedGroups();
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		Map<String, ClusterView.GroupAssignor> groups = new TreeMap<>();
		for (Map.Entry<String, KafkaFuture<ConsumerGroupDescription>> entry : described.entrySet()) {
			try {
				ConsumerGroupDescription group = entry.getValue()
					.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				groups.put(entry.getKey(), new ClusterView.GroupAssignor(group.type() == GroupType.CONSUMER,
						(group.partitionAssignor() != null) ? group.partitionAssignor() : ""));
			}
			catch (ExecutionException | TimeoutException ex) {
				// unknown this refresh
			}
		}
		return groups;
	}

	/**
	 * A broker that is down (a rolling restart, a crash) is missing from the cluster
	 * description but still holds its replicas. Without its rack, the only broker of this
	 * zone being restarted would look like a rack that no broker has.
	 */
	private void addStoppedReplicas(Map<Integer, String> racks, Collection<ClusterView.Placement> placements) {
		placements.forEach((placement) -> placement.replicas().forEach((broker) -> {
			String rack = this.lastKnownRacks.get(broker);
			if (rack != null) {
				racks.putIfAbsent(broker, rack);
			}
		}));
	}

	/**
	 * Ask every broker for its {@code replica.selector.class}. Each request goes to that
	 * broker itself, so a broker that does not answer in time or fails with a retriable
	 * error (the connection failed) is one this application cannot reach; a refusal (no
	 * {@code DESCRIBE_CONFIGS}) is only a problem.
	 */
	private static Selectors selectors(Admin client, Set<Integer> brokerIds, int millis) throws InterruptedException {
		List<ConfigResource> resources = new ArrayList<>();
		brokerIds.forEach((id) -> resources.add(new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(id))));
		Map<ConfigResource, KafkaFuture<Config>> configs = client
			.describeConfigs(resources, new DescribeConfigsOptions().timeoutMs(millis))
			.values();
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		Map<Integer, ClusterView.Selector> selectors = new HashMap<>();
		Map<Integer, String> unreachable = new TreeMap<>();
		Map<Integer, String> problems = new TreeMap<>();
		for (Map.Entry<ConfigResource, KafkaFuture<Config>> entry : configs.entrySet()) {
			Integer broker = Integer.valueOf(entry.getKey().name());
			try {
				ConfigEntry selector = entry.getValue()
					.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
					.get(SELECTOR_CONFIG);
				String className = (selector != null && selector.value() != null && !selector.value().isBlank())
						? selector.value() : null;
				selectors.put(broker, new ClusterView.Selector(className, isRackAware(className)));
			}
			catch (ExecutionException ex) {
				Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
				((cause instanceof RetriableException) ? unreachable : problems).put(broker, describe(cause));
			}
			catch (TimeoutException ex) {
				unreachable.put(broker, "no answer within " + millis + " ms");
			}
		}
		return new Selectors(selectors, unreachable, problem(problems, brokerIds.size()));
	}

	private static @Nullable String problem(Map<Integer, String> problems, int brokers) {
		if (problems.isEmpty()) {
			return null;
		}
		if (problems.size() == brokers && new HashSet<>(problems.values()).size() == 1) {
			return problems.values().iterator().next();
		}
		return problems.entrySet()
			.stream()
			.map((problem) -> "broker " + problem.getKey() + ": " + problem.getValue())
			.collect(Collectors.joining("; "));
	}

	static boolean isRackAware(@Nullable String className) {
		return className != null && !className.endsWith(".LeaderSelector");
	}

	private Admin admin() {
		synchronized (this.lock) {
			if (this.closed) {
				throw new IllegalStateException("closed");
			}
			if (this.admin == null) {
				Map<String, Object> config = new HashMap<>(this.adminConfig.get());
				config.put(AdminClientConfig.CLIENT_ID_CONFIG, this.clientId.get());
				config.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) this.timeout.toMillis());
				config.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) this.timeout.toMillis());
				config.putIfAbsent(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, 1000);
				config.putIfAbsent(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 30000);
				config.putIfAbsent(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 1000);
				config.putIfAbsent(AdminClientConfig.RETRY_BACKOFF_MAX_MS_CONFIG, 30000);
				this.admin = Admin.create(config);
			}
			return this.admin;
		}
	}

	static String describe(Throwable ex) {
		String message = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
		return ex.getClass().getSimpleName() + ": " + message.replaceAll("\\s+", " ");
	}

	/**
	 * Close the admin client while no consumer or producer reads this cluster: an
	 * unreachable cluster (Boot's {@code KafkaAdmin} left at {@code localhost:9092} in an
	 * application whose bindings name their brokers) would otherwise be dialled for as long
	 * as the application runs. The next inspection creates a new one.
	 */
	void idle() {
		Admin open;
		synchronized (this.lock) {
			open = this.admin;
			this.admin = null;
		}
		if (open != null) {
			open.close(this.timeout);
		}
	}

	/**
	 * Allow the admin client to be created again after {@link #close()}.
	 */
	void reopen() {
		synchronized (this.lock) {
			this.closed = false;
		}
	}

	@Override
	public void close() {
		synchronized (this.lock) {
			this.closed = true;
		}
		idle();
	}

	/**
	 * What the brokers said of their replica selectors.
	 *
	 * @param selectors the selector of each broker that answered
	 * @param unreachable the brokers that did not answer in time or whose connection
	 * failed, with why
	 * @param problem why other brokers' selectors are unknown, or {@code null}
	 */
	private record Selectors(Map<Integer, ClusterView.Selector> selectors, Map<Integer, String> unreachable,
			@Nullable String problem) {

	}

}
