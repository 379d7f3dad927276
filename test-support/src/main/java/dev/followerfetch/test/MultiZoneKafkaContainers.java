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

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.model.ContainerNetwork;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.containers.Network;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

import org.springframework.util.Assert;

import static org.awaitility.Awaitility.await;

/**
 * A multi-zone Kafka cluster of broker processes, one {@code apache/kafka} container per
 * zone on a Docker network of its own, configured by a {@link MultiZoneContainerPlan}:
 * every node is broker and controller (three controllers for three zones), with
 * {@code broker.rack} set to its zone and the rack-aware replica selector. What only
 * processes show: a broker killed with {@code SIGKILL} and started again with the same
 * node id, log directory and address, so that it recovers its log
 * ({@link #killBroker(int)}, {@link #startBroker(int)}); a controlled shutdown by the
 * broker's own signal handler ({@link #stopBroker(int)}); brokers of another Kafka
 * version than the application's clients ({@link Builder#image(DockerImageName)}).
 * <p>
 * Each broker's client port is mapped to a fixed port on the Docker host, chosen free at
 * start, so that a restarted broker keeps its advertised address. Needs
 * {@code org.testcontainers:testcontainers-kafka} on the test class path
 * (follower-fetch-test declares it optional). Start with {@link #builder()}.
 *
 * @author follower-fetch authors
 */
public final class MultiZoneKafkaContainers implements ZonedKafkaCluster {

	/**
	 * The line a broker logs once it serves clients, which Testcontainers'
	 * {@code KafkaContainer} waits for too.
	 */
	static final String RUNNING = "Transitioning from RECOVERY to RUNNING";

	private static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

	/**
	 * Signals every Kafka server process of a container, whatever the image's entry point
	 * wraps it in: {@code docker stop} signals only the container's first process.
	 */
	private static final String SIGNAL_KAFKA = "for p in /proc/[0-9]*; do [ ${p#/proc/} != $$ ] "
			+ "&& grep -qa kafka.Kafka $p/cmdline 2>/dev/null && kill -%s ${p#/proc/}; done; true";

	/**
	 * The container's command: Testcontainers' own runs its start-up script as soon as the
	 * file exists, and on a busy host the engine may still be writing it ("Text file busy",
	 * testcontainers-java#11682). This one waits until the script names the image's entry
	 * point, its last line, and has the shell read it rather than execute the file.
	 */
	private static final String START = "until grep -qs '^/etc/kafka/docker/run' /tmp/testcontainers_start.sh; "
			+ "do sleep 0.1; done; exec bash /tmp/testcontainers_start.sh";

	private final MultiZoneContainerPlan plan;

	private final DockerImageName image;

	private final Duration timeout;

	private final Network network;

	private final List<KafkaContainer> containers;

	private final Map<Integer, Output> outputs = new LinkedHashMap<>();

	private final ClusterClients clients;

	private final Set<Integer> stopped = new TreeSet<>();

	private boolean closed;

	private MultiZoneKafkaContainers(MultiZoneContainerPlan plan, DockerImageName image, Duration timeout,
			Network network, List<KafkaContainer> containers) {
		this.plan = plan;
		this.image = image;
		this.timeout = timeout;
		this.network = network;
		this.containers = containers;
		for (int id = 0; id < containers.size(); id++) {
			this.outputs.put(id, Output.follow(containers.get(id)));
		}
		this.clients = new ClusterClients(bootstrapServers(), timeout);
	}

	/**
	 * Return a builder for a cluster in the {@linkplain MultiZoneKafkaCluster#DEFAULT_ZONES
	 * default zones}, of the {@code apache/kafka} image of the kafka-clients version on the
	 * class path.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Start one {@code apache/kafka} container per zone, of the version of kafka-clients
	 * on the class path, and wait until every one runs.
	 * @param zones distinct zone names, in node id order
	 * @return the running cluster
	 */
	public static MultiZoneKafkaContainers start(String... zones) {
		return builder().zones(zones).start();
	}

