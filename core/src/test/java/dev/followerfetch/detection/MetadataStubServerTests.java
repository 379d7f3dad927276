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

import java.time.Duration;
import java.util.Map;

import dev.followerfetch.detection.MetadataHttpClient.Response;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that {@link MetadataStubServer} is as strict as the endpoints it plays, so that a
 * source passing against it really sends what the real endpoint requires.
 *
 * @author follower-fetch authors
 */
class MetadataStubServerTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private final MetadataHttpClient client = new MetadataHttpClient();

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@Test
	void imdsTokenPutWithoutTtlHeaderIsRejectedWith400() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		assertThat(status("PUT", MetadataStubServer.TOKEN_PATH, Map.of())).isEqualTo(400);
		assertThat(status("PUT", MetadataStubServer.TOKEN_PATH, Map.of(MetadataStubServer.TOKEN_TTL_HEADER, "0")))
			.isEqualTo(400);
		assertThat(status("GET", MetadataStubServer.TOKEN_PATH, Map.of(MetadataStubServer.TOKEN_TTL_HEADER, "60")))
			.isEqualTo(405);
	}

	@Test
	void imdsV2GetWithoutAValidTokenIsRejectedWith401() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		assertThat(status("GET", MetadataStubServer.AZ_ID_PATH, Map.of())).isEqualTo(401);
		assertThat(status("GET", MetadataStubServer.AZ_ID_PATH, Map.of(MetadataStubServer.TOKEN_HEADER, "forged")))
			.isEqualTo(401);
		String token = body("PUT", MetadataStubServer.TOKEN_PATH, Map.of(MetadataStubServer.TOKEN_TTL_HEADER, "60"));
		assertThat(body("GET", MetadataStubServer.AZ_ID_PATH, Map.of(MetadataStubServer.TOKEN_HEADER, token)))
			.isEqualTo("use1-az2");
	}

	@Test
	void imdsV1AllowedAnswersAGetWithoutToken() throws Exception {
		this.metadata.stub().imds(ImdsMode.V1_ALLOWED, "us-east-1b", "use1-az2");
		assertThat(body("GET", MetadataStubServer.AZ_NAME_PATH, Map.of())).isEqualTo("us-east-1b");
	}

	@Test
	void imdsExpiredTokenIsRejectedWith401() throws Exception {
		this.metadata.stub().imds(ImdsMode.TOKEN_EXPIRES, "us-east-1b", "use1-az2");
		String token = body("PUT", MetadataStubServer.TOKEN_PATH, Map.of(MetadataStubServer.TOKEN_TTL_HEADER, "60"));
		assertThat(status("GET", MetadataStubServer.AZ_ID_PATH, Map.of(MetadataStubServer.TOKEN_HEADER, token)))
			.isEqualTo(401);
	}

	@Test
	void gcpWithoutMetadataFlavorIsRejectedWith403() throws Exception {
		this.metadata.stub().gcp("projects/123456/zones/us-central1-b");
		assertThat(status("GET", MetadataStubServer.GCP_ZONE_PATH, Map.of())).isEqualTo(403);
		Response response = send("GET", MetadataStubServer.GCP_ZONE_PATH, Map.of("Metadata-Flavor", "Google"));
		assertThat(response.body()).isEqualTo("projects/123456/zones/us-central1-b");
		assertThat(response.header("Metadata-Flavor")).isEqualTo("Google");
	}

	@Test
	void azureWithoutMetadataHeaderOrApiVersionIsRejectedWith400() throws Exception {
		this.metadata.stub().azure("2", "eastus");
		String query = "?api-version=2021-02-01&format=text";
		assertThat(status("GET", MetadataStubServer.AZURE_ZONE_PATH + query, Map.of())).isEqualTo(400);
		assertThat(status("GET", MetadataStubServer.AZURE_ZONE_PATH + "?format=text", Map.of("Metadata", "true")))
			.isEqualTo(400);
		assertThat(body("GET", MetadataStubServer.AZURE_ZONE_PATH + query, Map.of("Metadata", "true"))).isEqualTo("2");
	}

	@Test
	void ecsAnswersATaskDocumentThatParses() throws Exception {
		this.metadata.stub().ecs("us-east-1a");
		String document = body("GET", MetadataStubServer.ECS_BASE_PATH + "/task", Map.of());
		assertThat(JsonFields.string(document, "AvailabilityZone")).isEqualTo("us-east-1a");
		assertThat(JsonFields.string(document, "LaunchType")).isEqualTo("FARGATE");
	}

	@Test
	void requestsAreRecordedWithMethodPathQueryAndHeaders() throws Exception {
		this.metadata.stub().azure("2", "eastus");
		body("GET", MetadataStubServer.AZURE_ZONE_PATH + "?api-version=2021-02-01&format=text",
				Map.of("Metadata", "true"));
		assertThat(this.metadata.stub().requests()).singleElement().satisfies((request) -> {
			assertThat(request.method()).isEqualTo("GET");
			assertThat(request.path()).isEqualTo(MetadataStubServer.AZURE_ZONE_PATH);
			assertThat(request.query()).isEqualTo("api-version=2021-02-01&format=text");
			assertThat(request.header("metadata")).isEqualTo("true");
		});
	}

	private int status(String method, String pathAndQuery, Map<String, String> headers) throws Exception {
		return send(method, pathAndQuery, headers).status();
	}

	private String body(String method, String pathAndQuery, Map<String, String> headers) throws Exception {
		Response response = send(method, pathAndQuery, headers);
		assertThat(response.status()).isEqualTo(200);
		return response.body();
	}

	private Response send(String method, String pathAndQuery, Map<String, String> headers) throws Exception {
		return this.client.send(method, this.metadata.stub().uri(pathAndQuery), headers, TIMEOUT);
	}

}
