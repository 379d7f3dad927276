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
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import org.jspecify.annotations.Nullable;

/**
 * A loopback HTTP server that plays the cloud metadata endpoints as strictly as the real
 * ones (IMDSv2 token and headers, GCP and Azure metadata headers, the ECS task document)
 * and can misbehave on demand. It records every request it receives.
 *
 * @author follower-fetch authors
 */
final class MetadataStubServer implements AutoCloseable {

	static final String TOKEN_PATH = "/latest/api/token";

	static final String TOKEN_TTL_HEADER = "X-aws-ec2-metadata-token-ttl-seconds";

	static final String TOKEN_HEADER = "X-aws-ec2-metadata-token";

	static final String AZ_NAME_PATH = "/latest/meta-data/placement/availability-zone";

	static final String AZ_ID_PATH = "/latest/meta-data/placement/availability-zone-id";

	static final String GCP_ZONE_PATH = "/computeMetadata/v1/instance/zone";

	static final String AZURE_ZONE_PATH = "/metadata/instance/compute/zone";

	static final String AZURE_LOCATION_PATH = "/metadata/instance/compute/location";

	static final String ECS_BASE_PATH = "/v4/3f8a3c5e0c5f4b8e9a1d2b7c6e5f4a3b-2531612879";

	private static final Duration MAX_HOLD = Duration.ofSeconds(60);

	private final HttpServer server;

	private final String scheme;

	private final ExecutorService executor;

	private final CountDownLatch closed = new CountDownLatch(1);

	private final Map<String, Responder> routes = new ConcurrentHashMap<>();

	private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();

	private final Set<String> validTokens = ConcurrentHashMap.newKeySet();

	private final AtomicLong bytesStreamed = new AtomicLong();

	private final AtomicInteger openStreams = new AtomicInteger();

	private volatile Responder fallback;

