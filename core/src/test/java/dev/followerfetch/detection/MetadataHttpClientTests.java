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

import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import dev.followerfetch.detection.MetadataHttpClient.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link MetadataHttpClient} against loopback servers.
 *
 * @author follower-fetch authors
 */
class MetadataHttpClientTests {

	private static final Duration TIMEOUT = Duration.ofMillis(500);

	private static final Duration MARGIN = Duration.ofSeconds(2);

	private final MetadataHttpClient client = new MetadataHttpClient();

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@Test
	void bodyOfA200IsReturnedAndTheRequestCarriesTheGivenHeaders() throws Exception {
		this.metadata.stub().route("/value", MetadataStubServer.answer(200, "us-east-1b"));
		String body = this.client.fetch("GET", this.metadata.stub().uri("/value"), Map.of("X-Test", "yes"), TIMEOUT);
		assertThat(body).isEqualTo("us-east-1b");
		assertThat(this.metadata.stub().requests()).singleElement().satisfies((request) -> {
			assertThat(request.header("X-Test")).isEqualTo("yes");
			assertThat(request.header("Connection")).isEqualTo("close");
		});
	}

	@Test
	void putSendsAnEmptyBodyWithContentLengthZero() throws Exception {
		this.metadata.stub().route("/token", MetadataStubServer.answer(200, "token"));
		this.client.fetch("PUT", this.metadata.stub().uri("/token"), Map.of(), TIMEOUT);
		assertThat(this.metadata.stub().requests()).singleElement().satisfies((request) -> {
			assertThat(request.method()).isEqualTo("PUT");
			assertThat(request.header("Content-Length")).isEqualTo("0");
		});
	}

	@Test
	void putAfterAnEmptyAnswerFromAServerThatClosesSilentlyStillGetsThrough() throws Exception {
		this.metadata.stub().route("/empty", MetadataStubServer.answer(404, ""));
		this.metadata.stub().route("/token", MetadataStubServer.answer(200, "token"));
		for (int i = 0; i < 5; i++) {
			assertThat(this.client.send("GET", this.metadata.stub().uri("/empty"), Map.of(), TIMEOUT).status())
				.isEqualTo(404);
			assertThat(this.client.fetch("PUT", this.metadata.stub().uri("/token"), Map.of(), TIMEOUT))
				.isEqualTo("token");
		}
	}

	@Test
	void jvmProxySettingsAreNotUsed() throws Exception {
		this.metadata.stub().route("/value", MetadataStubServer.answer(200, "us-east-1b"));
		Properties saved = (Properties) System.getProperties().clone();
		try (RawLoopbackServer proxy = RawLoopbackServer
			.answering("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")) {
			System.setProperty("http.proxyHost", proxy.host());
			System.setProperty("http.proxyPort", Integer.toString(proxy.port()));
			System.setProperty("http.nonProxyHosts", "");
			HttpURLConnection viaDefaults = (HttpURLConnection) this.metadata.stub()
				.uri("/value")
				.toURL()
				.openConnection();
			viaDefaults.setConnectTimeout(2000);
			viaDefaults.setReadTimeout(2000);
			assertThat(viaDefaults.getResponseCode()).as("a plain connection goes through the proxy").isEqualTo(502);
			viaDefaults.disconnect();
			assertThat(proxy.connections()).isEqualTo(1);
			String body = this.client.fetch("GET", this.metadata.stub().uri("/value"), Map.of(), TIMEOUT);
			assertThat(body).isEqualTo("us-east-1b");
			assertThat(proxy.connections()).isEqualTo(1);
			assertThat(proxy.requestLines()).singleElement().asString().contains("http://127.0.0.1:");
			assertThat(this.metadata.stub().requests()).singleElement()
				.satisfies((request) -> assertThat(request.header("Via")).isNull());
		}
		finally {
			System.setProperties(saved);
		}
	}

	@ParameterizedTest
	@ValueSource(ints = { 301, 302, 303, 307, 308 })
	void redirectIsNotFollowed(int status) throws Exception {
		try (MetadataStubServer target = MetadataStubServer.start()) {
			target.route("/elsewhere", MetadataStubServer.answer(200, "us-east-1b"));
			URI location = target.uri("/elsewhere");
			this.metadata.stub().route("/value", MetadataStubServer.redirect(status, location));
			URI uri = this.metadata.stub().uri("/value");
			assertThatExceptionOfType(MetadataException.class)
				.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
				.withMessage(uri + " answered HTTP " + status + " redirect to \"" + location + "\" (not followed)");
			assertThat(target.requests()).isEmpty();
		}
	}

