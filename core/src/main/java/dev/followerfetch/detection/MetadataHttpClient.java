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
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.jspecify.annotations.Nullable;

/**
 * The one HTTP client every metadata source uses: HTTP/1.1 over a socket of its own, one
 * connection per request, closed when the request ends. It never goes through a proxy,
 * never follows a redirect, caps the response head and body it reads, and bounds every
 * request by a deadline: each read waits at most for the time left, so neither a server
 * that never answers nor one that trickles its answer can hold a request longer. Every
 * failure becomes a {@link MetadataException} whose message is one line naming the URL.
 * <p>
 * {@link java.net.HttpURLConnection} is not used: it keeps a connection the server did
 * not say it would close, hands a body left unread to a JDK thread that drains it at the
 * server's pace, and its read timeout cannot be shortened once the connection is open,
 * so bounding it needs a timer thread. This client starts no thread at all and leaves no
 * connection open. Over {@code https} the time left is given to each read of the TLS
 * layer, which may read the socket more than once: a server that trickles a TLS record
 * can stretch a request past its deadline there. The cloud metadata endpoints are plain
 * HTTP; the Kubernetes API server is not, and there start-up is still bounded by the
 * detection budget, since remote sources run on detection threads.
 * <p>
 * Nor is {@link java.net.http.HttpClient}: its first request in a fresh JVM takes about
 * 480 ms against 49 ms here and loads 1,300 more classes
 * ({@code HttpClientColdStartBenchmark}); it keeps a selector thread and its connections
 * alive after the answer, and cannot be made to send {@code Connection: close} nor kept
 * from sending its own {@code User-Agent}. Measured against the hostile stubs too, it did
 * end every request by its deadline (docs/benchmarks.md).
 *
 * @author follower-fetch authors
 */
final class MetadataHttpClient {

	static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024;

	static final MetadataHttpClient INSTANCE = new MetadataHttpClient();

	private static final int MAX_HEAD_BYTES = 16 * 1024;

	private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.[01] ([0-9]{3})(?: .*)?");

	private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

	private final int maxBodyBytes;

	private final @Nullable SSLSocketFactory tls;

	MetadataHttpClient() {
		this(DEFAULT_MAX_BODY_BYTES);
	}

	MetadataHttpClient(int maxBodyBytes) {
		this(maxBodyBytes, null);
	}

