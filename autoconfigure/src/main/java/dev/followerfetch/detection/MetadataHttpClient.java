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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one HTTP client every metadata source uses. It never goes through a proxy, never
 * follows a redirect, asks the server to close every connection, caps the body it reads,
 * and bounds every request by a deadline (a body that stalls after the headers by at most
 * one more read timeout). Every failure becomes a {@link MetadataException} whose message
 * is one line naming the URL.
 * <p>
 * {@link HttpURLConnection} still pools a connection the server did not say it would
 * close, and only retries a request on such a stale connection when the request body is
 * buffered, so a {@code PUT} sends its empty body through the buffered output stream
 * rather than in streaming mode.
 *
 * @author follower-fetch authors
 */
final class MetadataHttpClient {

	static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

	static final MetadataHttpClient INSTANCE = new MetadataHttpClient();

	private final int maxBodyBytes;

	MetadataHttpClient() {
		this(DEFAULT_MAX_BODY_BYTES);
	}

	MetadataHttpClient(int maxBodyBytes) {
		this.maxBodyBytes = maxBodyBytes;
	}

	/**
	 * Send a request and read the whole response.
	 * @param method the HTTP method
	 * @param uri the URL
	 * @param headers request headers
	 * @param timeout the most time the request may take
	 * @return the response, whatever its status
	 * @throws MetadataException on any failure to get a complete response in time
	 */
	Response send(String method, URI uri, Map<String, String> headers, Duration timeout) throws MetadataException {
		long deadline = System.nanoTime() + timeout.toNanos();
		HttpURLConnection connection = null;
		HeaderDeadline headerDeadline = null;
		try {
			connection = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
			connection.setRequestMethod(method);
			connection.setInstanceFollowRedirects(false);
			connection.setUseCaches(false);
			connection.setAllowUserInteraction(false);
			connection.setConnectTimeout(remainingMillis(deadline));
			connection.setReadTimeout(remainingMillis(deadline));
			connection.setRequestProperty("Connection", "close");
			connection.setRequestProperty("Accept", "*/*");
			headers.forEach(connection::setRequestProperty);
			headerDeadline = new HeaderDeadline(connection, deadline);
			if ("PUT".equals(method) || "POST".equals(method)) {
				connection.setDoOutput(true);
				connection.getOutputStream().close();
			}
			int status = connection.getResponseCode();
			if (!headerDeadline.stop()) {
				throw new SocketTimeoutException();
			}
			if (status < 0) {
				throw new MetadataException(uri + " answered with a response that is not valid HTTP");
			}
			Map<String, List<String>> responseHeaders = connection.getHeaderFields();
			InputStream stream = (status >= 400) ? connection.getErrorStream() : connection.getInputStream();
			String body = (stream != null) ? readBody(stream, deadline, uri) : "";
			return new Response(status, responseHeaders, body);
		}
		catch (MetadataException ex) {
			throw ex;
		}
		catch (SocketTimeoutException ex) {
			throw timedOut(uri, timeout);
		}
		catch (ConnectException ex) {
			throw new MetadataException(uri + " refused the connection");
		}
		catch (UnknownHostException ex) {
			throw new MetadataException(uri + " has a host name that does not resolve");
		}
		catch (IOException | RuntimeException ex) {
			if (headerDeadline != null && !headerDeadline.stop()) {
				throw timedOut(uri, timeout);
			}
			throw new MetadataException(uri + " failed: " + oneLine(ex));
		}
		finally {
			if (connection != null && (headerDeadline == null || headerDeadline.stop())) {
				connection.disconnect();
			}
		}
	}

	/**
	 * Send a request and return the body of a 200 response.
	 * @param method the HTTP method
	 * @param uri the URL
	 * @param headers request headers
	 * @param timeout the most time the request may take
	 * @return the body
	 * @throws MetadataException on any failure, including a status other than 200
	 */
	String fetch(String method, URI uri, Map<String, String> headers, Duration timeout) throws MetadataException {
		Response response = send(method, uri, headers, timeout);
		if (!response.isOk()) {
			throw new MetadataException(response.describeStatus(uri));
		}
		return response.body();
	}

