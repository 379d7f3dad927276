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
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.followerfetch.detection.MetadataStubServer.ImdsMode;

/**
 * What a hostile or broken metadata endpoint can do to a source, each played by a
 * loopback stub on 127.0.0.1. A 200 answer carries {@code Metadata-Flavor: Google} so
 * that the GCP source reads its body too.
 *
 * @author follower-fetch authors
 */
enum HostileBehaviour {

	/**
	 * Accepts the connection and never reads or answers.
	 */
	HANGS_AFTER_ACCEPTING {

		@Override
		HostileEndpoint start() throws IOException {
			RawLoopbackServer server = RawLoopbackServer.holding();
			return new HostileEndpoint(server.uri(), null, null, server);
		}

	},

	/**
	 * Answers 200 at once, then sends the body one byte a second.
	 */
	TRICKLES_ONE_BYTE_A_SECOND {

		@Override
		HostileEndpoint start() throws IOException {
			MetadataStubServer stub = MetadataStubServer.start();
			stub.fallback(stub.trickle("projects/123456/zones/us-central1-b", Duration.ofSeconds(1)));
			return new HostileEndpoint(stub.uri(), stub, null, stub);
		}

	},

	/**
	 * Answers 200 with a chunked body of 4 GiB, streamed from one small buffer.
	 */
	STREAMS_GIGABYTES {

		@Override
		HostileEndpoint start() throws IOException {
			MetadataStubServer stub = MetadataStubServer.start();
			stub.fallback(stub.huge(HUGE_BODY_BYTES));
			return new HostileEndpoint(stub.uri(), stub, null, stub);
		}

	},

	/**
	 * Answers 200 with bytes that are not UTF-8: NUL, escape, invalid sequences.
	 */
	ANSWERS_BINARY {

		@Override
		HostileEndpoint start() throws IOException {
			byte[] body = { (byte) 0xff, (byte) 0xfe, 0x00, 0x1b, '[', '2', 'J', (byte) 0xc3, 0x28, 0x07, (byte) 0x80,
					'\r', '\n' };
			return answering(MetadataStubServer.answer(200, body));
		}

	},

	/**
	 * Answers 200 with UTF-8 text full of control characters: terminal escapes, NUL, a
	 * line break that starts a header, a bell.
	 */
	ANSWERS_CONTROL_CHARACTERS {

		@Override
		HostileEndpoint start() throws IOException {
			return answering(MetadataStubServer.answer(200, CONTROL_CHARACTERS));
		}

	},

	/**
	 * Answers every request with a 302 to the same path on another host, which would
	 * answer it as the real endpoint does.
	 */
	REDIRECTS_TO_ANOTHER_HOST {

		@Override
		HostileEndpoint start() throws IOException {
			MetadataStubServer elsewhere = MetadataStubServer.start();
			for (NetworkSource source : NetworkSource.values()) {
				source.play(elsewhere);
			}
			MetadataStubServer stub = MetadataStubServer.start();
			stub.fallback((exchange) -> MetadataStubServer
				.redirect(302, elsewhere.uri().resolve(exchange.getRequestURI().getRawPath()))
				.respond(exchange));
			return new HostileEndpoint(stub.uri(), stub, elsewhere, stub, elsewhere);
		}

	},

	/**
	 * Answers 200 with an HTML page, as a captive portal or a misrouted web server does.
	 */
	ANSWERS_200_WITH_HTML {

		@Override
		HostileEndpoint start() throws IOException {
			return answering((exchange) -> {
				exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
				MetadataStubServer.answer(200, HTML).respond(exchange);
			});
		}

	},

	/**
	 * Answers 200 with a declared length of 64 bytes, sends 33 of them (a value that would
	 * pass for a rack) and closes the connection.
	 */
	CLOSES_MID_RESPONSE {

		@Override
		HostileEndpoint start() throws IOException {
			RawLoopbackServer server = RawLoopbackServer.answering("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
					+ "Metadata-Flavor: Google\r\nContent-Length: 64\r\n\r\nprojects/123456/zones/us-central1");
			return new HostileEndpoint(server.uri(), null, null, server);
		}

	},

