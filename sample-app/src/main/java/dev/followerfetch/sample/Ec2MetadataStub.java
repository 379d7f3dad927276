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
package dev.followerfetch.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * EC2 instance metadata on loopback, as strict as the real IMDSv2: a session token from
 * {@code PUT /latest/api/token} (which needs a TTL header), then the placement attributes
 * {@code availability-zone-id} and {@code availability-zone}, only with that token.
 * Pointing {@code follower-fetch.detection.aws.endpoint} here takes the sample through the
 * same detection path as an application on an EC2 instance.
 *
 * @author follower-fetch authors
 */
final class Ec2MetadataStub implements AutoCloseable {

	private static final String TOKEN_PATH = "/latest/api/token";

	private static final String PLACEMENT_PATH = "/latest/meta-data/placement/";

	private static final String TOKEN_TTL_HEADER = "X-aws-ec2-metadata-token-ttl-seconds";

	private static final String TOKEN_HEADER = "X-aws-ec2-metadata-token";

	private final String token = UUID.randomUUID().toString();

	private final Map<String, String> placement;

	private final HttpServer server;

	private Ec2MetadataStub(String zoneId, String zoneName) throws IOException {
		this.placement = Map.of(PLACEMENT_PATH + "availability-zone-id", zoneId, PLACEMENT_PATH + "availability-zone",
				zoneName);
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	/**
	 * Start answering on a free loopback port.
	 * @param zoneId the AZ id to answer, for example {@code use1-az2}
	 * @param zoneName the AZ name to answer, for example {@code us-east-1b}
	 * @return the running stub
	 * @throws IOException if no port could be bound
	 */
	static Ec2MetadataStub start(String zoneId, String zoneName) throws IOException {
		return new Ec2MetadataStub(zoneId, zoneName);
	}

	/**
	 * The endpoint to give {@code follower-fetch.detection.aws.endpoint}.
	 * @return the base URI, for example {@code http://127.0.0.1:53711}
	 */
	URI endpoint() {
		InetSocketAddress address = this.server.getAddress();
		return URI.create("http://" + address.getAddress().getHostAddress() + ":" + address.getPort());
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try {
			String path = exchange.getRequestURI().getPath();
			if (TOKEN_PATH.equals(path)) {
				issueToken(exchange);
			}
			else if (this.placement.containsKey(path)) {
				answerPlacement(exchange, this.placement.get(path));
			}
			else {
				respond(exchange, 404, "Not Found");
			}
		}
		finally {
			exchange.close();
		}
	}

	private void issueToken(HttpExchange exchange) throws IOException {
		if (!"PUT".equals(exchange.getRequestMethod())) {
			respond(exchange, 405, "Method Not Allowed");
		}
		else if (!validTtl(exchange.getRequestHeaders().getFirst(TOKEN_TTL_HEADER))) {
			respond(exchange, 400, "Bad Request");
		}
		else {
			respond(exchange, 200, this.token);
		}
	}

	private void answerPlacement(HttpExchange exchange, String value) throws IOException {
		if (!"GET".equals(exchange.getRequestMethod())) {
			respond(exchange, 405, "Method Not Allowed");
		}
		else if (!this.token.equals(exchange.getRequestHeaders().getFirst(TOKEN_HEADER))) {
			respond(exchange, 401, "Unauthorized");
		}
		else {
			respond(exchange, 200, value);
		}
	}

	private static boolean validTtl(String ttl) {
		try {
			int seconds = Integer.parseInt(ttl);
			return seconds >= 1 && seconds <= 21600;
		}
		catch (NumberFormatException ex) {
			return false;
		}
	}

	private static void respond(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "text/plain");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