	/**
	 * A client with its own body cap and, for {@code https}, its own trust.
	 * @param maxBodyBytes the most body bytes read
	 * @param tls the sockets to talk TLS with, or {@code null} for the JDK's default trust
	 */
	MetadataHttpClient(int maxBodyBytes, @Nullable SSLSocketFactory tls) {
		this.maxBodyBytes = maxBodyBytes;
		this.tls = tls;
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
		try {
			byte[] request = requestHead(method, uri, headers);
			remainingMillis(deadline);
			try (Socket socket = connect(uri, deadline, this.tls)) {
				OutputStream out = socket.getOutputStream();
				out.write(request);
				out.flush();
				return readResponse(new DeadlineInputStream(socket, deadline), method, uri);
			}
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
			throw new MetadataException(uri + " failed: " + oneLine(ex));
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

	private static byte[] requestHead(String method, URI uri, Map<String, String> headers) throws MetadataException {
		String path = (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) ? uri.getRawPath() : "/";
		StringBuilder head = new StringBuilder();
		head.append(method).append(' ').append(path);
		if (uri.getRawQuery() != null) {
			head.append('?').append(uri.getRawQuery());
		}
		head.append(" HTTP/1.1\r\n");
		head.append("Host: ").append(uri.getHost()).append((uri.getPort() != -1) ? ":" + uri.getPort() : "");
		head.append("\r\nConnection: close\r\n");
		if ("PUT".equals(method) || "POST".equals(method)) {
			head.append("Content-Length: 0\r\n");
		}
		for (Map.Entry<String, String> header : headers.entrySet()) {
			if (!HEADER_NAME.matcher(header.getKey()).matches() || !isFieldValue(header.getValue())) {
				throw new MetadataException(uri + " was not asked: header " + RackValues.quote(header.getKey())
						+ " has a character that is not allowed in a header");
			}
			head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
		}
		head.append("\r\n");
		return head.toString().getBytes(StandardCharsets.ISO_8859_1);
	}

	private static boolean isFieldValue(String value) {
		return value.chars().allMatch((c) -> c == '\t' || (c >= 0x20 && c < 0x7f));
	}

	private static Socket connect(URI uri, long deadline, @Nullable SSLSocketFactory tlsSockets) throws IOException {
		if (uri.getHost() == null) {
			throw new UnknownHostException("no host");
		}
		boolean https = "https".equalsIgnoreCase(uri.getScheme());
		int port = (uri.getPort() != -1) ? uri.getPort() : (https ? 443 : 80);
		InetAddress address = InetAddress.getByName(uri.getHost());
		Socket socket = new Socket(Proxy.NO_PROXY);
		try {
			socket.connect(new InetSocketAddress(address, port), remainingMillis(deadline));
			if (!https) {
				return socket;
			}
			SSLSocketFactory factory = (tlsSockets != null) ? tlsSockets : (SSLSocketFactory) SSLSocketFactory.getDefault();
			SSLSocket tls = (SSLSocket) factory.createSocket(socket, uri.getHost(), port, true);
			SSLParameters parameters = tls.getSSLParameters();
			parameters.setEndpointIdentificationAlgorithm("HTTPS");
			tls.setSSLParameters(parameters);
			tls.setSoTimeout(remainingMillis(deadline));
			tls.startHandshake();
			return tls;
		}
		catch (IOException | RuntimeException ex) {
			socket.close();
			throw ex;
		}
	}

	private Response readResponse(DeadlineInputStream in, String method, URI uri) throws IOException, MetadataException {
		int[] headBytes = { 0 };
		while (true) {
			String statusLine = readLine(in, headBytes, uri);
			Matcher status = STATUS_LINE.matcher((statusLine != null) ? statusLine : "");
			if (!status.matches()) {
				throw notHttp(uri);
			}
			int code = Integer.parseInt(status.group(1));
			Map<String, List<String>> headers = readHeaders(in, headBytes, uri);
			if (code == 101) {
				throw notHttp(uri);
			}
			if (code < 200) {
				continue;
			}
			boolean noBody = "HEAD".equals(method) || code == 204 || code == 304;
			String body = noBody ? "" : decode(readBody(in, headers, uri), uri);
			return new Response(code, headers, body);
		}
	}

	private Map<String, List<String>> readHeaders(DeadlineInputStream in, int[] headBytes, URI uri)
			throws IOException, MetadataException {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		while (true) {
			String line = readLine(in, headBytes, uri);
			if (line == null) {
				throw notHttp(uri);
			}
			if (line.isEmpty()) {
				return headers;
			}
			int colon = line.indexOf(':');
			if (colon <= 0 || !HEADER_NAME.matcher(line.substring(0, colon)).matches()) {
				throw notHttp(uri);
			}
			String name = line.substring(0, colon);
			String existing = headers.keySet().stream().filter(name::equalsIgnoreCase).findFirst().orElse(name);
			headers.computeIfAbsent(existing, (key) -> new ArrayList<>()).add(line.substring(colon + 1).strip());
		}
	}

	private byte[] readBody(DeadlineInputStream in, Map<String, List<String>> headers, URI uri)
			throws IOException, MetadataException {
		String transferEncoding = header(headers, "Transfer-Encoding");
		if (transferEncoding != null) {
			if (!"chunked".equalsIgnoreCase(transferEncoding)) {
				throw notHttp(uri);
			}
			return readChunked(in, uri);
		}
		List<String> lengths = values(headers, "Content-Length");
		if (lengths.isEmpty()) {
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			copy(in, body, Long.MAX_VALUE, uri);
			return body.toByteArray();
		}
		long length = contentLength(lengths, uri);
		if (length > this.maxBodyBytes) {
			throw tooLarge(uri);
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream((int) length);
		long read = copy(in, body, length, uri);
		if (read < length) {
			throw new MetadataException(
					uri + " closed the connection after " + read + " of " + length + " body bytes");
		}
		return body.toByteArray();
	}

	private byte[] readChunked(DeadlineInputStream in, URI uri) throws IOException, MetadataException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		int[] lineBytes = { 0 };
		while (true) {
			String line = readLine(in, lineBytes, uri);
			if (line == null) {
				throw new MetadataException(uri + " closed the connection in the middle of a chunked body");
			}
			int extension = line.indexOf(';');
			String size = ((extension >= 0) ? line.substring(0, extension) : line).strip();
			if (!size.matches("[0-9A-Fa-f]{1,8}")) {
				throw notHttp(uri);
			}
			long chunk = Long.parseLong(size, 16);
			if (chunk == 0) {
				readHeaders(in, lineBytes, uri);
				return body.toByteArray();
			}
			if (body.size() + chunk > this.maxBodyBytes) {
				throw tooLarge(uri);
			}
			if (copy(in, body, chunk, uri) < chunk || readLine(in, lineBytes, uri) == null) {
				throw new MetadataException(uri + " closed the connection in the middle of a chunked body");
			}
			lineBytes[0] = 0;
		}
	}

	private long copy(InputStream in, ByteArrayOutputStream body, long length, URI uri)
			throws IOException, MetadataException {
		byte[] buffer = new byte[4096];
		long copied = 0;
		while (copied < length) {
			int read = in.read(buffer, 0, (int) Math.min(buffer.length, length - copied));
			if (read < 0) {
				break;
			}
			if (body.size() + read > this.maxBodyBytes) {
				throw tooLarge(uri);
			}
			body.write(buffer, 0, read);
			copied += read;
		}
		return copied;
	}

	private static @Nullable String readLine(InputStream in, int[] headBytes, URI uri)
			throws IOException, MetadataException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		while (true) {
			int b = in.read();
			if (b < 0) {
				return (line.size() > 0) ? line.toString(StandardCharsets.ISO_8859_1) : null;
			}
			if (++headBytes[0] > MAX_HEAD_BYTES) {
				throw new MetadataException(uri + " sent a response head larger than " + MAX_HEAD_BYTES + " bytes");
			}
			if (b == '\n') {
				String text = line.toString(StandardCharsets.ISO_8859_1);
				return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
			}
			line.write(b);
		}
	}

	private static long contentLength(List<String> lengths, URI uri) throws MetadataException {
		String first = lengths.get(0);
		if (!first.matches("[0-9]{1,18}") || lengths.stream().anyMatch((length) -> !length.equals(first))) {
			throw notHttp(uri);
		}
		return Long.parseLong(first);
	}

	private static List<String> values(Map<String, List<String>> headers, String name) {
		return headers.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().equalsIgnoreCase(name))
			.flatMap((entry) -> entry.getValue().stream())
			.flatMap((value) -> List.of(value.split(",")).stream())
			.map(String::strip)
			.toList();
	}