	@ParameterizedTest
	@ValueSource(ints = { 400, 401, 403, 404, 500, 503 })
	void errorStatusIsReportedWithTheUrl(int status) {
		this.metadata.stub().route("/value", MetadataStubServer.answer(status, "<html><body>\nerror\n</body></html>"));
		URI uri = this.metadata.stub().uri("/value");
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
			.withMessage(uri + " answered HTTP " + status);
	}

	@Test
	void bodyLargerThanTheCapIsRejectedNamingTheUrl() {
		this.metadata.stub().route("/value", MetadataStubServer.answer(200, "a".repeat(1024 * 1024)));
		URI uri = this.metadata.stub().uri("/value");
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
			.withMessage(uri + " sent a body larger than 65536 bytes");
	}

	@Test
	void bodyExactlyAtTheCapIsAccepted() throws Exception {
		MetadataHttpClient small = new MetadataHttpClient(16);
		this.metadata.stub().route("/ok", MetadataStubServer.answer(200, "a".repeat(16)));
		this.metadata.stub().route("/big", MetadataStubServer.answer(200, "a".repeat(17)));
		assertThat(small.fetch("GET", this.metadata.stub().uri("/ok"), Map.of(), TIMEOUT)).hasSize(16);
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> small.fetch("GET", this.metadata.stub().uri("/big"), Map.of(), TIMEOUT))
			.withMessageEndingWith("sent a body larger than 16 bytes");
	}

	@Test
	void bodyThatIsNotUtf8IsRejectedNamingTheUrl() {
		this.metadata.stub()
			.route("/value", MetadataStubServer.answer(200, new byte[] { (byte) 0xff, (byte) 0xfe, 0x00, 0x1b }));
		URI uri = this.metadata.stub().uri("/value");
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
			.withMessage(uri + " sent a body that is not UTF-8 text");
	}

	@Test
	void responseThatIsNotHttpIsRejectedNamingTheUrl() throws Exception {
		try (RawLoopbackServer server = RawLoopbackServer.answering("\u0000\u0001garbage\r\n\r\nmore garbage")) {
			URI uri = server.uri().resolve("/value");
			assertThatExceptionOfType(MetadataException.class)
				.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
				.satisfies((ex) -> assertOneLineNaming(ex, uri));
		}
	}

	@Test
	void bodyCutShortOfItsDeclaredLengthIsRejectedNamingTheUrl() throws Exception {
		try (RawLoopbackServer server = RawLoopbackServer
			.answering("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nuse1-a")) {
			URI uri = server.uri().resolve("/value");
			assertThatExceptionOfType(MetadataException.class)
				.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
				.withMessage(uri + " closed the connection after 6 of 10 body bytes");
		}
	}

	@Test
	void chunkedBodyIsReassembledAfterAnInterimResponse() throws Exception {
		try (RawLoopbackServer server = RawLoopbackServer.answering("HTTP/1.1 100 Continue\r\n\r\n"
				+ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nuse1\r\n4;note=x\r\n-az2\r\n0\r\n\r\n")) {
			assertThat(this.client.fetch("GET", server.uri().resolve("/value"), Map.of(), TIMEOUT))
				.isEqualTo("use1-az2");
		}
	}

	@Test
	void chunkedBodyLargerThanTheCapIsRejectedWhileReading() {
		this.metadata.stub().route("/value", this.metadata.stub().huge(1024L * 1024 * 1024));
		URI uri = this.metadata.stub().uri("/value");
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
			.withMessage(uri + " sent a body larger than 65536 bytes");
	}

	@Test
	void headerValueWithALineBreakIsNotSentAndNotEchoed() {
		this.metadata.stub().route("/value", MetadataStubServer.answer(200, "us-east-1b"));
		URI uri = this.metadata.stub().uri("/value");
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of("X-Token", "secret\r\nX-Injected: 1"), TIMEOUT))
			.withMessage(uri + " was not asked: header \"X-Token\" has a character that is not allowed in a header");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void refusedConnectionFailsAtOnceNamingTheUrl() throws Exception {
		URI uri = RawLoopbackServer.refusingUri().resolve("/value");
		Duration timeout = Duration.ofSeconds(5);
		long start = System.nanoTime();
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), timeout))
			.withMessage(uri + " refused the connection");
		assertThat(elapsedSince(start)).isLessThan(timeout);
	}

	@Test
	void endpointThatAcceptsAndNeverAnswersFailsAtTheDeadline() throws Exception {
		try (RawLoopbackServer server = RawLoopbackServer.holding()) {
			assertThat(timeToFailAtTheDeadline(server.uri().resolve("/value")))
				.isBetween(TIMEOUT.minusMillis(50), TIMEOUT.plus(MARGIN));
		}
	}

	@Test
	void handlerThatNeverAnswersFailsAtTheDeadline() {
		this.metadata.stub().route("/value", this.metadata.stub().hang());
		assertThat(timeToFailAtTheDeadline(this.metadata.stub().uri("/value"))).isLessThan(TIMEOUT.plus(MARGIN));
	}

	@Test
	void statusLineAndHeadersTrickledByteByByteStillEndAtTheDeadline() throws Exception {
		String response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n"
				+ "Connection: close\r\n\r\nus-east-1b";
		try (RawLoopbackServer server = RawLoopbackServer.trickling(response, Duration.ofMillis(100))) {
			assertThat(timeToFailAtTheDeadline(server.uri().resolve("/value"))).isLessThan(TIMEOUT.plus(MARGIN));
		}
	}

	@Test
	void bodyTrickledByteByByteEndsAtTheDeadline() {
		String body = "projects/123456/zones/us-central1-b";
		this.metadata.stub().route("/value", this.metadata.stub().trickle(body, Duration.ofMillis(100)));
		assertThat(timeToFailAtTheDeadline(this.metadata.stub().uri("/value"))).isLessThan(TIMEOUT.plus(MARGIN));
	}

	@Test
	void bodyTrickledJustInsideTheReadTimeoutEndsWithinOneMoreReadTimeout() {
		String body = "projects/123456/zones/us-central1-b";
		this.metadata.stub().route("/value", this.metadata.stub().trickle(body, Duration.ofMillis(450)));
		assertThat(timeToFailAtTheDeadline(this.metadata.stub().uri("/value")))
			.isLessThan(TIMEOUT.multipliedBy(2).plus(MARGIN));
	}

	@Test
	void bodyThatStallsAfterTheHeadersEndsAtTheDeadline() {
		this.metadata.stub().route("/value", this.metadata.stub().trickle("us-east-1b", Duration.ofSeconds(30)));
		assertThat(timeToFailAtTheDeadline(this.metadata.stub().uri("/value"))).isLessThan(TIMEOUT.plus(MARGIN));
	}

	@Test
	void exhaustedTimeoutFailsWithoutContactingTheEndpoint() {
		this.metadata.stub().route("/value", MetadataStubServer.answer(200, "us-east-1b"));
		URI uri = this.metadata.stub().uri("/value");
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), Duration.ZERO))
			.withMessage(uri + " did not answer within 0 ms");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void sendReturnsNon200ResponsesWithTheirHeaders() throws Exception {
		this.metadata.stub().route("/value", MetadataStubServer.redirect(302, URI.create("http://127.0.0.1:1/x")));
		Response response = this.client.send("GET", this.metadata.stub().uri("/value"), Map.of(), TIMEOUT);
		assertThat(response.status()).isEqualTo(302);
		assertThat(response.isOk()).isFalse();
		assertThat(response.header("location")).isEqualTo("http://127.0.0.1:1/x");
	}

	/**
	 * Fetch a URL that does not answer in time, and check that the fetch fails saying so.
	 * @param uri the URL
	 * @return how long the fetch took to fail
	 */
	private Duration timeToFailAtTheDeadline(URI uri) {
		long start = System.nanoTime();
		assertThatExceptionOfType(MetadataException.class)
			.isThrownBy(() -> this.client.fetch("GET", uri, Map.of(), TIMEOUT))
			.withMessage(uri + " did not answer within 500 ms");
		return elapsedSince(start);
	}

	static void assertOneLineNaming(Throwable ex, URI uri) {
		assertThat(ex.getMessage()).startsWith(uri.toString()).doesNotContain("\n").doesNotContain("\r");
	}

	static Duration elapsedSince(long start) {
		return Duration.ofNanos(System.nanoTime() - start);
	}

}
