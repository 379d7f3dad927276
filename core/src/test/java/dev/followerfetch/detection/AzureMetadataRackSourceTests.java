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
import java.time.Duration;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.util.ReflectionTestUtils;

import static dev.followerfetch.detection.MetadataHttpClientTests.elapsedSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link AzureMetadataRackSource} against a loopback instance metadata service.
 *
 * @author follower-fetch authors
 */
class AzureMetadataRackSourceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private static final Duration MARGIN = Duration.ofSeconds(2);

	private static final String QUERY = "?api-version=2021-02-01&format=text";

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@Test
	void locationAndZoneAreOfferedAsNodeLabelFormFirstWithTheMetadataHeaderSent() throws Exception {
		this.metadata.stub().azure("2", "eastus");
		assertThat(source().lookup(TIMEOUT).candidates()).containsExactly(
				new RackCandidate("eastus-2", "location-zone"), new RackCandidate("2", "zone"));
		assertThat(this.metadata.stub().requests()).hasSize(2).allSatisfy((request) -> {
			assertThat(request.header("Metadata")).isEqualTo("true");
			assertThat(request.query()).isEqualTo("api-version=2021-02-01&format=text");
		});
	}

	@Test
	void vmWithoutAZoneIsNotFoundAndTheLocationIsNotAsked() throws Exception {
		this.metadata.stub().azure("", "eastus");
		RackLookup lookup = source().lookup(TIMEOUT);
		assertThat(lookup.isFound()).isFalse();
		assertThat(lookup.reason()).isEqualTo("the VM is not in an availability zone (empty zone)");
		assertThat(this.metadata.stub().requests()).singleElement()
			.satisfies((request) -> assertThat(request.path()).isEqualTo(MetadataStubServer.AZURE_ZONE_PATH));
	}

	@Test
	void anEmptyLocationLeavesOnlyTheBareZone() throws Exception {
		this.metadata.stub().azure("2", "");
		assertThat(source().lookup(TIMEOUT).candidates()).containsExactly(new RackCandidate("2", "zone"));
	}

	@ParameterizedTest
	@ValueSource(ints = { 400, 404, 500 })
	void errorStatusFailsNamingTheUrl(int status) {
		this.metadata.stub()
			.route(MetadataStubServer.AZURE_ZONE_PATH, MetadataStubServer.answer(status, "{\"error\":\"x\"}"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(
					this.metadata.stub().uri(MetadataStubServer.AZURE_ZONE_PATH + QUERY) + " answered HTTP " + status);
	}

	@Test
	void failureOfTheLocationFailsNamingItsUrl() {
		this.metadata.stub().azure("2", "eastus")
			.route(MetadataStubServer.AZURE_LOCATION_PATH, MetadataStubServer.answer(500, ""));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(
					this.metadata.stub().uri(MetadataStubServer.AZURE_LOCATION_PATH + QUERY) + " answered HTTP 500");
	}

	@Test
	void endpointThatNeverAnswersFailsWithinTheTimeout() {
		this.metadata.stub()
			.azure("2", "eastus")
			.route(MetadataStubServer.AZURE_LOCATION_PATH, this.metadata.stub().hang());
		long start = System.nanoTime();
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessageStartingWith(
					this.metadata.stub().uri(MetadataStubServer.AZURE_LOCATION_PATH + QUERY) + " did not answer");
		assertThat(elapsedSince(start)).isLessThan(TIMEOUT.plus(MARGIN));
	}

	@Test
	void redirectIsNotFollowed() throws Exception {
		try (MetadataStubServer elsewhere = MetadataStubServer.start()) {
			elsewhere.azure("2", "eastus");
			this.metadata.stub().route(MetadataStubServer.AZURE_ZONE_PATH,
					MetadataStubServer.redirect(307, elsewhere.uri(MetadataStubServer.AZURE_ZONE_PATH + QUERY)));
			assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
				.withMessageContaining("answered HTTP 307 redirect");
			assertThat(elsewhere.requests()).isEmpty();
		}
	}

	@Test
	void defaultEndpointIsTheLinkLocalAddress() {
		AzureMetadataRackSource source = new AzureMetadataRackSource(new MetadataHttpClient(), true, null);
		assertThat(ReflectionTestUtils.getField(source, "endpoint")).isEqualTo(URI.create("http://169.254.169.254"));
	}

	@Test
	void disabledSourceMakesNoRequest() throws Exception {
		this.metadata.stub().azure("2", "eastus");
		AzureMetadataRackSource source = new AzureMetadataRackSource(new MetadataHttpClient(), false,
				this.metadata.stub().uri());
		assertThat(source.lookup(TIMEOUT).reason())
			.isEqualTo("disabled by follower-fetch.detection.azure.enabled=false");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	private AzureMetadataRackSource source() {
		return new AzureMetadataRackSource(new MetadataHttpClient(), true, this.metadata.stub().uri());
	}

}
