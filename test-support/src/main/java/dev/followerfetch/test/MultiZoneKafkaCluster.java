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
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

import org.springframework.util.Assert;

import static org.awaitility.Awaitility.await;

/**
 * A real Kafka KRaft cluster inside the test JVM with one broker per zone: broker {@code i}
 * has {@code broker.rack} set to the {@code i}-th zone. Broker 0 also runs the only
 * controller. The brokers run the production metadata version, use the rack-aware replica
 * selector unless told otherwise, and listen on random loopback ports. Topics are not
 * created automatically: create them with {@link #createTopic(String, Map)}.
 * <p>
 * Every wait is bounded: by the {@linkplain Builder#timeout(Duration) timeout}, and by one
 * minute for stopping. Start with {@link #builder()}; close to stop the brokers and delete
 * their data. Kafka's exit and halt procedures are replaced for the whole JVM so that a
 * failing broker cannot end the test run.
 *
 * @author follower-fetch authors
 */
public final class MultiZoneKafkaCluster implements ZonedKafkaCluster {

	/**
	 * Zones used when none are given.
	 */
	public static final List<String> DEFAULT_ZONES = List.of("az-a", "az-b", "az-c");

	private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

	private static final Duration SHUTDOWN_TIMEOUT = ClusterClients.CLOSE_TIMEOUT;

	private final List<String> zones;

	private final Duration timeout;

	private final Brokers kafka;

	private final ClusterClients clients;

	private final ZoneNetwork network;

	private boolean closed;

	private MultiZoneKafkaCluster(List<String> zones, Duration timeout, Brokers kafka, ClusterClients clients,
			ZoneNetwork network) {
		this.zones = zones;
		this.timeout = timeout;
		this.kafka = kafka;
		this.clients = clients;
		this.network = network;
	}

	/**
	 * Return a builder for a cluster with the {@linkplain #DEFAULT_ZONES default zones} and
	 * the rack-aware replica selector.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	@Override
	public String bootstrapServers() {
		return this.kafka.bootstrapServers();
	}

	/**
	 * Return the {@code bootstrap.servers} value for a client in the given zone: its
	 * connections, and those the brokers' metadata sends it to, take that zone's paths of
	 * the {@linkplain Builder#zoneNetwork() zone network}, so that faults of the network
	 * reach it.
	 * @param zone a zone of this cluster
	 * @return a comma-separated list of loopback {@code host:port} pairs
	 */
	public String bootstrapServers(String zone) {
		return network().bootstrapServers(zone);
	}

	/**
	 * Cut a zone from the rest of the region: no path between it and another zone carries
	 * a byte any more, both ways, for clients and brokers alike (the controller runs with
	 * broker 0, in the first zone). Clients in the zone still reach its broker.
	 * {@link #heal()} undoes it.
	 * @param zone a zone of this cluster
	 * @return the paths cut
	 */
	public List<String> partition(String zone) {
		return partition(zone, LinkFailure.BLACK_HOLE);
	}

	/**
	 * Cut a zone from the rest of the region, as {@link #partition(String)} does.
	 * @param zone a zone of this cluster
	 * @param failure how the cut paths fail
	 * @return the paths cut
	 */
	public List<String> partition(String zone, LinkFailure failure) {
		return network().partition(zone, failure.state());
	}

	/**
	 * Cut the broker of a zone from the other brokers and from the controller, both ways,
	 * while clients of every zone still reach it: it falls out of every ISR and loses its
	 * leaderships, without learning either. {@link #heal()} undoes it.
	 * @param zone a zone of this cluster
	 * @return the paths cut
	 */
	public List<String> isolateBroker(String zone) {
		return isolateBroker(zone, LinkFailure.BLACK_HOLE);
	}

	/**
	 * Cut the broker of a zone from the other brokers and from the controller, as
	 * {@link #isolateBroker(String)} does.
	 * @param zone a zone of this cluster
	 * @param failure how the cut paths fail
	 * @return the paths cut
	 */
	public List<String> isolateBroker(String zone, LinkFailure failure) {
		return network().isolateBroker(zone, failure.state());
	}

	/**
	 * Cut the clients of one zone from the broker of a zone (the same one or another),
	 * while that broker keeps replicating. {@link #heal()} undoes it.
	 * @param clientZone the zone of the clients
	 * @param brokerZone the zone of the broker
	 * @return the paths cut
	 */
	public List<String> cutClients(String clientZone, String brokerZone) {
		return cutClients(clientZone, brokerZone, LinkFailure.BLACK_HOLE);
	}

