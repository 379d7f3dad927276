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

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One network path to one listener port, as a TCP proxy on loopback: it accepts on a port
 * of its own and forwards every byte to the target port, both ways, until it is told to
 * {@linkplain State#BLACK_HOLE black-hole} (connections stay open, new ones are accepted,
 * nothing is forwarded: the peers see timeouts, as across a partitioned network; bytes
 * held are delivered if the path heals first, as TCP retransmission would) or to
 * {@linkplain State#REFUSE refuse} (every connection is reset, new ones are reset at
 * once, as a host whose process died answers).
 *
 * @author follower-fetch authors
 */
final class LoopbackLink implements Closeable {

	private static final int CONNECT_TIMEOUT_MS = 5_000;

	private final String name;

	private final int targetPort;

	private final ServerSocket server;

	private final Set<Connection> connections = ConcurrentHashMap.newKeySet();

	private final Object gate = new Object();

	private volatile State state = State.OPEN;

	private volatile boolean closed;

	LoopbackLink(String name, int targetPort) {
		this.name = name;
		this.targetPort = targetPort;
		try {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot listen on loopback for " + name, ex);
		}
		Thread acceptor = new Thread(this::accept, "loopback-link-" + name);
		acceptor.setDaemon(true);
		acceptor.start();
	}

	String name() {
		return this.name;
	}

	int port() {
		return this.server.getLocalPort();
	}

	State state() {
		return this.state;
	}

	void set(State state) {
		synchronized (this.gate) {
			this.state = state;
			this.gate.notifyAll();
		}
		if (state == State.REFUSE) {
			this.connections.forEach(Connection::reset);
		}
	}

	private void accept() {
		while (!this.closed) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				return;
			}
			if (this.state == State.REFUSE) {
				reset(client);
				continue;
			}
			Connection connection = new Connection(client);
			this.connections.add(connection);
			Thread opener = new Thread(connection::open, "loopback-link-" + this.name + "-open");
			opener.setDaemon(true);
			opener.start();
		}
	}

	/**
	 * Wait while the path is black-holed.
	 * @return whether bytes may be forwarded
	 */
	private boolean awaitOpen() throws InterruptedException {
		synchronized (this.gate) {
			while (this.state == State.BLACK_HOLE && !this.closed) {
				this.gate.wait();
			}
			return this.state == State.OPEN && !this.closed;
		}
	}

	@Override
	public void close() {
		this.closed = true;
		synchronized (this.gate) {
			this.gate.notifyAll();
		}
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.connections.forEach(Connection::close);
	}

	@Override
	public String toString() {
		return this.name + " (" + this.state + ", port " + port() + " -> " + this.targetPort + ")";
	}

	private static void reset(Socket socket) {
		try {
			socket.setSoLinger(true, 0);
		}
		catch (SocketException ex) {
			// closed already
		}
		closeQuietly(socket);
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// nothing to do
		}
	}

	/**
	 * How a path behaves.
	 */
	enum State {

		/**
		 * Bytes are forwarded.
		 */
		OPEN,

		/**
		 * Connections are accepted and kept, nothing is forwarded.
		 */
		BLACK_HOLE,

		/**
		 * Connections are reset.
		 */
		REFUSE

	}

	private final class Connection {

		private final Socket client;

		private volatile Socket upstream;

		Connection(Socket client) {
			this.client = client;
		}

		void open() {
			try {
				if (!awaitOpen()) {
					reset();
					return;
				}
				Socket socket = new Socket();
				this.upstream = socket;
				socket.setTcpNoDelay(true);
				this.client.setTcpNoDelay(true);
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), LoopbackLink.this.targetPort),
						CONNECT_TIMEOUT_MS);
				Thread back = new Thread(() -> pump(socket, this.client), "loopback-link-" + LoopbackLink.this.name);
				back.setDaemon(true);
				back.start();
				pump(this.client, socket);
			}
			catch (IOException ex) {
				reset();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				reset();
			}
		}

		private void pump(Socket from, Socket to) {
			byte[] buffer = new byte[64 * 1024];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				int read;
				while ((read = in.read(buffer)) >= 0) {
					if (!awaitOpen()) {
						break;
					}
					out.write(buffer, 0, read);
				}
			}
			catch (IOException ex) {
				// either side went away
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			if (LoopbackLink.this.state == State.REFUSE) {
				reset();
			}
			else {
				close();
			}
		}

		void reset() {
			LoopbackLink.reset(this.client);
			Socket socket = this.upstream;
			if (socket != null) {
				LoopbackLink.reset(socket);
			}
			LoopbackLink.this.connections.remove(this);
		}

		void close() {
			closeQuietly(this.client);
			Socket socket = this.upstream;
			if (socket != null) {
				closeQuietly(socket);
			}
			LoopbackLink.this.connections.remove(this);
		}

	}

}
