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
import java.util.Map;
import java.util.function.Function;

import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import dev.followerfetch.detection.MetadataStubServer.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.followerfetch.detection.MetadataHttpClientTests.elapsedSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link Ec2MetadataRackSource} against a loopback IMDS.
 *
 * @author follower-fetch authors
 */
class Ec2MetadataRackSourceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final Duration MARGIN = Duration.ofSeconds(2);

	private static final Function<String, String> NO_ENVIRONMENT = (name) -> null;

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@Test
	void imdsV2TokenIsRequestedWithATtlAndSentWithEveryGet() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		RackLookup lookup = source(ZoneFormat.AUTO).lookup(TIMEOUT);
		assertThat(lookup.candidates()).containsExactly(new RackCandidate("use1-az2", "availability-zone-id"),
				new RackCandidate("us-east-1b", "availability-zone"));
		RecordedRequest put = this.metadata.stub().requests(MetadataStubServer.TOKEN_PATH).get(0);
		assertThat(put.method()).isEqualTo("PUT");
		assertThat(put.header(MetadataStubServer.TOKEN_TTL_HEADER)).isEqualTo("60");
		assertThat(this.metadata.stub().requests()).hasSize(3)
			.filteredOn((request) -> request.method().equals("GET"))
			.hasSize(2)
			.allSatisfy((get) -> assertThat(get.header(MetadataStubServer.TOKEN_HEADER)).startsWith("AQAEA"));
	}

	@Test
	void tokenThatIsNotPrintableAsciiIsNotSentAndImdsV1Answers() throws Exception {
		this.metadata.stub().imds(ImdsMode.V1_ALLOWED, "us-east-1b", "use1-az2")
			.route(MetadataStubServer.TOKEN_PATH, MetadataStubServer.answer(200, "<html>\n\u001b[31mtoken</html>"));
		RackLookup lookup = source(ZoneFormat.AUTO).lookup(TIMEOUT);
		assertThat(lookup.candidates()).extracting(RackCandidate::rack).containsExactly("use1-az2", "us-east-1b");
		assertThat(this.metadata.stub().requests()).filteredOn((request) -> request.method().equals("GET"))
			.hasSize(2)
			.allSatisfy((get) -> assertThat(get.header(MetadataStubServer.TOKEN_HEADER)).isNull());
	}

	@Test
	void tokenThatIsNotPrintableAsciiIsReportedByItsUrlAndNotEchoed() {
		this.metadata.stub()
			.route(MetadataStubServer.TOKEN_PATH, MetadataStubServer.answer(200, "<html>\n\u001b[31mtoken</html>"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source(ZoneFormat.AUTO).lookup(TIMEOUT))
			.withMessageStartingWith("IMDSv2 token: " + this.metadata.stub().uri(MetadataStubServer.TOKEN_PATH)
					+ " answered a token that is not 1 to 1024 printable ASCII characters; IMDSv1: ")
			.withMessageNotContaining("token</html>");
	}

	@Test
	void zoneFormatAutoOffersBothFormsTheAzIdFirst() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		assertThat(source(ZoneFormat.AUTO).lookup(TIMEOUT).candidates()).containsExactly(
				new RackCandidate("use1-az2", "availability-zone-id"),
				new RackCandidate("us-east-1b", "availability-zone"));
	}

	@Test
	void anExplicitZoneFormatAsksForThatFormOnly() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		assertThat(source(ZoneFormat.ID).lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("use1-az2", "availability-zone-id"));
		assertThat(source(ZoneFormat.NAME).lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("us-east-1b", "availability-zone"));
		assertThat(this.metadata.stub().requests()).filteredOn((request) -> request.method().equals("GET"))
			.extracting(MetadataStubServer.RecordedRequest::path)
			.containsExactly("/latest/meta-data/placement/availability-zone-id",
					"/latest/meta-data/placement/availability-zone");
	}

	@Test
	void missingAzIdStillAnswersTheAzNameWithZoneFormatAuto() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", null);
		assertThat(source(ZoneFormat.AUTO).lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("us-east-1b", "availability-zone"));
	}

	@Test
	void missingAzIdWithZoneFormatIdFailsNamingTheProperty() {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", null);
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source(ZoneFormat.ID).lookup(TIMEOUT))
			.withMessageEndingWith("(follower-fetch.detection.aws.zone-format=id asks for this form only)")
			.withMessageContaining("/latest/meta-data/placement/availability-zone-id");
	}

	@Test
	void tokenPutStillWorksRightAfterTheAzureSourceAskedTheSameAddress() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2")
			.route(MetadataStubServer.AZURE_ZONE_PATH, MetadataStubServer.answer(404, ""));
		AzureMetadataRackSource azure = new AzureMetadataRackSource(new MetadataHttpClient(), true,
				this.metadata.stub().uri());
		for (int i = 0; i < 3; i++) {
			assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> azure.lookup(TIMEOUT));
			assertThat(source(ZoneFormat.AUTO).lookup(TIMEOUT).candidates()).hasSize(2);
		}
	}

	@Test
	void imdsV1IsUsedWhenTheTokenPutHangsAsWithHopLimitOne() throws Exception {
		this.metadata.stub().imds(ImdsMode.V1_ALLOWED_TOKEN_HANGS, "us-east-1b", "use1-az2");
		Duration timeout = Duration.ofSeconds(3);
		long start = System.nanoTime();
		RackLookup lookup = source(ZoneFormat.AUTO).lookup(timeout);
		assertThat(lookup.candidates()).extracting(RackCandidate::rack).containsExactly("use1-az2", "us-east-1b");
		assertThat(elapsedSince(start)).isBetween(timeout.dividedBy(2).minusMillis(50), timeout.plus(MARGIN));
		assertThat(this.metadata.stub().requests()).filteredOn((request) -> request.method().equals("GET"))
			.hasSize(2)
			.allSatisfy((get) -> assertThat(get.header(MetadataStubServer.TOKEN_HEADER)).isNull());
	}

	@Test
	void imdsV1IsUsedWhenTheTokenEndpointIsMissing() throws Exception {
		this.metadata.stub().imds(ImdsMode.V1_ALLOWED, "us-east-1b", "use1-az2")
			.route(MetadataStubServer.TOKEN_PATH, MetadataStubServer.answer(404, "Not Found"));
		assertThat(source(ZoneFormat.AUTO).lookup(TIMEOUT).candidates()).extracting(RackCandidate::rack)
			.containsExactly("use1-az2", "us-east-1b");
	}

	@Test
	void noTokenAndNoImdsV1FailsNamingBothAttempts() {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2")
			.route(MetadataStubServer.TOKEN_PATH, MetadataStubServer.answer(403, "Forbidden"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source(ZoneFormat.AUTO).lookup(TIMEOUT))
			.withMessage("IMDSv2 token: " + this.metadata.stub().uri(MetadataStubServer.TOKEN_PATH)
					+ " answered HTTP 403; IMDSv1: " + this.metadata.stub().uri(MetadataStubServer.AZ_ID_PATH)
					+ " answered HTTP 401");
	}

	@Test
	void expiredTokenFailsNamingTheUrlAndTheStatus() {
		this.metadata.stub().imds(ImdsMode.TOKEN_EXPIRES, "us-east-1b", "use1-az2");
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source(ZoneFormat.AUTO).lookup(TIMEOUT))
			.withMessage(this.metadata.stub().uri(MetadataStubServer.AZ_ID_PATH) + " answered HTTP 401");
		assertThat(this.metadata.stub().requests(MetadataStubServer.AZ_ID_PATH)).singleElement()
			.satisfies((get) -> assertThat(get.header(MetadataStubServer.TOKEN_HEADER)).isNotNull());
	}

	@ParameterizedTest
	@ValueSource(ints = { 404, 500 })
	void errorStatusOfBothAttributesFailsNamingTheUrl(int status) {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2")
			.route(MetadataStubServer.AZ_ID_PATH, MetadataStubServer.answer(status, "oops"))
			.route(MetadataStubServer.AZ_NAME_PATH, MetadataStubServer.answer(status, "oops"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source(ZoneFormat.AUTO).lookup(TIMEOUT))
			.withMessage(this.metadata.stub().uri(MetadataStubServer.AZ_ID_PATH) + " answered HTTP " + status);
	}

	@Test
	void redirectOfTheAttributeIsNotFollowed() throws Exception {
		try (MetadataStubServer elsewhere = MetadataStubServer.start()) {
			elsewhere.imds(ImdsMode.V1_ALLOWED, "us-east-1b", "use1-az2");
			this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2")
				.route(MetadataStubServer.AZ_ID_PATH,
						MetadataStubServer.redirect(302, elsewhere.uri(MetadataStubServer.AZ_ID_PATH)));
			assertThat(source(ZoneFormat.AUTO).lookup(TIMEOUT).candidates())
				.containsExactly(new RackCandidate("us-east-1b", "availability-zone"));
			assertThat(elsewhere.requests()).isEmpty();
		}
	}

	@Test
	void endpointThatNeverAnswersFailsWithinTheTimeout() throws Exception {
		try (RawLoopbackServer holding = RawLoopbackServer.holding()) {
			Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), true, holding.uri(),
					ZoneFormat.AUTO, NO_ENVIRONMENT);
			long start = System.nanoTime();
			assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source.lookup(TIMEOUT))
				.withMessageStartingWith("IMDSv2 token: " + holding.uri() + "/latest/api/token did not answer within")
				.withMessageContaining("IMDSv1: " + holding.uri() + "/latest/meta-data/placement/availability-zone-id");
			assertThat(elapsedSince(start)).isLessThan(TIMEOUT.plus(MARGIN));
		}
	}

	@Test
	void refusedConnectionFailsAtOnceNamingTheUrls() throws Exception {
		URI refusing = RawLoopbackServer.refusingUri();
		Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), true, refusing,
				ZoneFormat.AUTO, NO_ENVIRONMENT);
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source.lookup(TIMEOUT))
			.withMessage("IMDSv2 token: " + refusing + "/latest/api/token refused the connection; IMDSv1: " + refusing
					+ "/latest/meta-data/placement/availability-zone-id refused the connection");
	}

	@ParameterizedTest
	@ValueSource(strings = { "true", "TRUE", " true " })
	void awsEc2MetadataDisabledTurnsTheSourceOffWithoutARequest(String value) throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), true,
				this.metadata.stub().uri(), ZoneFormat.AUTO, Map.of("AWS_EC2_METADATA_DISABLED", value)::get);
		RackLookup lookup = source.lookup(TIMEOUT);
		assertThat(lookup.isFound()).isFalse();
		assertThat(lookup.reason()).isEqualTo("disabled by AWS_EC2_METADATA_DISABLED=true");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void awsEc2MetadataDisabledFalseLeavesTheSourceOn() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), true,
				this.metadata.stub().uri(), ZoneFormat.AUTO, Map.of("AWS_EC2_METADATA_DISABLED", "false")::get);
		assertThat(source.lookup(TIMEOUT).isFound()).isTrue();
	}

	@Test
	void disabledSourceMakesNoRequest() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), false,
				this.metadata.stub().uri(), ZoneFormat.AUTO, NO_ENVIRONMENT);
		assertThat(source.lookup(TIMEOUT).reason()).isEqualTo("disabled by follower-fetch.detection.aws.enabled=false");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void awsEc2MetadataServiceEndpointIsUsedWhenNoEndpointIsConfigured() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), true, null,
				ZoneFormat.AUTO, Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", this.metadata.stub().uri() + "/")::get);
		assertThat(source.endpoint()).isEqualTo(URI.create(this.metadata.stub().uri() + "/"));
		assertThat(source.lookup(TIMEOUT).candidates()).extracting(RackCandidate::rack)
			.containsExactly("use1-az2", "us-east-1b");
		assertThat(this.metadata.stub().requests()).hasSize(3);
	}

	@Test
	void configuredEndpointWinsOverTheVariable() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), true,
				this.metadata.stub().uri(), ZoneFormat.AUTO,
				Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", RawLoopbackServer.refusingUri().toString())::get);
		assertThat(source.endpoint()).isEqualTo(this.metadata.stub().uri());
		assertThat(source.lookup(TIMEOUT).isFound()).isTrue();
	}

	@Test
	void invalidEndpointVariableFailsNamingTheVariableWithoutARequest() {
		Ec2MetadataRackSource source = new Ec2MetadataRackSource(new MetadataHttpClient(), true, null,
				ZoneFormat.AUTO, Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", "ftp://169.254.169.254")::get);
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source.lookup(TIMEOUT))
			.withMessage("AWS_EC2_METADATA_SERVICE_ENDPOINT holds \"ftp://169.254.169.254\", "
					+ "which is not an http(s) URL");
	}

	@Test
	void defaultEndpointIsTheLinkLocalAddressAndIpv6ModeSelectsTheIpv6One() throws Exception {
		Ec2MetadataRackSource ipv4 = new Ec2MetadataRackSource(new MetadataHttpClient(), true, null, ZoneFormat.AUTO,
				NO_ENVIRONMENT);
		Ec2MetadataRackSource ipv6 = new Ec2MetadataRackSource(new MetadataHttpClient(), true, null, ZoneFormat.AUTO,
				Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", "IPv6")::get);
		assertThat(ipv4.endpoint()).isEqualTo(URI.create("http://169.254.169.254"));
		assertThat(ipv6.endpoint()).isEqualTo(URI.create("http://[fd00:ec2::254]"));
	}

	private Ec2MetadataRackSource source(ZoneFormat zoneFormat) {
		return new Ec2MetadataRackSource(new MetadataHttpClient(), true, this.metadata.stub().uri(), zoneFormat,
				NO_ENVIRONMENT);
	}

}