	private static @Nullable String header(Map<String, List<String>> headers, String name) {
		List<String> values = values(headers, name);
		return values.isEmpty() ? null : String.join(",", values).toLowerCase(Locale.ROOT);
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

	private MetadataException tooLarge(URI uri) {
		return new MetadataException(uri + " sent a body larger than " + this.maxBodyBytes + " bytes");
	}

	private static MetadataException notHttp(URI uri) {
		return new MetadataException(uri + " answered with a response that is not valid HTTP");
	}

	private static MetadataException timedOut(URI uri, Duration timeout) {
		return new MetadataException(uri + " did not answer within " + timeout.toMillis() + " ms");
	}

	private static String oneLine(Throwable ex) {
		return FailureMessages.of(ex).replaceAll("\\p{Cntrl}+", " ");
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

		@Nullable String header(String name) {
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
	 * Reads a socket through a buffer, giving each read of the socket only the time left
	 * before the deadline.
	 */
	private static final class DeadlineInputStream extends InputStream {

		private final Socket socket;

		private final InputStream in;

		private final long deadline;

		private final byte[] buffer = new byte[8192];

		private int position;

		private int limit;

		DeadlineInputStream(Socket socket, long deadline) throws IOException {
			this.socket = socket;
			this.in = socket.getInputStream();
			this.deadline = deadline;
		}

		@Override
		public int read() throws IOException {
			if (this.position == this.limit && !fill()) {
				return -1;
			}
			return this.buffer[this.position++] & 0xff;
		}

		@Override
		public int read(byte[] bytes, int offset, int length) throws IOException {
			if (length == 0) {
				return 0;
			}
			if (this.position == this.limit && !fill()) {
				return -1;
			}
			int count = Math.min(length, this.limit - this.position);
			System.arraycopy(this.buffer, this.position, bytes, offset, count);
			this.position += count;
			return count;
		}

		private boolean fill() throws IOException {
			this.socket.setSoTimeout(remainingMillis(this.deadline));
			int read = this.in.read(this.buffer);
			if (read < 0) {
				return false;
			}
			this.position = 0;
			this.limit = read;
			return true;
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