	/**
	 * Start one container of the given image per zone and wait until every one runs.
	 * @param image an {@code apache/kafka} or {@code apache/kafka-native} image
	 * @param zones distinct zone names, in node id order
	 * @return the running cluster
	 */
	public static MultiZoneKafkaContainers start(DockerImageName image, String... zones) {
		return builder().image(image).zones(zones).start();
	}

	/**
	 * The {@code apache/kafka} image of the kafka-clients version on the class path.
	 * @return the image name
	 */
	public static DockerImageName defaultImage() {
		return DockerImageName.parse("apache/kafka").withTag(Brokers.kafkaVersion());
	}

	/**
	 * Skip the calling test, with one line that says why, where containers of the image
	 * cannot run: no Docker engine, or an image neither present nor pulled within 30 s.
	 * With the system property {@code follower-fetch.test.containers=required} the test
	 * fails instead.
	 * @param image the image the test runs
	 */
	public static void assumeRunnable(DockerImageName image) {
		DockerImages.unavailable(image).ifPresent((reason) -> {
			if (DockerImages.required()) {
				throw new IllegalStateException(reason + " (and " + DockerImages.PROPERTY + "=required)");
			}
			Assumptions.abort(reason);
		});
	}

	@Override
	public String bootstrapServers() {
		return this.containers.stream().map(KafkaContainer::getBootstrapServers).collect(Collectors.joining(","));
	}

	@Override
	public List<String> zones() {
		return this.plan.zones();
	}

	/**
	 * Return the image every broker runs.
	 * @return the image name
	 */
	public DockerImageName image() {
		return this.image;
	}

	@Override
	public void createTopic(String name, Map<Integer, List<Integer>> replicaAssignment) {
		this.clients.createTopic(name, replicaAssignment, zones().size(), MultiZoneKafkaContainers::noBrokerCheck);
	}

	@Override
	public TopicDescription describeTopic(String name) {
		return this.clients.describeTopic(name);
	}

	@Override
	public void produce(String topic, int count, int recordSizeBytes) {
		this.clients.produce(topic, count, recordSizeBytes);
	}

