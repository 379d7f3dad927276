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

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.followerfetch.detection.MetadataHttpClientTests.elapsedSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link GcpMetadataRackSource} against a loopback metadata server.
 *
 * @author follower-fetch authors
 */
class GcpMetadataRackSourceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private static final Duration MARGIN = Duration.ofSeconds(2);

	private static final Function<String, String> NO_ENVIRONMENT = (name) -> null;

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@Test
	void zoneIsTakenFromTheProjectZonePathWithTheMetadataFlavorHeaderSent() throws Exception {
		this.metadata.stub().gcp("projects/123456/zones/us-central1-b");
		assertThat(source().lookup(TIMEOUT).candidates()).containsExactly(new RackCandidate("us-central1-b", "zone"));
		assertThat(this.metadata.stub().requests()).singleElement().satisfies((request) -> {
			assertThat(request.path()).isEqualTo(MetadataStubServer.GCP_ZONE_PATH);
			assertThat(request.header("Metadata-Flavor")).isEqualTo("Google");
		});
	}

	@Test
	void answerWithoutTheMetadataFlavorHeaderIsRejected() {
		this.metadata.stub().route(MetadataStubServer.GCP_ZONE_PATH,
				MetadataStubServer.answer(200, "projects/123456/zones/us-central1-b"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(zoneUri() + " answered without the Metadata-Flavor: Google header");
	}

	@ParameterizedTest
	@ValueSource(strings = { "<html><head><title>Captive portal</title></head><body>Sign in</body></html>",
			"us-central1-b", "projects/abc/zones/us-central1-b", "projects/123456/zones/", "{\"zone\":\"x\"}",
			"\u0000\u0001\u0002" })
	void bodyThatIsNotAProjectZonePathIsRejectedQuotingIt(String body) {
		this.metadata.stub().gcp(body);
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(zoneUri() + " answered " + RackValues.quote(body) + ", not projects/<number>/zones/<zone>")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("\n").doesNotContain("\u0000"));
	}

	@Test
	void oversizedBodyFailsNamingTheUrl() {
		this.metadata.stub().gcp("projects/123456/zones/" + "a".repeat(100_000));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(zoneUri() + " sent a body larger than 65536 bytes");
	}

	@Test
	void binaryBodyFailsNamingTheUrl() {
		this.metadata.stub().route(MetadataStubServer.GCP_ZONE_PATH,
				MetadataStubServer.flavored(MetadataStubServer.answer(200,
						new byte[] { (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', (byte) 0xff })));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(zoneUri() + " sent a body that is not UTF-8 text");
	}

	@ParameterizedTest
	@ValueSource(ints = { 403, 404, 500 })
	void errorStatusFailsNamingTheUrl(int status) {
		this.metadata.stub().route(MetadataStubServer.GCP_ZONE_PATH, MetadataStubServer.answer(status, "error"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(zoneUri() + " answered HTTP " + status);
	}

	@Test
	void redirectIsNotFollowed() throws Exception {
		try (MetadataStubServer elsewhere = MetadataStubServer.start()) {
			elsewhere.gcp("projects/123456/zones/us-central1-b");
			this.metadata.stub().route(MetadataStubServer.GCP_ZONE_PATH,
					MetadataStubServer.redirect(302, elsewhere.uri(MetadataStubServer.GCP_ZONE_PATH)));
			assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
				.withMessageStartingWith(zoneUri() + " answered HTTP 302 redirect to ");
			assertThat(elsewhere.requests()).isEmpty();
		}
	}

	@Test
	void endpointThatNeverAnswersFailsWithinTheTimeout() {
		this.metadata.stub().route(MetadataStubServer.GCP_ZONE_PATH, this.metadata.stub().hang());
		long start = System.nanoTime();
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(zoneUri() + " did not answer within " + TIMEOUT.toMillis() + " ms");
		assertThat(elapsedSince(start)).isLessThan(TIMEOUT.plus(MARGIN));
	}

	@Test
	void gceMetadataHostInHostPortFormIsUsedWhenNoEndpointIsConfigured() throws Exception {
		this.metadata.stub().gcp("projects/123456/zones/europe-west4-a");
		GcpMetadataRackSource source = new GcpMetadataRackSource(new MetadataHttpClient(), true, null,
				Map.of("GCE_METADATA_HOST", this.metadata.stub().hostAndPort())::get);
		assertThat(source.lookup(TIMEOUT).candidates()).extracting(RackCandidate::rack)
			.containsExactly("europe-west4-a");
		assertThat(this.metadata.stub().requests()).hasSize(1);
	}

	@Test
	void gceMetadataHostAsAUrlIsUsedToo() throws Exception {
		this.metadata.stub().gcp("projects/123456/zones/europe-west4-a");
		GcpMetadataRackSource source = new GcpMetadataRackSource(new MetadataHttpClient(), true, null,
				Map.of("GCE_METADATA_HOST", this.metadata.stub().uri().toString())::get);
		assertThat(source.lookup(TIMEOUT).isFound()).isTrue();
	}

	@Test
	void invalidGceMetadataHostFailsNamingTheVariableWithoutARequest() {
		GcpMetadataRackSource source = new GcpMetadataRackSource(new MetadataHttpClient(), true, null,
				Map.of("GCE_METADATA_HOST", "metadata host:80")::get);
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source.lookup(TIMEOUT))
			.withMessage("GCE_METADATA_HOST holds \"metadata host:80\", which is not an http(s) URL");
	}

	@Test
	void defaultEndpointIsTheMetadataServerHostName() throws Exception {
		assertThat(GcpMetadataRackSource.DEFAULT_ENDPOINT).isEqualTo(URI.create("http://metadata.google.internal"));
		assertThat(MetadataEndpoints.resolve(null, "GCE_METADATA_HOST", NO_ENVIRONMENT,
				GcpMetadataRackSource.DEFAULT_ENDPOINT))
			.isEqualTo(URI.create("http://metadata.google.internal"));
	}

	@Test
	void defaultEndpointIsNotAskedOnAMachineWhoseFirmwareSaysItIsNoGoogleVm(@TempDir Path root) throws Exception {
		this.metadata.stub().gcp("projects/123456/zones/europe-west4-a");
		Firmware firmware = FirmwareTree.KVM.writeTo(root);
		URI standInForTheDefault = this.metadata.stub().uri();
		GcpMetadataRackSource source = new GcpMetadataRackSource(new MetadataHttpClient(), true, null, NO_ENVIRONMENT,
				firmware, standInForTheDefault);
		RackLookup lookup = source.lookup(TIMEOUT);
		assertThat(lookup.isFound()).isFalse();
		assertThat(lookup.reason()).isEqualTo("not a Google Compute Engine VM (" + root.resolve("sys/class/dmi/id/product_name")
				+ " is \"Standard PC (Q35 + ICH9, 2009)\"), so " + standInForTheDefault + " was not asked");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void endpointChosenByTheUserIsAskedWhateverTheFirmwareSays(@TempDir Path root) throws Exception {
		this.metadata.stub().gcp("projects/123456/zones/europe-west4-a");
		Firmware firmware = FirmwareTree.KVM.writeTo(root);
		GcpMetadataRackSource configured = new GcpMetadataRackSource(new MetadataHttpClient(), true,
				this.metadata.stub().uri(), NO_ENVIRONMENT, firmware, RawLoopbackServer.refusingUri());
		GcpMetadataRackSource fromVariable = new GcpMetadataRackSource(new MetadataHttpClient(), true, null,
				Map.of("GCE_METADATA_HOST", this.metadata.stub().hostAndPort())::get, firmware,
				RawLoopbackServer.refusingUri());
		assertThat(configured.lookup(TIMEOUT).isFound()).isTrue();
		assertThat(fromVariable.lookup(TIMEOUT).isFound()).isTrue();
		assertThat(this.metadata.stub().requests()).hasSize(2);
	}

	@Test
	void disabledSourceMakesNoRequest() throws Exception {
		this.metadata.stub().gcp("projects/123456/zones/us-central1-b");
		GcpMetadataRackSource source = new GcpMetadataRackSource(new MetadataHttpClient(), false,
				this.metadata.stub().uri(), NO_ENVIRONMENT);
		assertThat(source.lookup(TIMEOUT).reason()).isEqualTo("disabled by follower-fetch.detection.gcp.enabled=false");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	private GcpMetadataRackSource source() {
		return new GcpMetadataRackSource(new MetadataHttpClient(), true, this.metadata.stub().uri(), NO_ENVIRONMENT);
	}

	private URI zoneUri() {
		return this.metadata.stub().uri(MetadataStubServer.GCP_ZONE_PATH);
	}

}
