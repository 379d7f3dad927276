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
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.jspecify.annotations.Nullable;

/**
 * One {@link ClusterInspector} per Kafka cluster the listeners read from. A listener whose
 * consumers use the bootstrap servers of the application's {@code KafkaAdmin} (or do not
 * say) is inspected with the admin's settings; a listener on another cluster with the
 * admin settings its own consumer configuration holds (bootstrap servers, security).
 *
 * @author follower-fetch authors
 */
final class ClusterInspectors implements AutoCloseable {

	private static final Set<String> ADMIN_CONFIG_NAMES = AdminClientConfig.configNames();

	// the consumers' own timing (their replica lease and request timeout) is not the monitor's
	private static final Set<String> CONSUMER_TIMING = Set.of(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
			AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, AdminClientConfig.METADATA_MAX_AGE_CONFIG);

	private static final String CLIENT_ID = "follower-fetch-monitor";

	private final Supplier<Map<String, Object>> adminConfig;

	private final Duration timeout;

	private final UnaryOperator<String> clientIds;

	private final ClusterInspector admin;

	private final Map<String, ClusterInspector> others = new LinkedHashMap<>();

	private @Nullable String adminCluster;

	private boolean closed;

	ClusterInspectors(Supplier<Map<String, Object>> adminConfig, Duration timeout) {
		this(adminConfig, timeout, UnaryOperator.identity());
	}

	/**
	 * Inspectors whose admin clients send the client ids {@code clientIds} makes of theirs.
	 * @param adminConfig the settings of the application's {@code KafkaAdmin}
	 * @param timeout the time each inspection may take
	 * @param clientIds the {@code client.id} to send for an inspector's own, asked when
	 * its admin client is created (with {@code follower-fetch.client-id-zone}, the tagged
	 * one)
	 */
	ClusterInspectors(Supplier<Map<String, Object>> adminConfig, Duration timeout, UnaryOperator<String> clientIds) {
		this.adminConfig = adminConfig;
		this.timeout = timeout;
		this.clientIds = clientIds;
		this.admin = new ClusterInspector(adminConfig, timeout, () -> clientIds.apply(CLIENT_ID));
	}

	/**
	 * The inspector of the cluster a listener's consumers read from.
	 * @param consumerConfig the consumers' configuration, empty when unknown
	 * @return the inspector
	 */
	synchronized ClusterInspector forConsumers(Map<String, Object> consumerConfig) {
		String cluster = cluster(consumerConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
		if (this.closed || cluster == null || cluster.equals(adminCluster())) {
			return this.admin;
		}
		String clientId = CLIENT_ID + "-" + (this.others.size() + 2);
		return this.others.computeIfAbsent(cluster, (key) -> new ClusterInspector(() -> adminConfigOf(consumerConfig),
				this.timeout, () -> this.clientIds.apply(clientId)));
	}

	/**
	 * The bootstrap servers an inspector reads, for messages.
	 * @param inspector an inspector of this registry
	 * @return the bootstrap servers, or {@code null} for the application's admin
	 */
	synchronized @Nullable String clusterOf(ClusterInspector inspector) {
		return this.others.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() == inspector)
			.map(Map.Entry::getKey)
			.findFirst()
			.orElse(null);
	}

	private @Nullable String adminCluster() {
		if (this.adminCluster == null) {
			try {
				this.adminCluster = cluster(this.adminConfig.get().get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
			}
			catch (RuntimeException ex) {
				return null;
			}
		}
		return this.adminCluster;
	}

	static Map<String, Object> adminConfigOf(Map<String, Object> consumerConfig) {
		Map<String, Object> config = new HashMap<>();
		consumerConfig.forEach((name, value) -> {
			if (ADMIN_CONFIG_NAMES.contains(name) && !CONSUMER_TIMING.contains(name) && value != null) {
				config.put(name, value);
			}
		});
		return config;
	}

	/**
	 * The bootstrap servers in one canonical form, so that {@code "a:9092, b:9092"} and
	 * {@code List.of("b:9092", "a:9092")} name the same cluster.
	 */
	static @Nullable String cluster(@Nullable Object bootstrapServers) {
		Collection<?> servers;
		if (bootstrapServers instanceof Collection<?> collection) {
			servers = collection;
		}
		else if (bootstrapServers instanceof String text) {
			servers = Arrays.asList(text.split(","));
		}
		else {
			return null;
		}
		Set<String> canonical = servers.stream()
			.map((server) -> String.valueOf(server).strip())
			.filter((server) -> !server.isEmpty())
			.collect(Collectors.toCollection(TreeSet::new));
		return canonical.isEmpty() ? null : String.join(",", canonical);
	}

	/**
	 * Close the admin clients of the inspectors a refresh did not use.
	 * @param used the inspectors of the clusters the application reads or writes
	 */
	void idleExcept(Collection<ClusterInspector> used) {
		List<ClusterInspector> idle;
		synchronized (this) {
			idle = new ArrayList<>(this.others.values());
			idle.add(this.admin);
		}
		idle.stream().filter((inspector) -> !used.contains(inspector)).forEach(ClusterInspector::idle);
	}

	/**
	 * Allow inspectors to be created and used again after {@link #close()}.
	 */
	synchronized void reopen() {
		this.closed = false;
		this.admin.reopen();
	}

	@Override
	public void close() {
		List<ClusterInspector> all;
		synchronized (this) {
			this.closed = true;
			all = new ArrayList<>(this.others.values());
			this.others.clear();
		}
		all.add(this.admin);
		all.forEach(ClusterInspector::close);
	}

}