	/**
	 * Cut the clients of one zone from the broker of a zone, as
	 * {@link #cutClients(String, String)} does.
	 * @param clientZone the zone of the clients
	 * @param brokerZone the zone of the broker
	 * @param failure how the cut paths fail
	 * @return the paths cut
	 */
	public List<String> cutClients(String clientZone, String brokerZone, LinkFailure failure) {
		return network().cutClients(clientZone, brokerZone, failure.state());
	}

	/**
	 * Take the broker of a zone off the network at once, as a host that lost power: every
	 * path to it and from it is black-holed, its own zone's clients included, with no
	 * controlled shutdown and no socket closed. The process keeps running behind the cut,
	 * so {@link #heal()} brings it back with its data, as a restarted host would.
	 * @param zone a zone of this cluster
	 * @return the paths cut
	 */
	public List<String> kill(String zone) {
		return kill(zone, LinkFailure.BLACK_HOLE);
	}

	/**
	 * Take the broker of a zone off the network, as {@link #kill(String)} does;
	 * {@link LinkFailure#REFUSE} makes it look like a process that died on a live host.
	 * @param zone a zone of this cluster
	 * @param failure how the cut paths fail
	 * @return the paths cut
	 */
	public List<String> kill(String zone, LinkFailure failure) {
		return network().kill(zone, failure.state());
	}

	/**
	 * Open every path of the zone network again. Connections held by a black hole carry
	 * on where they stopped.
	 */
	public void heal() {
		network().heal();
	}

	/**
	 * Return the paths of the zone network that are cut, and how.
	 * @return the state of each cut path, by name
	 */
	public Map<String, String> cutPaths() {
		Map<String, String> cut = new LinkedHashMap<>();
		network().cut().forEach((name, state) -> cut.put(name, state.name()));
		return cut;
	}

	private ZoneNetwork network() {
		Assert.state(this.network != null,
				"This cluster has no zone network: start it with MultiZoneKafkaCluster.builder().zoneNetwork()");
		return this.network;
	}

	@Override
	public List<String> zones() {
		return this.zones;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Every broker sees it so too, and every replica has taken its role (a leader that
	 * has not yet refuses records).
	 */
	@Override
	public void createTopic(String name, Map<Integer, List<Integer>> replicaAssignment) {
		this.clients.createTopic(name, replicaAssignment, this.zones.size(), this::assertBrokersReady);
	}

	@Override
	public TopicDescription describeTopic(String name) {
		return this.clients.describeTopic(name);
	}

	/**
	 * Return the leader and ISR of each partition of a topic as one broker's metadata
	 * cache has them. A broker cut from the controller keeps what it knew: ask a broker
	 * on the controller's side of a fault for the cluster's view.
	 * @param brokerId the broker to ask
	 * @param topic the topic
	 * @return the ISR of each partition known to that broker, leader first, the others by
	 * broker id (Kafka keeps the ISR as a list on 4.1, as a set from 4.2)
	 */
	public Map<Integer, List<Integer>> leaderAndIsrSeenBy(int brokerId, String topic) {
		requireBroker(brokerId);
		Map<Integer, List<Integer>> partitions = new TreeMap<>();
		for (int partition = 0;; partition++) {
			Optional<Brokers.PartitionState> state = this.kafka.partitionState(brokerId, topic, partition);
			if (state.isEmpty()) {
				return partitions;
			}
			List<Integer> leaderFirst = new ArrayList<>();
			leaderFirst.add(state.get().leader());
			state.get().isr().stream().filter((id) -> id != state.get().leader()).sorted().forEach(leaderFirst::add);
			partitions.put(partition, List.copyOf(leaderFirst));
		}
	}

	@Override
	public void produce(String topic, int count, int recordSizeBytes) {
		this.clients.produce(topic, count, recordSizeBytes);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * No running broker lists it either. Broker 0 shares its node with the only
	 * controller: stop another broker where possible (only brokers 1 and 2 are tested).
	 */
	@Override
	public void stopBroker(int brokerId) {
		requireBroker(brokerId);
		runBounded("stop broker " + brokerId, this.timeout, () -> this.kafka.shutDownBroker(brokerId));
		await("broker " + brokerId + " gone from the cluster metadata").atMost(this.timeout)
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !liveBrokerIds().contains(brokerId) && this.kafka.runningBrokerIds()
				.stream()
				.noneMatch((running) -> this.kafka.seesAlive(running, brokerId)));
	}

	@Override
	public void startBroker(int brokerId) {
		requireBroker(brokerId);
		runBounded("start broker " + brokerId, this.timeout, () -> this.kafka.startUpBroker(brokerId));
		await("broker " + brokerId + " running").atMost(this.timeout)
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(50))
			.until(() -> this.kafka.runningBrokerIds().contains(brokerId) && liveBrokerIds().contains(brokerId));
	}

