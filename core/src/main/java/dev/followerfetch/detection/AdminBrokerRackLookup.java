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
package dev.followerfetch.detection;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.utils.Utils;

/**
 * Reads broker racks with {@code Admin.describeCluster()}, using the application's own
 * admin settings (bootstrap servers, security) and a short-lived client. When every
 * bootstrap server refuses the connection (no Kafka on a laptop or in a test), it fails at
 * once instead of letting the admin client retry until the timeout.
 *
 * @author follower-fetch authors
 */
final class AdminBrokerRackLookup implements BrokerRackLookup {

	private static final Duration MIN_CLOSE = Duration.ofMillis(100);

	private final Map<String, Object> adminConfig;

	AdminBrokerRackLookup(Map<String, Object> adminConfig) {
		this.adminConfig = new HashMap<>(adminConfig);
	}

	/**
	 * Creating and closing an admin client can block on name lookups and logins that no
	 * timeout of its own bounds, so the lookup runs on a daemon thread of its own and
	 * start-up waits for it only as long as the timeout allows.
	 */
	@Override
	public Set<String> brokerRacks(Duration timeout) throws Exception {
		CompletableFuture<Set<String>> result = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				result.complete(describeCluster(timeout));
			}
			catch (Throwable ex) {
				result.completeExceptionally(ex);
			}
		}, "follower-fetch-broker-racks");
		thread.setDaemon(true);
		thread.start();
		try {
			return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof Exception cause) ? cause : ex;
		}
		catch (TimeoutException ex) {
			thread.interrupt();
			throw new TimeoutException("no answer within " + timeout.toMillis() + " ms");
		}
	}

	private Set<String> describeCluster(Duration timeout) throws Exception {
		long start = System.nanoTime();
		failIfEveryBootstrapServerRefuses(timeout);
		Map<String, Object> config = new HashMap<>(this.adminConfig);
		int millis = (int) Math.max(timeout.toMillis(), 1);
		config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
		config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, millis);
		config.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "follower-fetch-rack-detection");
		Admin admin = Admin.create(config);
		try {
			return admin.describeCluster(new DescribeClusterOptions().timeoutMs(millis))
				.nodes()
				.get(millis, TimeUnit.MILLISECONDS)
				.stream()
				.map(Node::rack)
				.filter(Objects::nonNull)
				.collect(Collectors.toSet());
		}
		finally {
			long left = timeout.toNanos() - (System.nanoTime() - start);
			admin.close(Duration.ofNanos(Math.max(left, MIN_CLOSE.toNanos())));
		}
	}

	private void failIfEveryBootstrapServerRefuses(Duration timeout) throws ConnectException {
		List<String> refusals = new ArrayList<>();
		List<String> servers = bootstrapServers();
		for (String server : servers) {
			String host = Utils.getHost(server);
			Integer port = Utils.getPort(server);
			if (host == null || port == null) {
				return;
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(host, port), (int) Math.max(timeout.toMillis(), 1));
				return;
			}
			catch (ConnectException ex) {
				refusals.add(server + ": " + ex.getMessage());
			}
			catch (SocketTimeoutException ex) {
				return;
			}
			catch (IOException | RuntimeException ex) {
				refusals.add(server + ": " + FailureMessages.of(ex));
			}
		}
		if (!servers.isEmpty()) {
			throw new ConnectException("no bootstrap server accepts connections (" + String.join(", ", refusals) + ")");
		}
	}

	private List<String> bootstrapServers() {
		Object value = this.adminConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
		List<String> servers = new ArrayList<>();
		if (value instanceof Collection<?> collection) {
			collection.forEach((server) -> servers.add(String.valueOf(server).strip()));
		}
		else if (value instanceof String text) {
			for (String server : text.split(",")) {
				servers.add(server.strip());
			}
		}
		servers.removeIf(String::isEmpty);
		return servers;
	}

}
