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

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.security.CodeSource;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import kafka.server.BrokerServer;
import kafka.server.InitialFetchState;
import kafka.server.KafkaBroker;
import kafka.server.ReplicaFetcherManager;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.replica.RackAwareReplicaSelector;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.PreboundSocketFactoryManager;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.metadata.BrokerState;
import org.apache.kafka.metadata.LeaderAndIsr;
import org.apache.kafka.metadata.MetadataCache;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.PartitionFetchState;
import org.apache.kafka.server.ServerSocketFactory;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.server.network.BrokerEndPoint;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Every use the fixture makes of Kafka's internals: the test kit's nodes and builder, the
 * brokers' state, metadata caches and replica fetchers, and Kafka's exit procedures. None
 * of it is public API and it changes between Kafka versions; when it does, it fails here,
 * with an {@link IllegalStateException} that names the Kafka version on the class path,
 * rather than with a {@link LinkageError} somewhere in a test.
 *
 * @author follower-fetch authors
 */
final class KafkaInternals implements Brokers {

	private static final List<String> EXIT_CLASSES = List.of("org.apache.kafka.common.utils.Exit",
			"org.apache.kafka.common.utils.internals.Exit");

	private static final String BROKER_LISTENER = "EXTERNAL";

	private static final String CONTROLLER_LISTENER = "CONTROLLER";

	private static final Pattern TEST_KIT_JAR = Pattern.compile("kafka-test-common-runtime-(\\d[^/]*)\\.jar$");

	private static final MethodHandle LEADER_AND_ISR_ISR = leaderAndIsrIsr();

	private final KafkaClusterTestKit testKit;

	private final Map<Integer, Map<TopicPartition, PartitionFetchState>> stalled = new HashMap<>();

	private KafkaInternals(KafkaClusterTestKit testKit) {
		this.testKit = testKit;
	}

	/**
	 * Build, but do not start, a cluster with one broker per zone and one controller
	 * combined with broker 0, at the production metadata version.
	 */
	static KafkaInternals build(List<String> zones, boolean replicaSelector, Map<String, String> brokerProperties,
			Duration startupTimeout) {
		return build(zones, replicaSelector, brokerProperties, startupTimeout, null);
	}