	private MetadataStubServer(@Nullable SSLContext tls, InetAddress address) throws IOException {
		this.executor = Executors.newCachedThreadPool((runnable) -> {
			Thread thread = new Thread(runnable, "metadata-stub");
			thread.setDaemon(true);
			return thread;
		});
		InetSocketAddress loopback = new InetSocketAddress(address, 0);
		if (tls != null) {
			HttpsServer https = HttpsServer.create(loopback, 50);
			https.setHttpsConfigurator(new HttpsConfigurator(tls));
			this.server = https;
		}
		else {
			this.server = HttpServer.create(loopback, 50);
		}
		this.scheme = (tls != null) ? "https" : "http";
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	static MetadataStubServer start() throws IOException {
		return new MetadataStubServer(null, InetAddress.getLoopbackAddress());
	}

	/**
	 * A stub that answers over TLS, as a Kubernetes API server does.
	 * @param tls the server's certificate and key
	 * @return the stub
	 * @throws IOException if it cannot listen
	 */
	static MetadataStubServer startTls(SSLContext tls) throws IOException {
		return startTls(tls, InetAddress.getLoopbackAddress());
	}

	/**
	 * A stub that answers over TLS on the given loopback address, IPv6 included.
	 * @param tls the server's certificate and key
	 * @param loopback the address to listen on
	 * @return the stub
	 * @throws IOException if it cannot listen
	 */
	static MetadataStubServer startTls(SSLContext tls, InetAddress loopback) throws IOException {
		return new MetadataStubServer(tls, loopback);
	}

	URI uri() {
		InetAddress address = this.server.getAddress().getAddress();
		String host = (address instanceof Inet6Address) ? "[" + address.getHostAddress() + "]" : "127.0.0.1";
		return URI.create(this.scheme + "://" + host + ":" + this.server.getAddress().getPort());
	}

	URI uri(String path) {
		return uri().resolve(path);
	}

	String hostAndPort() {
		return "127.0.0.1:" + this.server.getAddress().getPort();
	}

	List<RecordedRequest> requests() {
		return List.copyOf(this.requests);
	}

	List<RecordedRequest> requests(String path) {
		return this.requests.stream().filter((request) -> request.path().equals(path)).toList();
	}

	/**
	 * Answer requests for a path (query ignored) with the given responder, replacing any
	 * earlier route or personality for that path.
	 * @param path the path
	 * @param responder what to answer
	 * @return this stub
	 */
	MetadataStubServer route(String path, Responder responder) {
		this.routes.put(path, responder);
		return this;
	}

	/**
	 * Answer requests for every path that has no route of its own with the given
	 * responder, instead of 404.
	 * @param responder what to answer
	 * @return this stub
	 */
	MetadataStubServer fallback(Responder responder) {
		this.fallback = responder;
		return this;
	}

	/**
	 * Every IMDS token this stub has issued, expired or not.
	 * @return the tokens
	 */
	Set<String> issuedTokens() {
		return Set.copyOf(this.validTokens);
	}

	/**
	 * How many body bytes the {@link #huge(long) huge} responders have written so far.
	 * @return the count
	 */
	long bytesStreamed() {
		return this.bytesStreamed.get();
	}

	/**
	 * How many {@link #huge(long) huge} bodies are still being written.
	 * @return the count
	 */
	int openStreams() {
		return this.openStreams.get();
	}

	/**
	 * Play EC2 instance metadata: the token endpoint and both placement attributes.
	 * @param mode how IMDS treats tokens
	 * @param zoneName the AZ name, for example {@code us-east-1b}
	 * @param zoneId the AZ id, for example {@code use1-az2}
	 * @return this stub
	 */
	MetadataStubServer imds(ImdsMode mode, String zoneName, String zoneId) {
		route(TOKEN_PATH, (exchange) -> issueToken(exchange, mode));
		route(AZ_NAME_PATH, (exchange) -> imdsGet(exchange, mode, zoneName));
		route(AZ_ID_PATH, (exchange) -> imdsGet(exchange, mode, zoneId));
		return this;
	}

	/**
	 * Play the GCP metadata server's zone attribute.
	 * @param body the body to answer, normally {@code projects/<number>/zones/<zone>}
	 * @return this stub
	 */
	MetadataStubServer gcp(String body) {
		return route(GCP_ZONE_PATH, (exchange) -> {
			if (!"GET".equals(exchange.getRequestMethod())) {
				send(exchange, 405, "Method Not Allowed");
				return;
			}
			if (!"Google".equals(exchange.getRequestHeaders().getFirst("Metadata-Flavor"))) {
				send(exchange, 403, "Missing Metadata-Flavor:Google header.");
				return;
			}
			exchange.getResponseHeaders().set("Metadata-Flavor", "Google");
			exchange.getResponseHeaders().set("Content-Type", "application/text");
			send(exchange, 200, body);
		});
	}

	/**
	 * Play Azure instance metadata's {@code compute/zone} and {@code compute/location} in
	 * text format.
	 * @param zone the zone, for example {@code 2}, or empty for a VM without a zone
	 * @param location the location, for example {@code eastus}
	 * @return this stub
	 */
	MetadataStubServer azure(String zone, String location) {
		route(AZURE_ZONE_PATH, (exchange) -> azureGet(exchange, zone));
		return route(AZURE_LOCATION_PATH, (exchange) -> azureGet(exchange, location));
	}

	/**
	 * Play the ECS task metadata endpoint v4 under {@link #ECS_BASE_PATH}.
	 * @param availabilityZone the AZ of the task
	 * @return this stub
	 */
	MetadataStubServer ecs(String availabilityZone) {
		return route(ECS_BASE_PATH + "/task", (exchange) -> {
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			send(exchange, 200, ecsTaskDocument(availabilityZone));
		});
	}

	/**
	 * A task document shaped like the ones ECS returns on Fargate (platform 1.4+).
	 * @param availabilityZone the AZ of the task
	 * @return the document
	 */
	static String ecsTaskDocument(String availabilityZone) {
		return """
				{
				  "Cluster": "arn:aws:ecs:us-east-1:111122223333:cluster/orders",
				  "TaskARN": "arn:aws:ecs:us-east-1:111122223333:task/orders/3f8a3c5e0c5f4b8e9a1d2b7c6e5f4a3b",
				  "Family": "orders-consumer",
				  "Revision": "42",
				  "DesiredStatus": "RUNNING",
				  "KnownStatus": "RUNNING",
				  "Limits": { "CPU": 0.5, "Memory": 1024 },
				  "PullStartedAt": "2026-03-02T09:15:01.123456789Z",
				  "PullStoppedAt": "2026-03-02T09:15:07.987654321Z",
				  "AvailabilityZone": "%s",
				  "LaunchType": "FARGATE",
				  "Containers": [
				    {
				      "DockerId": "3f8a3c5e0c5f4b8e9a1d2b7c6e5f4a3b-2531612879",
				      "Name": "consumer",
				      "DockerName": "consumer",
				      "Image": "111122223333.dkr.ecr.us-east-1.amazonaws.com/orders-consumer:1.4.2",
				      "ImageID": "sha256:8d2f1c0e7b6a5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c",
				      "Labels": {
				        "com.amazonaws.ecs.cluster": "arn:aws:ecs:us-east-1:111122223333:cluster/orders",
				        "com.amazonaws.ecs.container-name": "consumer",
				        "com.amazonaws.ecs.task-definition-family": "orders-consumer",
				        "com.amazonaws.ecs.task-definition-version": "42"
				      },
				      "DesiredStatus": "RUNNING",
				      "KnownStatus": "RUNNING",
				      "Limits": { "CPU": 2, "Memory": 0 },
				      "CreatedAt": "2026-03-02T09:15:08.111Z",
				      "StartedAt": "2026-03-02T09:15:08.456Z",
				      "Type": "NORMAL",
				      "Networks": [
				        {
				          "NetworkMode": "awsvpc",
				          "IPv4Addresses": [ "10.0.12.34" ],
				          "AttachmentIndex": 0,
				          "MACAddress": "0a:1b:2c:3d:4e:5f",
				          "IPv4SubnetCIDRBlock": "10.0.12.0/24",
				          "PrivateDNSName": "ip-10-0-12-34.ec2.internal",
				          "SubnetGatewayIpv4Address": "10.0.12.1/24"
				        }
				      ],
				      "Snapshotter": "overlayfs"
				    }
				  ],
				  "ClockDrift": {
				    "ClockErrorBound": 0.4,
				    "ReferenceTimestamp": "2026-03-02T09:14:00Z",
				    "ClockSynchronizationStatus": "SYNCHRONIZED"
				  },
				  "EphemeralStorageMetrics": { "Utilized": 261, "Reserved": 20496 }
				}
				""".formatted(availabilityZone);
	}

	@Override
	public void close() {
		this.closed.countDown();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			byte[] body = exchange.getRequestBody().readAllBytes();
			Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
			exchange.getRequestHeaders().forEach((name, values) -> headers.put(name, List.copyOf(values)));
			this.requests.add(new RecordedRequest(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
					exchange.getRequestURI().getRawQuery(), headers, body));
			Responder responder = this.routes.getOrDefault(exchange.getRequestURI().getRawPath(), this.fallback);
			if (responder == null) {
				send(exchange, 404, "Not Found");
				return;
			}
			responder.respond(exchange);
		}
		catch (IOException | RuntimeException ex) {
			// the client went away; nothing to answer
		}
	}