	@Override
	public void awaitInSync(String topic) {
		this.clients.awaitInSync(topic, MultiZoneKafkaContainers::noBrokerCheck);
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The broker process gets {@code SIGTERM}, on which Kafka shuts down in a controlled
	 * way; this returns once its container has exited and the cluster metadata no longer
	 * lists it.
	 */
	@Override
	public synchronized void stopBroker(int brokerId) {
		KafkaContainer container = running(brokerId);
		signal(container, "TERM");
		awaitExit(container, "stop broker " + brokerId);
		this.stopped.add(brokerId);
		awaitListed(brokerId, false);
	}

	/**
	 * Kill a broker's process with {@code SIGKILL}: no controlled shutdown, nothing
	 * flushed, its sockets closed by the host, so that its peers are refused at once and
	 * the controller fences it after {@code broker.session.timeout.ms}. Returns once its
	 * container has exited; {@link #startBroker(int)} brings it back, and it recovers its
	 * log on start (its output says so: {@link #logs(int)}).
	 * @param brokerId a broker id of this cluster
	 */
	public synchronized void killBroker(int brokerId) {
		KafkaContainer container = running(brokerId);
		signal(container, "KILL");
		awaitExit(container, "kill broker " + brokerId);
		this.stopped.add(brokerId);
	}

	/**
	 * Kill the broker of a zone, as {@link #killBroker(int)} does.
	 * @param zone a zone of this cluster
	 */
	public void kill(String zone) {
		killBroker(brokerId(zone));
	}

	/**
	 * {@inheritDoc}
	 * <p>
	 * The broker's container starts again with its file system, so with its log directory
	 * and the storage it formatted, under the same network alias and on the same host port.
	 */
	@Override
	public synchronized void startBroker(int brokerId) {
		Assert.state(this.stopped.contains(brokerId), () -> "Broker " + brokerId + " is running");
		KafkaContainer container = this.containers.get(brokerId);
		int runs = this.outputs.get(brokerId).runs();
		container.getDockerClient().startContainerCmd(container.getContainerId()).exec();
		this.stopped.remove(brokerId);
		this.outputs.put(brokerId, this.outputs.get(brokerId).followAgain(container));
		await("broker " + brokerId + " running again").atMost(this.timeout)
			.pollInterval(Duration.ofMillis(100))
			.until(() -> this.outputs.get(brokerId).runs() > runs);
		awaitListed(brokerId, true);
	}

	/**
	 * Take the broker of a zone off the cluster's Docker network while its process keeps
	 * running: the other brokers and the controller quorum lose it, and so do clients on
	 * the host, whose mapped port goes through that network. {@link #reconnect(String)}
	 * undoes it.
	 * @param zone a zone of this cluster
	 */
	public void disconnect(String zone) {
		KafkaContainer container = this.containers.get(brokerId(zone));
		container.getDockerClient()
			.disconnectFromNetworkCmd()
			.withNetworkId(this.network.getId())
			.withContainerId(container.getContainerId())
			.withForce(true)
			.exec();
	}

	/**
	 * Connect a broker disconnected by {@link #disconnect(String)} again, under its alias.
	 * @param zone a zone of this cluster
	 */
	public void reconnect(String zone) {
		int id = brokerId(zone);
		KafkaContainer container = this.containers.get(id);
		container.getDockerClient()
			.connectToNetworkCmd()
			.withNetworkId(this.network.getId())
			.withContainerId(container.getContainerId())
			.withContainerNetwork(new ContainerNetwork().withAliases(this.plan.alias(id)))
			.exec();
	}

	/**
	 * Return what a broker has written to its standard output and error since its
	 * container was created, over every restart.
	 * @param brokerId a broker id of this cluster
	 * @return the broker's output
	 */
	public String logs(int brokerId) {
		rackOf(brokerId);
		// read to the end, not from the followed stream, which may still be replaying the first lines
		KafkaContainer container = this.containers.get(brokerId);
		Output output = container.getDockerClient()
			.logContainerCmd(container.getContainerId())
			.withStdOut(true)
			.withStdErr(true)
			.exec(new Output());
		try {
			if (!output.awaitCompletion(this.timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("The output of broker " + brokerId + " was not read within "
						+ this.timeout.toSeconds() + " s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while reading the output of broker " + brokerId, ex);
		}
		finally {
			output.close();
		}
		return output.text();
	}

	/**
	 * Stop every container and remove the network. Does nothing when already closed.
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			this.clients.close();
		}
		finally {
			this.outputs.values().forEach(Output::close);
			this.containers.forEach(KafkaContainer::stop);
			this.network.close();
		}
	}

	private KafkaContainer running(int brokerId) {
		rackOf(brokerId);
		Assert.state(!this.stopped.contains(brokerId), () -> "Broker " + brokerId + " is not running");
		return this.containers.get(brokerId);
	}

	private static void signal(KafkaContainer container, String signal) {
		DockerClient docker = container.getDockerClient();
		String exec = docker.execCreateCmd(container.getContainerId())
			.withCmd("sh", "-c", String.format(SIGNAL_KAFKA, signal))
			.exec()
			.getId();
		try {
			docker.execStartCmd(exec).start().awaitCompletion(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling " + container.getContainerName(), ex);
		}
	}

	private void awaitExit(KafkaContainer container, String action) {
		Integer status = container.getDockerClient()
			.waitContainerCmd(container.getContainerId())
			.exec(new WaitContainerResultCallback())
			.awaitStatusCode(this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		Assert.state(status != null, () -> "Timed out after " + this.timeout + " waiting to " + action);
	}

	private void awaitListed(int brokerId, boolean listed) {
		await("broker " + brokerId + (listed ? " in" : " gone from") + " the cluster metadata").atMost(this.timeout)
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptions()
			.until(() -> this.clients.liveBrokerIds().contains(brokerId) == listed);
	}

	private static void noBrokerCheck(String topic, Map<Integer, List<Integer>> assignment,
			List<TopicPartitionInfo> partitions) {
	}

	private static MultiZoneKafkaContainers start(ZonedKafkaClusterBuilder.Settings settings, DockerImageName image) {
		MultiZoneContainerPlan plan = new MultiZoneContainerPlan(settings.zones(), "follower-fetch-zones00",
				settings.replicaSelector(), settings.brokerProperties());
		boolean localDocker = isLocal(org.testcontainers.DockerClientFactory.instance().dockerHostIpAddress());
		Network network = Network.newNetwork();
		List<KafkaContainer> containers = new ArrayList<>();
		for (int id = 0; id < settings.zones().size(); id++) {
			int hostPort = freePort();
			KafkaContainer container = new KafkaContainer(image).withCommand("sh", "-c", START)
				.withNetwork(network)
				.withNetworkAliases(plan.alias(id))
				.withStartupTimeout(settings.timeout())
				.withCreateContainerCmdModifier((create) -> create.getHostConfig()
					.withPortBindings(new PortBinding(
							localDocker ? Ports.Binding.bindIpAndPort("127.0.0.1", hostPort)
									: Ports.Binding.bindPort(hostPort),
							ExposedPort.tcp(MultiZoneContainerPlan.CLIENT_PORT))));
			plan.environment(id).forEach(container::withEnv);
			containers.add(container);
		}
		try {
			Startables.deepStart(containers).join();
			return new MultiZoneKafkaContainers(plan, image, settings.timeout(), network, containers);
		}
		catch (RuntimeException ex) {
			containers.forEach(KafkaContainer::stop);
			network.close();
			throw ex;
		}
	}

	private static boolean isLocal(String host) {
		return "localhost".equals(host) || "127.0.0.1".equals(host);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException("No free port on the loopback interface", ex);
		}
	}

	/**
	 * What one container has written, followed from its first line: a stream follows one
	 * run of the container, so a restarted broker gets a new one that replays the earlier
	 * runs first.
	 */
	private static final class Output extends ResultCallback.Adapter<Frame> {

		private final StringBuffer text = new StringBuffer();

		static Output follow(KafkaContainer container) {
			return container.getDockerClient()
				.logContainerCmd(container.getContainerId())
				.withStdOut(true)
				.withStdErr(true)
				.withFollowStream(true)
				.exec(new Output());
		}

		Output followAgain(KafkaContainer container) {
			close();
			return follow(container);
		}

		@Override
		public void onNext(Frame frame) {
			this.text.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
		}

		String text() {
			return this.text.toString();
		}

		/**
		 * How often the broker has started serving clients.
		 */
		int runs() {
			String output = text();
			int runs = 0;
			for (int at = output.indexOf(RUNNING); at >= 0; at = output.indexOf(RUNNING, at + 1)) {
				runs++;
			}
			return runs;
		}

		@Override
		public void close() {
			try {
				super.close();
			}
			catch (IOException ex) {
				// the stream of a stopped container is gone already
			}
		}

	}

	/**
	 * Builder for {@link MultiZoneKafkaContainers}.
	 */
	public static final class Builder extends ZonedKafkaClusterBuilder<Builder> {

		private DockerImageName image = defaultImage();

		private Builder() {
			super(DEFAULT_TIMEOUT);
		}

		/**
		 * Run the given image instead of the {@code apache/kafka} image of the kafka-clients
		 * version on the class path, for example another Kafka line than the application's.
		 * @param image an {@code apache/kafka} or {@code apache/kafka-native} image
		 * @return this builder
		 */
		public Builder image(DockerImageName image) {
			Assert.notNull(image, "'image' must not be null");
			this.image = image;
			return this;
		}

		/**
		 * Start the containers and wait until every broker runs. On failure, whatever was
		 * started is stopped again.
		 * @return the running cluster
		 */
		public MultiZoneKafkaContainers start() {
			return MultiZoneKafkaContainers.start(settings(), this.image);
		}

	}

}
