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

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link EcsTaskMetadataRackSource} against a loopback task metadata endpoint.
 *
 * @author follower-fetch authors
 */
class EcsTaskMetadataRackSourceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@Test
	void availabilityZoneIsReadFromTheTaskDocument() throws Exception {
		this.metadata.stub().ecs("us-east-1a");
		assertThat(source().lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("us-east-1a", "availability-zone"));
		assertThat(this.metadata.stub().requests()).singleElement()
			.satisfies((request) -> assertThat(request.path()).isEqualTo(MetadataStubServer.ECS_BASE_PATH + "/task"));
	}

	@Test
	void trailingSlashOfTheVariableIsIgnored() throws Exception {
		this.metadata.stub().ecs("us-east-1a");
		EcsTaskMetadataRackSource source = new EcsTaskMetadataRackSource(new MetadataHttpClient(), true,
				Map.of(EcsTaskMetadataRackSource.VARIABLE, taskBase() + "/")::get);
		assertThat(source.lookup(TIMEOUT).isFound()).isTrue();
	}

	@Test
	void unsetVariableIsNotFoundWithoutARequest() throws Exception {
		EcsTaskMetadataRackSource source = new EcsTaskMetadataRackSource(new MetadataHttpClient(), true,
				(name) -> null);
		assertThat(source.lookup(TIMEOUT).reason()).isEqualTo("ECS_CONTAINER_METADATA_URI_V4 not set");
	}

	@Test
	void disabledSourceMakesNoRequest() throws Exception {
		this.metadata.stub().ecs("us-east-1a");
		EcsTaskMetadataRackSource source = new EcsTaskMetadataRackSource(new MetadataHttpClient(), false,
				Map.of(EcsTaskMetadataRackSource.VARIABLE, taskBase())::get);
		assertThat(source.lookup(TIMEOUT).reason()).isEqualTo("disabled by follower-fetch.detection.ecs.enabled=false");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void invalidVariableFailsNamingIt() {
		EcsTaskMetadataRackSource source = new EcsTaskMetadataRackSource(new MetadataHttpClient(), true,
				Map.of(EcsTaskMetadataRackSource.VARIABLE, "not a url")::get);
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source.lookup(TIMEOUT))
			.withMessage("ECS_CONTAINER_METADATA_URI_V4 holds \"not a url/task\", which is not an http(s) URL");
	}

	@ParameterizedTest
	@ValueSource(strings = { "<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", "{\"AvailabilityZone\":",
			"{\"AvailabilityZone\": \"us-east-1a\",}", "{} trailing", "[\"us-east-1a\"]", "" })
	void bodyThatIsNotAJsonObjectFailsNamingTheUrl(String body) {
		this.metadata.stub().route(MetadataStubServer.ECS_BASE_PATH + "/task", MetadataStubServer.answer(200, body));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessageStartingWith(taskUri() + " answered a body that is not a JSON object: ")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("\n"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"TaskARN\":\"arn\"}", "{\"AvailabilityZone\":null}", "{\"AvailabilityZone\":1}",
			"{\"Containers\":[{\"AvailabilityZone\":\"us-east-1a\"}]}" })
	void taskDocumentWithoutATopLevelAvailabilityZoneStringFailsNamingTheUrl(String body) {
		this.metadata.stub().route(MetadataStubServer.ECS_BASE_PATH + "/task", MetadataStubServer.answer(200, body));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(taskUri() + " answered a task document without AvailabilityZone");
	}

	@Test
	void errorStatusFailsNamingTheUrl() {
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(taskUri() + " answered HTTP 404");
	}

	private EcsTaskMetadataRackSource source() {
		return new EcsTaskMetadataRackSource(new MetadataHttpClient(), true,
				Map.of(EcsTaskMetadataRackSource.VARIABLE, taskBase())::get);
	}

	private String taskBase() {
		return this.metadata.stub().uri(MetadataStubServer.ECS_BASE_PATH).toString();
	}

	private URI taskUri() {
		return this.metadata.stub().uri(MetadataStubServer.ECS_BASE_PATH + "/task");
	}

}