	/**
	 * IMDS issues a token, then answers every request that carries it with 401, as when
	 * the token expired on the way.
	 */
	IMDS_TOKEN_EXPIRES {

		@Override
		boolean appliesTo(NetworkSource source) {
			return source == NetworkSource.AWS;
		}

		@Override
		HostileEndpoint start() throws IOException {
			MetadataStubServer stub = MetadataStubServer.start();
			stub.imds(ImdsMode.TOKEN_EXPIRES, "us-east-1b", "use1-az2");
			return new HostileEndpoint(stub.uri(), stub, null, stub);
		}

	};

	/**
	 * The length of the body {@link #STREAMS_GIGABYTES} offers.
	 */
	static final long HUGE_BODY_BYTES = 4L * 1024 * 1024 * 1024;

	static final String CONTROL_CHARACTERS = "\u001b[2J\u001b[31muse1-az2\u0000\r\nX-Injected: yes\u0007\u0008";

	static final String HTML = """
			<!DOCTYPE html>
			<html><head><title>Sign in to continue</title></head>
			<body><form method="post" action="/login"><input name="user"></form></body></html>
			""";

	/**
	 * Whether a source can meet this behaviour.
	 * @param source the source
	 * @return {@code true} unless the behaviour is specific to another source
	 */
	boolean appliesTo(NetworkSource source) {
		return true;
	}

	/**
	 * Start a loopback endpoint that behaves so on every path.
	 * @return the endpoint
	 * @throws IOException if it cannot listen
	 */
	abstract HostileEndpoint start() throws IOException;

	private static HostileEndpoint answering(MetadataStubServer.Responder responder) throws IOException {
		MetadataStubServer stub = MetadataStubServer.start();
		stub.fallback(MetadataStubServer.flavored(responder));
		return new HostileEndpoint(stub.uri(), stub, null, stub);
	}

	/**
	 * A running hostile endpoint.
	 */
	static final class HostileEndpoint implements AutoCloseable {

		private final URI uri;

		private final MetadataStubServer stub;

		private final MetadataStubServer elsewhere;

		private final List<AutoCloseable> servers;

		/**
		 * Create an endpoint.
		 * @param uri the base URL of the endpoint
		 * @param stub the stub that answers there, or {@code null} for a raw server
		 * @param elsewhere the host a redirect points to, or {@code null}
		 * @param servers every server to close with the endpoint
		 */
		HostileEndpoint(URI uri, MetadataStubServer stub, MetadataStubServer elsewhere, AutoCloseable... servers) {
			this.uri = uri;
			this.stub = stub;
			this.elsewhere = elsewhere;
			this.servers = List.of(servers);
		}

		/**
		 * The base URL to point a source at.
		 * @return the URL
		 */
		URI uri() {
			return this.uri;
		}

		/**
		 * Requests that reached the host a redirect pointed to.
		 * @return the requests, empty for any behaviour but {@link #REDIRECTS_TO_ANOTHER_HOST}
		 */
		List<MetadataStubServer.RecordedRequest> requestsElsewhere() {
			return (this.elsewhere != null) ? this.elsewhere.requests() : List.of();
		}

		/**
		 * Tokens the endpoint issued.
		 * @return the tokens, empty unless the endpoint plays IMDS
		 */
		Set<String> issuedTokens() {
			return (this.stub != null) ? this.stub.issuedTokens() : Set.of();
		}

		/**
		 * Body bytes written by a huge answer so far.
		 * @return the count
		 */
		long bytesStreamed() {
			return (this.stub != null) ? this.stub.bytesStreamed() : 0;
		}

		/**
		 * Huge answers still being written.
		 * @return the count
		 */
		int openStreams() {
			return (this.stub != null) ? this.stub.openStreams() : 0;
		}

		@Override
		public void close() {
			for (AutoCloseable server : this.servers) {
				try {
					server.close();
				}
				catch (Exception ex) {
					throw new IllegalStateException("Could not close " + server, ex);
				}
			}
		}

	}

}
