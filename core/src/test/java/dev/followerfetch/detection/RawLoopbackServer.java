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
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP server for behaviour an HTTP server library will not produce: accepting
 * and never answering, answering bytes that are not HTTP, sending the status line and
 * headers one byte at a time. Also serves as a recording HTTP proxy. Every wait is bounded
 * and everything stops on {@link #close()}.
 *
 * @author follower-fetch authors
 */
final class RawLoopbackServer implements AutoCloseable {

	private static final Duration MAX_HOLD = Duration.ofSeconds(60);

	private final ServerSocket serverSocket;

	private final Behaviour behaviour;

	private final CountDownLatch closed = new CountDownLatch(1);

	private final AtomicInteger connections = new AtomicInteger();

	private final List<String> requestLines = new CopyOnWriteArrayList<>();

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private RawLoopbackServer(Behaviour behaviour) throws IOException {
		this.behaviour = behaviour;
		this.serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		daemon("raw-loopback-accept", this::acceptLoop).start();
	}

	/**
	 * A server that accepts connections and never reads or answers.
	 * @return the server
	 * @throws IOException if it cannot listen
	 */
	static RawLoopbackServer holding() throws IOException {
		return new RawLoopbackServer((socket, server) -> server.hold());
	}

	/**
	 * A server that reads the request head and answers the given bytes at once.
	 * @param response the raw response
	 * @return the server
	 * @throws IOException if it cannot listen
	 */
	static RawLoopbackServer answering(String response) throws IOException {
		return new RawLoopbackServer((socket, server) -> {
			server.readHead(socket);
			OutputStream out = socket.getOutputStream();
			out.write(response.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
		});
	}

	/**
	 * A server that reads the request head and then sends the response one byte at a
	 * time, status line and headers included.
	 * @param response the raw response
	 * @param interval the pause before each byte
	 * @return the server
	 * @throws IOException if it cannot listen
	 */
	static RawLoopbackServer trickling(String response, Duration interval) throws IOException {
		return new RawLoopbackServer((socket, server) -> {
			server.readHead(socket);
			OutputStream out = socket.getOutputStream();
			for (byte b : response.getBytes(StandardCharsets.ISO_8859_1)) {
				if (server.pause(interval)) {
					return;
				}
				out.write(b);
				out.flush();
			}
		});
	}

	/**
	 * A loopback URL where nothing listens: the connection is refused at once.
	 * @return the URL
	 * @throws IOException if no free port can be found
	 */
	static URI refusingUri() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return URI.create("http://127.0.0.1:" + socket.getLocalPort());
		}
	}

	URI uri() {
		return URI.create("http://127.0.0.1:" + this.serverSocket.getLocalPort());
	}

	String host() {
		return "127.0.0.1";
	}

	int port() {
		return this.serverSocket.getLocalPort();
	}

	/**
	 * How many connections were accepted.
	 * @return the count
	 */
	int connections() {
		return this.connections.get();
	}

	/**
	 * The first line of every request read, for example a proxy's
	 * {@code GET http://host/path HTTP/1.1}.
	 * @return the request lines
	 */
	List<String> requestLines() {
		return List.copyOf(this.requestLines);
	}

	@Override
	public void close() throws IOException {
		this.closed.countDown();
		this.serverSocket.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

	private void acceptLoop() {
		while (!this.serverSocket.isClosed()) {
			try {
				Socket socket = this.serverSocket.accept();
				this.connections.incrementAndGet();
				this.sockets.add(socket);
				daemon("raw-loopback-connection", () -> serve(socket)).start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			socket.setSoTimeout((int) MAX_HOLD.toMillis());
			this.behaviour.serve(socket, this);
		}
		catch (IOException ex) {
			// the client went away
		}
	}

	private void readHead(Socket socket) throws IOException {
		InputStream in = socket.getInputStream();
		ByteArrayOutputStream head = new ByteArrayOutputStream();
		int matched = 0;
		byte[] end = { '\r', '\n', '\r', '\n' };
		while (matched < end.length && head.size() < 64 * 1024) {
			int b = in.read();
			if (b < 0) {
				break;
			}
			head.write(b);
			matched = (b == end[matched]) ? matched + 1 : ((b == '\r') ? 1 : 0);
		}
		String text = head.toString(StandardCharsets.ISO_8859_1);
		int lineEnd = text.indexOf("\r\n");
		this.requestLines.add((lineEnd >= 0) ? text.substring(0, lineEnd) : text);
	}

	private void hold() {
		pause(MAX_HOLD);
	}

	private boolean pause(Duration duration) {
		try {
			return this.closed.await(duration.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return true;
		}
	}

	private static Thread daemon(String name, Runnable runnable) {
		Thread thread = new Thread(runnable, name);
		thread.setDaemon(true);
		return thread;
	}

	@FunctionalInterface
	private interface Behaviour {

		void serve(Socket socket, RawLoopbackServer server) throws IOException;

	}

}
