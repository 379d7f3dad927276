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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.springframework.util.Assert;

/**
 * The network between the zones of a {@link MultiZoneKafkaCluster}: every path from a zone
 * to a broker is a {@link LoopbackLink} of its own, so that a fault can cut any set of
 * paths. Each broker gets one listener per zone for clients ({@code CLIENTS_FROM_i}) and
 * one per zone for replication ({@code BROKERS_FROM_i}, the inter-broker listener of the
 * broker in zone {@code i}), each advertised as the port of its link; broker-only nodes
 * reach the controller through a link of their own too. A client in a zone bootstraps
 * through {@link #bootstrapServers(String)} and from then on gets, from the brokers'
 * metadata, the addresses of its own zone's links. The harness's own clients use the
 * brokers' unproxied listener, which no fault touches.
 *
 * @author follower-fetch authors
 */
final class ZoneNetwork implements AutoCloseable {

	private static final String HOST = "127.0.0.1";

	private static final int CLIENTS = 0;

	private static final int BROKERS = 1;

	private static final int CONTROLLER = 2;

	private final List<String> zones;

	private final Map<Path, LoopbackLink> links = new LinkedHashMap<>();

	private int controllerId = -1;

	ZoneNetwork(List<String> zones) {
		this.zones = List.copyOf(zones);
	}

	static String clientListener(int zoneIndex) {
		return "CLIENTS_FROM_" + zoneIndex;
	}

	static String brokerListener(int zoneIndex) {
		return "BROKERS_FROM_" + zoneIndex;
	}

	/**
	 * The listener names each broker binds besides the test kit's own.
	 */
	List<String> listenerNames() {
		List<String> names = new ArrayList<>();
		for (int zone = 0; zone < this.zones.size(); zone++) {
			names.add(clientListener(zone));
			names.add(brokerListener(zone));
		}
		return names;
	}

	/**
	 * Open a link in front of every listener port and return the listener properties of
	 * each broker.
	 * @param external the test kit's broker listener (left unproxied, for the harness)
	 * @param controller the controller listener
	 * @param controllerId the node id of the only controller, combined with that broker
	 * @param ports the bound port of a node's listener
	 * @return {@code listeners}, {@code advertised.listeners},
	 * {@code listener.security.protocol.map}, {@code inter.broker.listener.name} and, on
	 * broker-only nodes, {@code controller.quorum.voters}, by broker id
	 */
	synchronized Map<Integer, Map<String, String>> wire(String external, String controller, int controllerId,
			ListenerPorts ports) throws IOException {
		Assert.state(this.links.isEmpty(), "The zone network is wired already");
		this.controllerId = controllerId;
		List<String> names = listenerNames();
		String protocols = names.stream()
			.map((name) -> name + ":PLAINTEXT")
			.collect(Collectors.joining(",", external + ":PLAINTEXT," + controller + ":PLAINTEXT,", ""));
		int controllerPort = ports.port(controllerId, controller);
		Map<Integer, Map<String, String>> properties = new TreeMap<>();
		for (int broker = 0; broker < this.zones.size(); broker++) {
			List<String> listeners = new ArrayList<>();
			List<String> advertised = new ArrayList<>();
			String direct = external + "://localhost:" + ports.port(broker, external);
			listeners.add(direct);
			advertised.add(direct);
			if (broker == controllerId) {
				listeners.add(controller + "://localhost:" + controllerPort);
			}
			for (int from = 0; from < this.zones.size(); from++) {
				for (String name : List.of(clientListener(from), brokerListener(from))) {
					int port = ports.port(broker, name);
					LoopbackLink link = open(new Path(name.equals(clientListener(from)) ? CLIENTS : BROKERS, from, broker),
							port);
					listeners.add(name + "://" + HOST + ":" + port);
					advertised.add(name + "://" + HOST + ":" + link.port());
				}
			}
			Map<String, String> config = new LinkedHashMap<>();
			config.put("listeners", String.join(",", listeners));
			config.put("advertised.listeners", String.join(",", advertised));
			config.put("listener.security.protocol.map", protocols);
			config.put("inter.broker.listener.name", brokerListener(broker));
			if (broker != controllerId) {
				LoopbackLink link = open(new Path(CONTROLLER, broker, controllerId), controllerPort);
				config.put("controller.quorum.voters", controllerId + "@" + HOST + ":" + link.port());
			}
			properties.put(broker, config);
		}
		return properties;
	}

