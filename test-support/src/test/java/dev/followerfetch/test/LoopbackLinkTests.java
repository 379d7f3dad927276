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
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Tests for {@link LoopbackLink} against an echo server on loopback.
 *
 * @author follower-fetch authors
 */
class LoopbackLinkTests {

	private ServerSocket echo;

	private LoopbackLink link;

	@BeforeEach
	void start() throws IOException {
		this.echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread server = new Thread(() -> {
			while (!this.echo.isClosed()) {
				try {
					Socket socket = this.echo.accept();
					Thread pump = new Thread(() -> {
						try (socket) {
							socket.getInputStream().transferTo(socket.getOutputStream());
						}
						catch (IOException ex) {
							// peer gone
						}
					});
					pump.setDaemon(true);
					pump.start();
				}
				catch (IOException ex) {
					return;
				}
			}
		});
		server.setDaemon(true);
		server.start();
		this.link = new LoopbackLink("test", this.echo.getLocalPort());
	}

	@AfterEach
	void stop() throws IOException {
		this.link.close();
		this.echo.close();
	}

	@Test
	void anOpenLinkForwardsBothWays() throws IOException {
		try (Socket socket = connect()) {
			socket.getOutputStream().write("ping".getBytes());
			assertThat(read(socket, 4)).isEqualTo("ping");
		}
	}

	@Test
	void aBlackHoleAnswersNothingAndDeliversWhatItHeldOnceOpen() throws IOException {
		try (Socket socket = connect()) {
			socket.getOutputStream().write("a".getBytes());
			assertThat(read(socket, 1)).isEqualTo("a");
			this.link.set(LoopbackLink.State.BLACK_HOLE);
			socket.getOutputStream().write("b".getBytes());
			assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> read(socket, 1));
			try (Socket later = connect()) {
				later.getOutputStream().write("c".getBytes());
				assertThatExceptionOfType(SocketTimeoutException.class).isThrownBy(() -> read(later, 1));
				this.link.set(LoopbackLink.State.OPEN);
				assertThat(read(later, 1)).isEqualTo("c");
			}
			assertThat(read(socket, 1)).isEqualTo("b");
		}
	}

	@Test
	void aRefusingLinkResetsOpenConnectionsAndNewOnes() throws IOException {
		try (Socket socket = connect()) {
			socket.getOutputStream().write("a".getBytes());
			assertThat(read(socket, 1)).isEqualTo("a");
			this.link.set(LoopbackLink.State.REFUSE);
			assertThatIOException().isThrownBy(() -> {
				socket.getOutputStream().write("b".getBytes());
				read(socket, 1);
			});
		}
		try (Socket socket = connect()) {
			assertThatIOException().isThrownBy(() -> {
				socket.getOutputStream().write("c".getBytes());
				read(socket, 1);
			});
		}
	}

	private Socket connect() throws IOException {
		Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.link.port());
		socket.setSoTimeout(1000);
		return socket;
	}

	private static String read(Socket socket, int bytes) throws IOException {
		InputStream in = socket.getInputStream();
		byte[] buffer = new byte[bytes];
		int read = 0;
		while (read < bytes) {
			int n = in.read(buffer, read, bytes - read);
			if (n < 0) {
				throw new IOException("closed after " + read + " bytes");
			}
			read += n;
		}
		return new String(buffer);
	}

}