	private String readBody(InputStream stream, long deadline, URI uri) throws IOException, MetadataException {
		try (InputStream in = stream) {
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			byte[] buffer = new byte[4096];
			while (true) {
				remainingMillis(deadline);
				int read = in.read(buffer);
				if (read < 0) {
					break;
				}
				if (body.size() + read > this.maxBodyBytes) {
					throw new MetadataException(uri + " sent a body larger than " + this.maxBodyBytes + " bytes");
				}
				body.write(buffer, 0, read);
			}
			return decode(body.toByteArray(), uri);
		}
	}

	private static String decode(byte[] bytes, URI uri) throws MetadataException {
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(bytes))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new MetadataException(uri + " sent a body that is not UTF-8 text");
		}
	}

	private static int remainingMillis(long deadline) throws SocketTimeoutException {
		long remaining = Duration.ofNanos(deadline - System.nanoTime()).toMillis();
		if (remaining <= 0) {
			throw new SocketTimeoutException();
		}
		return (int) Math.min(remaining, Integer.MAX_VALUE);
	}

	private static MetadataException timedOut(URI uri, Duration timeout) {
		return new MetadataException(uri + " did not answer within " + timeout.toMillis() + " ms");
	}

	private static String oneLine(Throwable ex) {
		String message = (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
		return message.replaceAll("[\\r\\n\\t]+", " ");
	}

	/**
	 * A complete HTTP response.
	 *
	 * @param status the status code
	 * @param headers the response headers
	 * @param body the body as text
	 */
	record Response(int status, Map<String, List<String>> headers, String body) {

		boolean isOk() {
			return this.status == 200;
		}

		String header(String name) {
			return this.headers.entrySet()
				.stream()
				.filter((entry) -> entry.getKey() != null && entry.getKey().equalsIgnoreCase(name))
				.flatMap((entry) -> entry.getValue().stream())
				.findFirst()
				.orElse(null);
		}

		/**
		 * Describe a response that is not the expected 200.
		 * @param uri the URL asked
		 * @return a one-line description
		 */
		String describeStatus(URI uri) {
			if (this.status >= 300 && this.status < 400) {
				String location = header("Location");
				return uri + " answered HTTP " + this.status + " redirect"
						+ ((location != null) ? " to " + RackValues.quote(location) : "") + " (not followed)";
			}
			return uri + " answered HTTP " + this.status;
		}

	}

	/**
	 * Closes a connection still waiting for its status line and headers at the deadline.
	 * The read timeout alone cannot bound that wait: it applies to each read, so a server
	 * that trickles its headers could hold the request forever, and it cannot be
	 * shortened once the connection is open.
	 */
	private static final class HeaderDeadline {

		private static final int WAITING = 0;

		private static final int STOPPED = 1;

		private static final int EXPIRED = 2;

		private final AtomicInteger state = new AtomicInteger(WAITING);

		private final CompletableFuture<Void> timer = new CompletableFuture<>();

		HeaderDeadline(HttpURLConnection connection, long deadline) {
			this.timer.completeOnTimeout(null, deadline - System.nanoTime(), TimeUnit.NANOSECONDS).thenRun(() -> {
				if (this.state.compareAndSet(WAITING, EXPIRED)) {
					connection.disconnect();
				}
			});
		}

		/**
		 * Stop the timer, if it has not fired yet.
		 * @return {@code true} if the caller still owns the connection, {@code false} if
		 * the deadline passed and the connection was closed
		 */
		boolean stop() {
			this.timer.cancel(false);
			this.state.compareAndSet(WAITING, STOPPED);
			return this.state.get() == STOPPED;
		}

	}

	/**
	 * A metadata request that did not produce a usable response.
	 */
	static final class MetadataException extends Exception {

		MetadataException(String message) {
			super(message, null, false, false);
		}

	}

}