	private LoopbackLink open(Path path, int targetPort) {
		String name = switch (path.kind()) {
			case CLIENTS -> "clients in " + this.zones.get(path.from()) + " -> broker " + path.to();
			case BROKERS -> "broker in " + this.zones.get(path.from()) + " -> broker " + path.to();
			default -> "broker " + path.from() + " -> controller " + path.to();
		};
		LoopbackLink link = new LoopbackLink(name, targetPort);
		this.links.put(path, link);
		return link;
	}

	/**
	 * The bootstrap servers of a client in the given zone.
	 */
	synchronized String bootstrapServers(String zone) {
		int from = zoneIndex(zone);
		List<String> servers = new ArrayList<>();
		for (int broker = 0; broker < this.zones.size(); broker++) {
			servers.add(HOST + ":" + link(new Path(CLIENTS, from, broker)).port());
		}
		return String.join(",", servers);
	}

	/**
	 * Cut every path between a zone and the other zones, both ways: clients and broker of
	 * the zone reach nothing outside it, nothing outside reaches them.
	 */
	synchronized List<String> partition(String zone, LoopbackLink.State state) {
		int cut = zoneIndex(zone);
		return set(state, (link) -> crosses(link, cut));
	}

	/**
	 * Cut the broker of a zone from the other brokers and the controller, both ways;
	 * clients of every zone still reach it.
	 */
	synchronized List<String> isolateBroker(String zone, LoopbackLink.State state) {
		int broker = zoneIndex(zone);
		return set(state, (link) -> link.kind() != CLIENTS && crosses(link, broker));
	}

	/**
	 * Cut the paths from the clients of one zone to the broker of another (or the same)
	 * zone.
	 */
	synchronized List<String> cutClients(String clientZone, String brokerZone) {
		return cutClients(clientZone, brokerZone, LoopbackLink.State.BLACK_HOLE);
	}

	synchronized List<String> cutClients(String clientZone, String brokerZone, LoopbackLink.State state) {
		int from = zoneIndex(clientZone);
		int broker = zoneIndex(brokerZone);
		return set(state, (link) -> link.kind() == CLIENTS && link.from() == from && link.to() == broker);
	}

	/**
	 * Cut every path to and from the broker of a zone, its own zone's clients included.
	 */
	synchronized List<String> kill(String zone, LoopbackLink.State state) {
		int broker = zoneIndex(zone);
		return set(state, (link) -> link.to() == broker || (link.kind() != CLIENTS && link.from() == broker)
				|| (link.kind() == CONTROLLER && broker == this.controllerId));
	}

	/**
	 * Open every path again.
	 */
	synchronized void heal() {
		this.links.values().forEach((link) -> link.set(LoopbackLink.State.OPEN));
	}

	/**
	 * The paths that are not open, with their state.
	 */
	synchronized Map<String, LoopbackLink.State> cut() {
		Map<String, LoopbackLink.State> cut = new LinkedHashMap<>();
		this.links.values()
			.stream()
			.filter((link) -> link.state() != LoopbackLink.State.OPEN)
			.forEach((link) -> cut.put(link.name(), link.state()));
		return cut;
	}

	@Override
	public synchronized void close() {
		this.links.values().forEach(LoopbackLink::close);
	}

	private boolean crosses(Path link, int zone) {
		if (link.kind() == CONTROLLER) {
			return link.from() == zone || zone == this.controllerId;
		}
		return (link.from() == zone) != (link.to() == zone);
	}

	private List<String> set(LoopbackLink.State state, Predicate<Path> which) {
		Assert.isTrue(state != LoopbackLink.State.OPEN, "Use heal() to open paths");
		List<String> names = new ArrayList<>();
		this.links.forEach((path, link) -> {
			if (which.test(path)) {
				link.set(state);
				names.add(link.name());
			}
		});
		return names;
	}

	private LoopbackLink link(Path path) {
		LoopbackLink link = this.links.get(path);
		Assert.state(link != null, () -> "No link " + path + "; the zone network is not wired");
		return link;
	}

	private int zoneIndex(String zone) {
		int index = this.zones.indexOf(zone);
		Assert.isTrue(index >= 0, () -> "No zone '" + zone + "'; zones are " + this.zones);
		return index;
	}

	/**
	 * A path from a zone (or, for the controller, a broker) to a broker.
	 */
	private record Path(int kind, int from, int to) {

	}

	/**
	 * Binds a node's listener and returns its port.
	 */
	@FunctionalInterface
	interface ListenerPorts {

		int port(int nodeId, String listener) throws IOException;

	}

}
