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
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The addresses this machine's TCP sockets listen on, read from {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6} (Linux only).
 *
 * @author follower-fetch authors
 */
final class ListeningAddresses {

	private static final Path TCP = Path.of("/proc/net/tcp");

	private static final Path TCP6 = Path.of("/proc/net/tcp6");

	private ListeningAddresses() {
	}

	/**
	 * Whether the socket tables can be read on this machine.
	 * @return {@code true} on Linux
	 */
	static boolean readable() {
		return Files.isReadable(TCP);
	}

	/**
	 * Return the address each listening port is bound to.
	 * @return the listening address by port
	 * @throws IOException if a table cannot be read
	 */
	static Map<Integer, InetAddress> byPort() throws IOException {
		Map<Integer, InetAddress> listening = new HashMap<>();
		for (Path table : List.of(TCP, TCP6)) {
			if (Files.isReadable(table)) {
				try (Stream<String> lines = Files.lines(table)) {
					lines.skip(1).map((line) -> line.trim().split("\\s+")).filter((fields) -> "0A".equals(fields[3]))
						.forEach((fields) -> {
							String[] local = fields[1].split(":");
							listening.put(Integer.parseInt(local[1], 16), address(local[0]));
						});
				}
			}
		}
		return listening;
	}

	private static InetAddress address(String procNetHex) {
		byte[] bytes = HexFormat.of().parseHex(procNetHex);
		if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
			for (int word = 0; word < bytes.length; word += 4) {
				for (int i = 0; i < 2; i++) {
					byte swapped = bytes[word + i];
					bytes[word + i] = bytes[word + 3 - i];
					bytes[word + 3 - i] = swapped;
				}
			}
		}
		try {
			return InetAddress.getByAddress(bytes);
		}
		catch (UnknownHostException ex) {
			throw new IllegalArgumentException(procNetHex, ex);
		}
	}

}