	/**
	 * Stop one broker from replicating while it stays up and keeps serving clients, as a
	 * broker whose replica fetchers are stuck or throttled would: its follower replicas
	 * stop advancing, so the leaders drop it from their ISRs after
	 * {@code replica.lag.time.max.ms}, yet consumers that read from it keep getting answers
	 * (with no new records). {@link #resumeReplication(int)} undoes it.
	 * @param brokerId a broker id of this cluster
	 * @return the partitions the broker stopped replicating
	 */
	public synchronized Set<TopicPartition> stallReplication(int brokerId) {
		requireBroker(brokerId);
		return this.kafka.stallReplication(brokerId, followedPartitions(brokerId));
	}

	/**
	 * Let a broker stalled by {@link #stallReplication(int)} replicate again from where it
	 * stopped, following the partitions' current leaders. It rejoins the ISRs once it has
	 * caught up: wait for that with {@link #awaitInSync(String)}.
	 * @param brokerId a broker id of this cluster
	 */
	public synchronized void resumeReplication(int brokerId) {
		requireBroker(brokerId);
		this.kafka.resumeReplication(brokerId);
	}

	private Set<TopicPartition> followedPartitions(int brokerId) {
		Admin admin = this.clients.admin();
		Set<String> topics = this.clients.get(admin.listTopics().names(), "list topics");
		Set<TopicPartition> followed = new HashSet<>();
		this.clients.get(admin.describeTopics(topics).allTopicNames(), "describe topics " + topics)
			.forEach((topic, description) -> description.partitions()
				.stream()
				.filter((info) -> ids(info.replicas()).contains(brokerId)
						&& (info.leader() == null || info.leader().id() != brokerId))
				.forEach((info) -> followed.add(new TopicPartition(topic, info.partition()))));
		return followed;
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * Every running broker sees it so too, and every running replica has taken its role.
	 */
	@Override
	public void awaitInSync(String topic) {
		this.clients.awaitInSync(topic, this::assertBrokersReady);
	}

	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.clients.close();
		try {
			shutDown(this.kafka);
		}
		finally {
			if (this.network != null) {
				this.network.close();
			}
		}
	}

	private void assertBrokersReady(String name, Map<Integer, List<Integer>> assignment,
			List<TopicPartitionInfo> partitions) {
		Set<Integer> running = this.kafka.runningBrokerIds();
		for (TopicPartitionInfo partition : partitions) {
			TopicPartition topicPartition = new TopicPartition(name, partition.partition());
			for (Node replica : partition.replicas()) {
				Brokers.Hosting expected = (replica.id() == partition.leader().id())
						? Brokers.Hosting.LEADER : Brokers.Hosting.FOLLOWER;
				if (running.contains(replica.id()) && this.kafka.hosting(replica.id(), topicPartition) != expected) {
					throw new AssertionError("Broker " + replica.id() + " does not host " + topicPartition + " as "
							+ expected + " yet");
				}
			}
		}
		for (int broker : running) {
			for (Map.Entry<Integer, List<Integer>> partition : assignment.entrySet()) {
				Brokers.PartitionState state = this.kafka.partitionState(broker, name, partition.getKey())
					.orElseThrow(() -> new AssertionError(
							"Broker " + broker + " does not know partition " + partition.getKey()));
				if (state.leader() < 0 || state.isrSize() != partition.getValue().size()) {
					throw new AssertionError("Broker " + broker + " sees partition " + partition.getKey()
							+ " with leader " + state.leader() + ", " + state.isrSize() + " replicas in sync");
				}
			}
		}
	}

	private void requireBroker(int brokerId) {
		Set<Integer> brokerIds = this.kafka.brokerIds();
		Assert.isTrue(brokerIds.contains(brokerId), () -> "No broker " + brokerId + "; broker ids are " + brokerIds);
	}

	private Set<Integer> liveBrokerIds() throws Exception {
		return this.clients.liveBrokerIds();
	}

	private static Set<Integer> ids(List<Node> nodes) {
		return ClusterClients.ids(nodes);
	}

