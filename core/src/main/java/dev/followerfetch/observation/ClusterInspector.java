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
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
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

	private final GroupAssignors groupAssignors = new GroupAssignors();

	private final BrokerSelectors brokerSelectors = new BrokerSelectors(System::nanoTime, new SplittableRandom());

	private @Nullable ShareGroupMembers shareGroupMembers;

	private @Nullable Admin admin;

	private boolean closed;

	ClusterInspector(Supplier<Map<String, Object>> adminConfig, Duration timeout, Supplier<String> clientId) {
		this.adminConfig = adminConfig;
		this.timeout = timeout;
		this.clientId = clientId;
	}

	ClusterView inspect(Collection<String> topics) throws Exception {
		return inspect(topics, Map.of(), Set.of(), null);
	}

	/**
	 * Read the cluster's facts for some topics, consumer groups and share consumers.
	 * @param topics the topics whose placement to read
	 * @param groups the consumer groups whose assignor to read, with what this application
	 * sees of their rebalances: a group is described again only when they changed
	 * @param shareClients the client ids of share consumers whose share group membership
	 * to read, with the placement of the partitions assigned to them
	 * @param zone this application's zone, whose brokers are asked for their selector at
	 * every inspection (which also tells whether they can be reached), or {@code null}
	 * @return the view
	 * @throws Exception when the brokers cannot be read within the timeout
	 */
	ClusterView inspect(Collection<String> topics, Map<String, GroupAssignors.Rebalances> groups,
			Set<String> shareClients, @Nullable String zone) throws Exception {
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
		Selectors selectors = selectors(client, nodes, zone, millis);
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
		describeGroups(client, groups, millis);
		return new ClusterView(racks, selectors.selectors(), selectors.problem(), partitions, topicProblems,
				selectors.unreachable(), this.groupAssignors.assignors(), shareMembers);
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
	 * Describe the groups whose assignor may have changed since they were last described:
	 * one request per group coordinator. A group that cannot be described (not found yet,
	 * no {@code DESCRIBE} on it, a coordinator moving) keeps what it said before.
	 */
	private void describeGroups(Admin client, Map<String, GroupAssignors.Rebalances> groups, int millis)
			throws InterruptedException {
		Set<String> describe = this.groupAssignors.toDescribe(groups);
		if (describe.isEmpty()) {
			return;
		}
		Map<String, KafkaFuture<ConsumerGroupDescription>> described = client
			.describeConsumerGroups(describe, new DescribeConsumerGroupsOptions().timeoutMs(millis))
			.describedGroups();
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		for (Map.Entry<String, KafkaFuture<ConsumerGroupDescription>> entry : described.entrySet()) {
			ClusterView.GroupAssignor assignor = null;
			try {
				ConsumerGroupDescription group = entry.getValue()
					.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
				assignor = new ClusterView.GroupAssignor(group.type() == GroupType.CONSUMER,
						(group.partitionAssignor() != null) ? group.partitionAssignor() : "");
			}
			catch (ExecutionException | TimeoutException ex) {
				// unknown this refresh
			}
			this.groupAssignors.described(entry.getKey(), Objects.requireNonNull(groups.get(entry.getKey())), assignor);
		}
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
	 * Ask the brokers {@link BrokerSelectors} names for their
	 * {@code replica.selector.class}. Each request goes to that broker itself, so a broker
	 * that does not answer in time or fails with a retriable error (the connection failed)
	 * is one this application cannot reach; a refusal (no {@code DESCRIBE_CONFIGS}) is only
	 * a problem.
	 */
	private Selectors selectors(Admin client, Collection<Node> nodes, @Nullable String zone, int millis)
			throws InterruptedException {
		Set<Integer> ask = this.brokerSelectors.toAsk(nodes, zone);
		Map<Integer, String> unreachable = new TreeMap<>();
		if (!ask.isEmpty()) {
			List<ConfigResource> resources = new ArrayList<>();
			ask.forEach((id) -> resources.add(new ConfigResource(ConfigResource.Type.BROKER, String.valueOf(id))));
			Map<ConfigResource, KafkaFuture<Config>> configs = client
				.describeConfigs(resources, new DescribeConfigsOptions().timeoutMs(millis))
				.values();
			Map<Integer, Node> byId = new HashMap<>();
			nodes.forEach((node) -> byId.put(node.id(), node));
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
			for (Map.Entry<ConfigResource, KafkaFuture<Config>> entry : configs.entrySet()) {
				Node broker = Objects.requireNonNull(byId.get(Integer.valueOf(entry.getKey().name())));
				try {
					ConfigEntry selector = entry.getValue()
						.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
						.get(SELECTOR_CONFIG);
					String className = (selector != null && selector.value() != null && !selector.value().isBlank())
							? selector.value() : null;
					this.brokerSelectors.answered(broker, new ClusterView.Selector(className, isRackAware(className)),
							null);
				}
				catch (ExecutionException ex) {
					Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
					if (cause instanceof RetriableException) {
						unreachable.put(broker.id(), describe(cause));
						this.brokerSelectors.unanswered(broker);
					}
					else {
						this.brokerSelectors.answered(broker, null, describe(cause));
					}
				}
				catch (TimeoutException ex) {
					unreachable.put(broker.id(), "no answer within " + millis + " ms");
					this.brokerSelectors.unanswered(broker);
				}
			}
		}
		Set<Integer> ids = new TreeSet<>();
		nodes.forEach((node) -> ids.add(node.id()));
		Map<Integer, String> problems = this.brokerSelectors.refusals(ids);
		problems.keySet().removeAll(unreachable.keySet());
		Map<Integer, ClusterView.Selector> selectors = this.brokerSelectors.selectors(ids);
		selectors.keySet().removeAll(unreachable.keySet());
		return new Selectors(selectors, unreachable, problem(problems, ids.size()));
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