	private void issueToken(HttpExchange exchange, ImdsMode mode) throws IOException {
		if (!"PUT".equals(exchange.getRequestMethod())) {
			send(exchange, 405, "");
			return;
		}
		String ttl = exchange.getRequestHeaders().getFirst(TOKEN_TTL_HEADER);
		if (ttl == null || !ttl.matches("[0-9]{1,5}") || Integer.parseInt(ttl) < 1
				|| Integer.parseInt(ttl) > 21600) {
			send(exchange, 400, "");
			return;
		}
		if (mode == ImdsMode.V1_ALLOWED_TOKEN_HANGS) {
			hold();
			return;
		}
		String token = "AQAEA" + UUID.randomUUID().toString().replace("-", "") + "==";
		this.validTokens.add(token);
		exchange.getResponseHeaders().set(TOKEN_TTL_HEADER, ttl);
		send(exchange, 200, token);
	}

	private void imdsGet(HttpExchange exchange, ImdsMode mode, String value) throws IOException {
		if (!"GET".equals(exchange.getRequestMethod())) {
			send(exchange, 405, "");
			return;
		}
		String token = exchange.getRequestHeaders().getFirst(TOKEN_HEADER);
		boolean authorized = switch (mode) {
			case V2_REQUIRED -> token != null && this.validTokens.contains(token);
			case V1_ALLOWED, V1_ALLOWED_TOKEN_HANGS -> token == null || this.validTokens.contains(token);
			case TOKEN_EXPIRES -> false;
		};
		if (!authorized) {
			send(exchange, 401, "");
			return;
		}
		if (value == null) {
			send(exchange, 404, "Not Found");
			return;
		}
		exchange.getResponseHeaders().set("Content-Type", "text/plain");
		send(exchange, 200, value);
	}

	private void azureGet(HttpExchange exchange, String value) throws IOException {
		String query = exchange.getRequestURI().getRawQuery();
		if (!"true".equals(exchange.getRequestHeaders().getFirst("Metadata"))) {
			send(exchange, 400, "{\"error\":\"Bad request. Required metadata header not specified\"}");
			return;
		}
		if (query == null || !query.matches("(.*&)?api-version=[0-9]{4}-[0-9]{2}-[0-9]{2}(&.*)?")
				|| !query.matches("(.*&)?format=text(&.*)?")) {
			send(exchange, 400, "{\"error\":\"Bad request. api-version was not specified in the request\"}");
			return;
		}
		exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
		send(exchange, 200, value);
	}