	private static MultiZoneKafkaCluster start(ZonedKafkaClusterBuilder.Settings settings, boolean zoneNetwork) {
		boolean isolated = IsolatedBrokers.needed();
		Assert.state(!isolated || !zoneNetwork, () -> "The zone network needs the brokers on the "
				+ "application's class path (Kafka 4.1 or later); with Kafka " + Brokers.kafkaVersion()
				+ " they run isolated");
		if (isolated) {
			IsolatedBrokers.keepBrokersFromEndingTheJvm();
		}
		else {
			KafkaInternals.keepBrokersFromEndingTheJvm();
		}
		List<String> zones = settings.zones();
		Duration timeout = settings.timeout();
		Brokers kafka = null;
		ClusterClients clients = null;
		ZoneNetwork network = zoneNetwork ? new ZoneNetwork(zones) : null;
		try {
			kafka = isolated
					? IsolatedBrokers.build(zones, settings.replicaSelector(), settings.brokerProperties(), timeout)
					: KafkaInternals.build(zones, settings.replicaSelector(), settings.brokerProperties(), timeout,
							network);
			runBounded("start the Kafka cluster", timeout, kafka::start);
			clients = new ClusterClients(kafka.bootstrapServers(), timeout);
			return new MultiZoneKafkaCluster(zones, timeout, kafka, clients, network);
		}
		catch (RuntimeException | Error ex) {
			if (network != null) {
				network.close();
			}
			if (clients != null) {
				clients.close();
			}
			if (kafka != null) {
				try {
					shutDown(kafka);
				}
				catch (RuntimeException closeFailure) {
					ex.addSuppressed(closeFailure);
				}
			}
			throw ex;
		}
	}

	/**
	 * Have the JVM shutdown hooks that Kafka's brokers and test kit add (they delete the
	 * brokers' data) registered by the given registrar instead, for example
	 * {@code SpringApplication.getShutdownHandlers()::add}, so that they run after an
	 * application has stopped its clients. Applies to every cluster started afterwards in
	 * this JVM.
	 * @param registrar takes each hook in place of the JVM
	 */
	public static void registerKafkaShutdownHooksWith(Consumer<Runnable> registrar) {
		Assert.notNull(registrar, "'registrar' must not be null");
		if (IsolatedBrokers.needed()) {
			IsolatedBrokers.registerShutdownHooksWith(registrar);
		}
		else {
			KafkaInternals.registerShutdownHooksWith(registrar);
		}
	}

	private static void shutDown(Brokers kafka) {
		runBounded("stop the Kafka cluster", SHUTDOWN_TIMEOUT, kafka::close);
	}

	/**
	 * Run a task and wait for it at most the given time. A task that takes longer is not
	 * interrupted, because a Kafka server interrupted while it starts leaves its files half
	 * written; it gets {@link #SHUTDOWN_TIMEOUT} more to end before the failure is thrown,
	 * so that the cluster can then be stopped safely.
	 */
	private static void runBounded(String action, Duration timeout, ThrowingRunnable task) {
		ExecutorService executor = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "multi-zone-kafka-cluster");
			thread.setDaemon(true);
			return thread;
		});
		Future<Void> future = executor.submit(() -> {
			task.run();
			return null;
		});
		executor.shutdown();
		try {
			ClusterClients.get(future, timeout.toNanos(), action);
		}
		catch (IllegalStateException ex) {
			awaitTermination(executor, ex);
			throw ex;
		}
	}

	private static void awaitTermination(ExecutorService executor, IllegalStateException failure) {
		try {
			if (!executor.awaitTermination(SHUTDOWN_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)) {
				failure.addSuppressed(new IllegalStateException("Still running " + SHUTDOWN_TIMEOUT + " later"));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			failure.addSuppressed(ex);
		}
	}

	@FunctionalInterface
	private interface ThrowingRunnable {

		void run() throws Exception;

	}

	/**
	 * Builder for a {@link MultiZoneKafkaCluster}.
	 */
	public static final class Builder extends ZonedKafkaClusterBuilder<Builder> {

		private boolean zoneNetwork;

		private Builder() {
			super(DEFAULT_TIMEOUT);
		}

		/**
		 * Put every network path from a zone to a broker behind a TCP proxy of its own on
		 * loopback, for clients and for replication, and the path from each broker to the
		 * controller too, so that {@link MultiZoneKafkaCluster#partition(String)},
		 * {@link MultiZoneKafkaCluster#isolateBroker(String)},
		 * {@link MultiZoneKafkaCluster#cutClients(String, String)} and
		 * {@link MultiZoneKafkaCluster#kill(String)} can cut them. Clients that should see
		 * the faults bootstrap with {@link MultiZoneKafkaCluster#bootstrapServers(String)};
		 * {@link MultiZoneKafkaCluster#bootstrapServers()} stays unproxied.
		 * @return this builder
		 */
		public Builder zoneNetwork() {
			this.zoneNetwork = true;
			return this;
		}

		/**
		 * Start the cluster and wait until every broker is ready. On failure, whatever was
		 * started is stopped again.
		 * @return the running cluster
		 */
		public MultiZoneKafkaCluster start() {
			return MultiZoneKafkaCluster.start(settings(), this.zoneNetwork);
		}

	}

}