	/**
	 * Build, but do not start, a cluster as {@link #build(List, boolean, Map, Duration)}
	 * does, with every listener behind the given network's links when there is one.
	 */
	static KafkaInternals build(List<String> zones, boolean replicaSelector, Map<String, String> brokerProperties,
			Duration startupTimeout, ZoneNetwork network) {
		checkTestKitVersion();
		return call("build the test kit's cluster", () -> {
			Map<String, Short> features = Feature.PRODUCTION_FEATURES.stream()
				.collect(Collectors.toMap(Feature::featureName,
						(feature) -> feature.defaultLevel(MetadataVersion.latestProduction()), (a, b) -> a,
						TreeMap::new));
			String maxStartupTime = String.valueOf(startupTimeout.toMillis());
			LoopbackSocketFactoryManager sockets = new LoopbackSocketFactoryManager();
			Map<Integer, Map<String, String>> perBroker = new TreeMap<>();
			for (int id = 0; id < zones.size(); id++) {
				perBroker.put(id, new HashMap<>(
						Map.of("broker.rack", zones.get(id), "server.max.startup.time.ms", maxStartupTime)));
			}
			if (network != null) {
				network.wire(BROKER_LISTENER, CONTROLLER_LISTENER, 0, sockets::getOrCreatePortForListener)
					.forEach((id, properties) -> perBroker.get(id).putAll(properties));
			}
			TestKitNodes nodes = new TestKitNodes.Builder(
					BootstrapMetadata.fromVersions(MetadataVersion.latestProduction(), features, "follower-fetch"))
				.setBrokerListenerName(ListenerName.normalised(BROKER_LISTENER))
				.setControllerListenerName(ListenerName.normalised(CONTROLLER_LISTENER))
				.setCombined(true)
				.setNumControllerNodes(1)
				.setNumBrokerNodes(zones.size())
				.setPerServerProperties(perBroker)
				.build();
			KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nodes);
			builder.setConfigProp("unstable.api.versions.enable", "false");
			builder.setConfigProp("unstable.feature.versions.enable", "false");
			builder.setConfigProp("auto.create.topics.enable", "false");
			int internalReplicas = Math.min(3, zones.size());
			builder.setConfigProp("offsets.topic.replication.factor", String.valueOf(internalReplicas));
			builder.setConfigProp("offsets.topic.num.partitions", "1");
			builder.setConfigProp("transaction.state.log.replication.factor", String.valueOf(internalReplicas));
			builder.setConfigProp("transaction.state.log.min.isr", String.valueOf(Math.min(2, internalReplicas)));
			builder.setConfigProp("group.initial.rebalance.delay.ms", "0");
			if (replicaSelector) {
				builder.setConfigProp("replica.selector.class", RackAwareReplicaSelector.class.getName());
			}
			brokerProperties.forEach(builder::setConfigProp);
			bindListenersToLoopback(builder, sockets);
			try {
				return new KafkaInternals(builder.build());
			}
			catch (Exception ex) {
				Utils.closeQuietly(() -> Utils.delete(new File(nodes.baseDirectory())), "cluster directory");
				throw new IllegalStateException("Failed to build the Kafka cluster", ex);
			}
		});
	}

	/**
	 * The test kit binds every listener port before it builds the servers, on the wildcard
	 * address. Swapping in a manager that binds to loopback keeps the cluster off the
	 * network.
	 */
	private static void bindListenersToLoopback(KafkaClusterTestKit.Builder builder,
			LoopbackSocketFactoryManager sockets) {
		Field field = ReflectionUtils.findField(KafkaClusterTestKit.Builder.class, "socketFactoryManager",
				PreboundSocketFactoryManager.class);
		if (field == null) {
			throw new IllegalStateException(unsupported("keep the listeners on loopback",
					"KafkaClusterTestKit.Builder has no socketFactoryManager field any more"));
		}
		ReflectionUtils.makeAccessible(field);
		ReflectionUtils.setField(field, builder, sockets);
	}

	/**
	 * Format the storage, start every node and wait until the brokers are ready.
	 */
	@Override
	public void start() {
		call("start the Kafka cluster", () -> {
			this.testKit.format();
			this.testKit.startup();
			this.testKit.waitForReadyBrokers();
			return null;
		});
	}

	@Override
	public String bootstrapServers() {
		return call("read the bootstrap servers", this.testKit::bootstrapServers);
	}

	@Override
	public Set<Integer> brokerIds() {
		return call("list the brokers", () -> Set.copyOf(this.testKit.brokers().keySet()));
	}

	@Override
	public Set<Integer> runningBrokerIds() {
		return call("read the broker states",
				() -> this.testKit.brokers()
					.entrySet()
					.stream()
					.filter((broker) -> broker.getValue().brokerState() == BrokerState.RUNNING)
					.map(Map.Entry::getKey)
					.collect(Collectors.toSet()));
	}

	/**
	 * Stop a broker with a controlled shutdown, keeping its data.
	 */
	@Override
	public void shutDownBroker(int brokerId) {
		call("stop broker " + brokerId, () -> {
			BrokerServer broker = broker(brokerId);
			broker.shutdown();
			broker.awaitShutdown();
			return null;
		});
	}

	/**
	 * Start a broker stopped by {@link #shutDownBroker(int)} again.
	 */
	@Override
	public void startUpBroker(int brokerId) {
		call("start broker " + brokerId, () -> {
			broker(brokerId).startup();
			return null;
		});
	}

	/**
	 * Whether a broker's metadata cache lists another broker as alive.
	 */
	@Override
	public boolean seesAlive(int observerId, int brokerId) {
		return call("read the metadata cache of broker " + observerId, () -> {
			KafkaBroker observer = broker(observerId);
			return metadataCache(observer).getAliveBrokerNode(brokerId, observer.config().interBrokerListenerName())
				.isPresent();
		});
	}

	/**
	 * The leader and ISR of a partition as a broker's metadata cache has them.
	 */
	@Override
	public Optional<PartitionState> partitionState(int brokerId, String topic, int partition) {
		return call("read the metadata cache of broker " + brokerId,
				() -> metadataCache(broker(brokerId)).getLeaderAndIsr(topic, partition)
					.map((state) -> new PartitionState(state.leader(), state.leaderEpoch(), List.copyOf(isr(state)))));
	}

	/**
	 * Whether a broker's replica manager hosts a partition, and leads it: a broker's
	 * metadata cache names it leader before its replica manager takes the leadership, and
	 * a record produced in between is refused. ({@code kafka.cluster.Partition} is read
	 * reflectively: its interfaces are in a jar the fixture does not compile against.)
	 */
	@Override
	public Hosting hosting(int brokerId, TopicPartition partition) {
		return call("read the replica manager of broker " + brokerId, () -> {
			Option<?> hosted = broker(brokerId).replicaManager().onlinePartition(partition);
			if (hosted.isEmpty()) {
				return Hosting.NONE;
			}
			Object online = hosted.get();
			boolean leader = (Boolean) online.getClass().getMethod("isLeader").invoke(online);
			return leader ? Hosting.LEADER : Hosting.FOLLOWER;
		});
	}

	/**
	 * Remove the replica fetchers of a broker for the given partitions, remembering where
	 * each stopped.
	 * @return the partitions whose fetchers were removed
	 */
	@Override
	public synchronized Set<TopicPartition> stallReplication(int brokerId, Set<TopicPartition> followed) {
		Assert.isTrue(!this.stalled.containsKey(brokerId),
				() -> "Replication of broker " + brokerId + " is already stalled");
		Map<TopicPartition, PartitionFetchState> removed = call("stall the replication of broker " + brokerId, () -> {
			ReplicaFetcherManager fetchers = broker(brokerId).replicaManager().replicaFetcherManager();
			return new HashMap<>(CollectionConverters
				.asJava(fetchers.removeFetcherForPartitions(CollectionConverters.asScala(followed))));
		});
		this.stalled.put(brokerId, removed);
		return Set.copyOf(removed.keySet());
	}

	/**
	 * Add back the replica fetchers removed by {@link #stallReplication(int, Set)}, from
	 * where they stopped and following the current leaders; partitions whose leader or
	 * leader epoch changed in between are left to the broker's own metadata handling.
	 */
	@Override
	public synchronized void resumeReplication(int brokerId) {
		Map<TopicPartition, PartitionFetchState> removed = this.stalled.remove(brokerId);
		Assert.isTrue(removed != null, () -> "Replication of broker " + brokerId + " is not stalled");
		call("resume the replication of broker " + brokerId, () -> {
			BrokerServer broker = broker(brokerId);
			ListenerName listener = broker.config().interBrokerListenerName();
			MetadataCache metadata = metadataCache(broker);
			Map<TopicPartition, InitialFetchState> restart = new HashMap<>();
			removed.forEach((partition, state) -> {
				LeaderAndIsr leaderAndIsr = metadata.getLeaderAndIsr(partition.topic(), partition.partition())
					.orElseThrow(
							() -> new IllegalStateException("Broker " + brokerId + " no longer knows " + partition));
				if (leaderAndIsr.leader() == brokerId || leaderAndIsr.leaderEpoch() != state.currentLeaderEpoch()) {
					return;
				}
				Node leader = metadata.getAliveBrokerNode(leaderAndIsr.leader(), listener)
					.orElseThrow(() -> new IllegalStateException(
							"Leader " + leaderAndIsr.leader() + " of " + partition + " is not alive"));
				restart.put(partition,
						new InitialFetchState(Option.apply(state.topicId().orElse(null)),
								new BrokerEndPoint(leader.id(), leader.host(), leader.port()),
								state.currentLeaderEpoch(), state.fetchOffset()));
			});
			broker.replicaManager().replicaFetcherManager().addFetcherForPartitions(CollectionConverters.asScala(restart));
			return null;
		});
	}

	/**
	 * Stop every node and delete the cluster's data.
	 */
	@Override
	public void close() throws Exception {
		File directory = call("find the cluster directory", () -> new File(this.testKit.nodes().baseDirectory()));
		try {
			this.testKit.close();
		}
		finally {
			Utils.closeQuietly(() -> Utils.delete(directory), "cluster directory");
		}
	}

	/**
	 * The ISR of a partition's state: {@code LeaderAndIsr.isr()} returns a {@code List} on
	 * Kafka 4.1 and a {@code Set} from 4.2, so it is called through a handle looked up for
	 * the Kafka on the class path.
	 */
	@SuppressWarnings("unchecked")
	private static Collection<Integer> isr(LeaderAndIsr state) {
		try {
			return (Collection<Integer>) LEADER_AND_ISR_ISR.invokeExact(state);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static MethodHandle leaderAndIsrIsr() {
		return call("find LeaderAndIsr.isr()", () -> {
			Class<?> returned = LeaderAndIsr.class.getMethod("isr").getReturnType();
			return MethodHandles.publicLookup()
				.findVirtual(LeaderAndIsr.class, "isr", MethodType.methodType(returned))
				.asType(MethodType.methodType(Collection.class, LeaderAndIsr.class));
		});
	}

	/**
	 * A broker's metadata cache, through the type every Kafka line has: {@code BrokerServer}'s
	 * own {@code metadataCache()} returns {@code kafka.server.metadata.KRaftMetadataCache} on
	 * 4.1 and {@code org.apache.kafka.metadata.KRaftMetadataCache} from 4.2, so a call
	 * compiled against one is a {@code NoSuchMethodError} on the other.
	 */
	private static MetadataCache metadataCache(KafkaBroker broker) {
		return broker.metadataCache();
	}

	private BrokerServer broker(int brokerId) {
		BrokerServer broker = this.testKit.brokers().get(brokerId);
		Assert.isTrue(broker != null,
				() -> "No broker " + brokerId + "; broker ids are " + this.testKit.brokers().keySet());
		return broker;
	}

	/**
	 * A broker that loses its log directories halts the JVM, which would end the whole test
	 * run without a report. Make such exits throw in the broker thread instead.
	 */
	static void keepBrokersFromEndingTheJvm() {
		setExitProcedure("setExitProcedure", "exit");
		setExitProcedure("setHaltProcedure", "halt");
	}

	private static void setExitProcedure(String setter, String verb) {
		Class<?> exit = exitClass();
		call("replace Kafka's " + verb + " procedure", () -> {
			Class<?> procedure = ClassUtils.forName(exit.getName() + "$Procedure", exit.getClassLoader());
			Object throwing = implement(procedure, (args) -> {
				throw new IllegalStateException(
						"Kafka tried to " + verb + " the JVM with status " + args[0] + ": " + args[1]);
			});
			exit.getMethod(setter, procedure).invoke(null, throwing);
			return null;
		});
	}

	/**
	 * Have the shutdown hooks that Kafka's servers and test kit add (they delete the data)
	 * registered by the given registrar instead of the JVM.
	 */
	static void registerShutdownHooksWith(Consumer<Runnable> registrar) {
		Class<?> exit = exitClass();
		call("replace Kafka's shutdown hook adder", () -> {
			Class<?> adder = ClassUtils.forName(exit.getName() + "$ShutdownHookAdder", exit.getClassLoader());
			Object registering = implement(adder, (args) -> {
				registrar.accept((Runnable) args[1]);
				return null;
			});
			exit.getMethod("setShutdownHookAdder", adder).invoke(null, registering);
			return null;
		});
	}

	private static Class<?> exitClass() {
		ClassLoader classLoader = KafkaInternals.class.getClassLoader();
		return EXIT_CLASSES.stream()
			.filter((name) -> ClassUtils.isPresent(name, classLoader))
			.findFirst()
			.map((name) -> ClassUtils.resolveClassName(name, classLoader))
			.orElseThrow(() -> new IllegalStateException(
					unsupported("control how Kafka exits", "none of " + EXIT_CLASSES + " is on the class path")));
	}

	private static Object implement(Class<?> functionalInterface, Handler handler) {
		return Proxy.newProxyInstance(functionalInterface.getClassLoader(), new Class<?>[] { functionalInterface },
				(proxy, method, args) -> switch (method.getName()) {
					case "equals" -> proxy == args[0];
					case "hashCode" -> System.identityHashCode(proxy);
					case "toString" -> "follower-fetch " + functionalInterface.getSimpleName();
					default -> handler.handle(args);
				});
	}

	/**
	 * Fail early, and say why, when Kafka's test kit is not the version of the clients and
	 * brokers: the mix fails later inside a broker, with a {@link NoSuchMethodError}.
	 */
	static void checkTestKitVersion() {
		CodeSource source = KafkaClusterTestKit.class.getProtectionDomain().getCodeSource();
		if (source != null && source.getLocation() != null) {
			checkTestKitVersion(source.getLocation().getPath(), kafkaVersion());
		}
	}

	static void checkTestKitVersion(String testKitLocation, String kafkaVersion) {
		Matcher jar = TEST_KIT_JAR.matcher(testKitLocation);
		if (jar.find() && !jar.group(1).equals(kafkaVersion)) {
			throw new IllegalStateException("Kafka's test kit (kafka-test-common-runtime) is version " + jar.group(1)
					+ " but Kafka is version " + kafkaVersion + ": pin org.apache.kafka:kafka-test-common-runtime and "
					+ "org.apache.kafka:kafka-test-common-internal-api to the Kafka version (see follower-fetch's "
					+ "docs/testing.md)");
		}
	}

	static String kafkaVersion() {
		return Brokers.kafkaVersion();
	}

	private static String unsupported(String action, String cause) {
		return "Cannot " + action + " with Kafka " + kafkaVersion() + " (" + cause
				+ "): Kafka's internals changed, and follower-fetch-test's KafkaInternals needs an update for this version, "
				+ "or Kafka's jars and their dependencies are of mixed versions";
	}

	private static <T> T call(String action, Callable<T> call) {
		try {
			return call.call();
		}
		catch (LinkageError | ReflectiveOperationException | ClassCastException ex) {
			throw new IllegalStateException(unsupported(action, ex.toString()), ex);
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Failed to " + action + " (Kafka " + kafkaVersion() + ")", ex);
		}
	}

	@FunctionalInterface
	private interface Handler {

		Object handle(Object[] args);

	}

	/**
	 * Pre-binds listener ports on the loopback address instead of the wildcard address.
	 */
	private static final class LoopbackSocketFactoryManager extends PreboundSocketFactoryManager {

		private final Map<String, ServerSocketChannel> sockets = new HashMap<>();

		private final Map<String, Integer> ports = new HashMap<>();

		private final Set<String> used = new HashSet<>();

		private boolean closed;

		@Override
		public synchronized int getOrCreatePortForListener(int nodeId, String listener) throws IOException {
			ServerSocketChannel socket = this.sockets.get(key(nodeId, listener));
			if (socket == null) {
				Assert.state(!this.closed, "Cannot open new socket: manager is closed");
				socket = ServerSocketFactory.INSTANCE.openServerSocket(listener,
						new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), -1, -1);
				this.sockets.put(key(nodeId, listener), socket);
				this.ports.put(key(nodeId, listener), ((InetSocketAddress) socket.getLocalAddress()).getPort());
			}
			return this.ports.get(key(nodeId, listener));
		}

		@Override
		public synchronized ServerSocketChannel getSocketForListenerAndMarkAsUsed(int nodeId, String listener) {
			String key = key(nodeId, listener);
			ServerSocketChannel socket = this.sockets.get(key);
			if (socket != null && !socket.isOpen()) {
				socket = rebind(listener, this.ports.get(key));
				this.sockets.put(key, socket);
			}
			if (socket != null) {
				this.used.add(key);
			}
			return socket;
		}

		/**
		 * A restarted server closed its socket when it stopped; it listens on the same
		 * loopback port again so that clients find it where they left it. Left to the test
		 * kit, the new socket would be bound to the listener's configured host, which may
		 * be the wildcard address.
		 */
		private static ServerSocketChannel rebind(String listener, int port) {
			try {
				return ServerSocketFactory.INSTANCE.openServerSocket(listener,
						new InetSocketAddress(InetAddress.getLoopbackAddress(), port), -1, -1);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Cannot listen on loopback port " + port + " again", ex);
			}
		}

		@Override
		public synchronized void close() {
			if (!this.closed) {
				this.closed = true;
				this.sockets.forEach((key, socket) -> {
					if (!this.used.contains(key)) {
						Utils.closeQuietly(socket, "unused listener socket " + key);
					}
				});
			}
		}

		private static String key(int nodeId, String listener) {
			return nodeId + "/" + listener;
		}

	}

}