	private void hold() {
		try {
			this.closed.await(MAX_HOLD.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void send(HttpExchange exchange, int status, String body) throws IOException {
		send(exchange, status, body.getBytes(StandardCharsets.UTF_8));
	}

	private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
		exchange.sendResponseHeaders(status, (body.length > 0) ? body.length : -1);
		if (body.length > 0) {
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	/**
	 * Answer with a status and a text body.
	 * @param status the status
	 * @param body the body
	 * @return the responder
	 */
	static Responder answer(int status, String body) {
		return (exchange) -> send(exchange, status, body);
	}

	/**
	 * Answer with a status and raw bytes.
	 * @param status the status
	 * @param body the body
	 * @return the responder
	 */
	static Responder answer(int status, byte[] body) {
		return (exchange) -> send(exchange, status, body);
	}

	/**
	 * Answer with the {@code Metadata-Flavor: Google} header, so that the GCP source reads
	 * the body too, and then as the given responder does.
	 * @param then what to answer
	 * @return the responder
	 */
	static Responder flavored(Responder then) {
		return (exchange) -> {
			exchange.getResponseHeaders().set("Metadata-Flavor", "Google");
			then.respond(exchange);
		};
	}

	/**
	 * Answer with a redirect.
	 * @param status the redirect status
	 * @param location where to
	 * @return the responder
	 */
	static Responder redirect(int status, URI location) {
		return (exchange) -> {
			exchange.getResponseHeaders().set("Location", location.toString());
			send(exchange, status, "");
		};
	}

	/**
	 * Accept the request and never answer (until the stub is closed).
	 * @return the responder
	 */
	Responder hang() {
		return (exchange) -> hold();
	}

	/**
	 * Answer after a delay.
	 * @param delay how long to wait first
	 * @param then what to answer
	 * @return the responder
	 */
	Responder delayed(Duration delay, Responder then) {
		return (exchange) -> {
			try {
				if (this.closed.await(delay.toMillis(), TimeUnit.MILLISECONDS)) {
					return;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			then.respond(exchange);
		};
	}

	/**
	 * Answer 200 with a declared length and the {@code Metadata-Flavor: Google} header (so
	 * that the GCP source accepts it too), then send the body one byte at a time.
	 * @param body the body
	 * @param interval the pause before each byte
	 * @return the responder
	 */
	Responder trickle(String body, Duration interval) {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		return (exchange) -> {
			exchange.getResponseHeaders().set("Metadata-Flavor", "Google");
			exchange.sendResponseHeaders(200, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				for (byte b : bytes) {
					out.write(b);
					out.flush();
					if (this.closed.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
						return;
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		};
	}

	/**
	 * Answer 200 with the {@code Metadata-Flavor: Google} header and a chunked body of
	 * {@code length} bytes, which declares no length up front, streamed from one small
	 * buffer until it is all written or the client hangs up: the stub never holds more than
	 * that buffer, however large the length.
	 * @param length the body length, gigabytes if need be
	 * @return the responder
	 */
	Responder huge(long length) {
		byte[] chunk = "use1-az2 ".repeat(1024).getBytes(StandardCharsets.US_ASCII);
		return (exchange) -> {
			this.openStreams.incrementAndGet();
			try (OutputStream out = exchange.getResponseBody()) {
				exchange.getResponseHeaders().set("Metadata-Flavor", "Google");
				exchange.sendResponseHeaders(200, 0);
				long left = length;
				while (left > 0 && this.closed.getCount() > 0) {
					int size = (int) Math.min(chunk.length, left);
					out.write(chunk, 0, size);
					this.bytesStreamed.addAndGet(size);
					left -= size;
				}
			}
			finally {
				this.openStreams.decrementAndGet();
			}
		};
	}

	/**
	 * How the IMDS stub treats session tokens.
	 */
	enum ImdsMode {

		/**
		 * IMDSv2 only: every GET needs a valid token.
		 */
		V2_REQUIRED,

		/**
		 * IMDSv1 allowed: a GET without a token works; a token works too.
		 */
		V1_ALLOWED,

		/**
		 * IMDSv1 allowed, and the token PUT never answers, as in a container behind a
		 * hop limit of 1.
		 */
		V1_ALLOWED_TOKEN_HANGS,

		/**
		 * The token PUT answers, but the token is expired by the time it is used.
		 */
		TOKEN_EXPIRES

	}

	/**
	 * Produces the answer to one request.
	 */
	@FunctionalInterface
	interface Responder {

		void respond(HttpExchange exchange) throws IOException;

	}

	/**
	 * A request the stub received.
	 *
	 * @param method the method
	 * @param path the raw path
	 * @param query the raw query, or {@code null}
	 * @param headers the headers, names case-insensitive
	 * @param body the request body, empty if there was none
	 */
	record RecordedRequest(String method, String path, String query, Map<String, List<String>> headers,
			byte[] body) {

		String header(String name) {
			List<String> values = this.headers.get(name);
			return (values != null && !values.isEmpty()) ? values.get(0) : null;
		}

		@Override
		public String toString() {
			return this.method + " " + this.path + ((this.query != null) ? "?" + this.query : "") + " " + this.headers
					+ ((this.body.length > 0) ? " and a body of " + this.body.length + " bytes" : "");
		}

	}

}
