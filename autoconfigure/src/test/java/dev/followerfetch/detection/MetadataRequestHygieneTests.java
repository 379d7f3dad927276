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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.followerfetch.detection.DetectedRack.Attempt;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import dev.followerfetch.detection.MetadataStubServer.RecordedRequest;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What each network source sends while it detects a rack, as a recording loopback stub
 * sees it: only its placement paths, only the headers it needs, no body but the empty
 * IMDSv2 token {@code PUT}, nothing that identifies the application or its user; and the
 * IMDSv2 token never leaves the requests, not even with DEBUG logging.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class MetadataRequestHygieneTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private static final String AZURE_QUERY = "api-version=2021-02-01&format=text";

	/**
	 * Headers on every request: the Host that HTTP/1.1 requires and the close that keeps
	 * one connection per request.
	 */
	private static final Set<String> EVERY_REQUEST = Set.of("host", "connection");

	@ParameterizedTest
	@EnumSource(NetworkSource.class)
	void everySourceAsksOnlyItsPlacementPathsWithOnlyTheHeadersItNeeds(NetworkSource source) throws Exception {
		try (MetadataStubServer stub = MetadataStubServer.start()) {
			source.play(stub);
			DetectionStartups.runner(source, stub.uri(), TIMEOUT).run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(DetectedRack.class).source()).hasValueSatisfying(
						(detectedFrom) -> assertThat(detectedFrom).startsWith(source.sourceName() + ":"));
			});
			List<RecordedRequest> requests = stub.requests();
			assertThat(requests).extracting(MetadataRequestHygieneTests::requestLine)
				.containsExactlyElementsOf(expectedRequestLines(source));
			for (RecordedRequest request : requests) {
				Map<String, String> headers = headers(request);
				assertThat(headers).as("headers of %s", request)
					.containsOnlyKeys(allowedHeaders(source, request.method()))
					.containsEntry("host", stub.hostAndPort())
					.containsEntry("connection", "close")
					.doesNotContainKeys("authorization", "proxy-authorization", "cookie", "user-agent", "referer",
							"forwarded", "x-forwarded-for");
				assertThat(request.body()).as("body of %s", request).isEmpty();
				expectedValues(source, request, stub).forEach((name, value) -> assertThat(headers)
					.as("headers of %s", request)
					.containsEntry(name, value));
			}
		}
	}

	@ParameterizedTest
	@EnumSource(value = ImdsMode.class, names = { "V2_REQUIRED", "TOKEN_EXPIRES" })
	void imdsTokenNeverReachesTheLogsNorTheDetectedRack(ImdsMode mode, CapturedOutput output) throws Exception {
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		logging.setLogLevel("dev.followerfetch", LogLevel.DEBUG);
		try (MetadataStubServer stub = MetadataStubServer.start()) {
			stub.imds(mode, "us-east-1b", "use1-az2");
			List<String> texts = new ArrayList<>();
			DetectionStartups.runner(NetworkSource.AWS, stub.uri(), TIMEOUT).run((context) -> {
				assertThat(LogFactory.getLog(RackDetection.class).isDebugEnabled()).isTrue();
				DetectedRack detected = context.getBean(DetectedRack.class);
				texts.add(detected.toString());
				texts.add(detected.describeAttempts());
				texts.add(detected.reason().orElse("null"));
				for (Attempt attempt : detected.attempts()) {
					texts.add(attempt.toString());
					texts.add(String.valueOf(attempt.detail()));
				}
			});
			Set<String> tokens = stub.issuedTokens();
			assertThat(tokens).as("tokens issued").isNotEmpty();
			assertThat(stub.requests(MetadataStubServer.AZ_ID_PATH)).as("placement requests that carried a token")
				.isNotEmpty()
				.allSatisfy((request) -> assertThat(tokens).contains(request.header(MetadataStubServer.TOKEN_HEADER)));
			for (String token : tokens) {
				assertThat(texts).noneSatisfy((text) -> assertThat(text).contains(token));
				assertThat(output).doesNotContain(token);
			}
		}
		finally {
			logging.setLogLevel("dev.followerfetch", null);
		}
	}

	private static List<String> expectedRequestLines(NetworkSource source) {
		return switch (source) {
			case AWS -> List.of("PUT " + MetadataStubServer.TOKEN_PATH, "GET " + MetadataStubServer.AZ_ID_PATH,
					"GET " + MetadataStubServer.AZ_NAME_PATH);
			case ECS -> List.of("GET " + MetadataStubServer.ECS_BASE_PATH + "/task");
			case GCP -> List.of("GET " + MetadataStubServer.GCP_ZONE_PATH);
			case AZURE -> List.of("GET " + MetadataStubServer.AZURE_ZONE_PATH + "?" + AZURE_QUERY,
					"GET " + MetadataStubServer.AZURE_LOCATION_PATH + "?" + AZURE_QUERY);
		};
	}

	private static Set<String> allowedHeaders(NetworkSource source, String method) {
		Set<String> own = switch (source) {
			case AWS -> "PUT".equals(method) ? Set.of("content-length", "x-aws-ec2-metadata-token-ttl-seconds")
					: Set.of("x-aws-ec2-metadata-token");
			case ECS -> Set.of();
			case GCP -> Set.of("metadata-flavor");
			case AZURE -> Set.of("metadata");
		};
		return Stream.concat(EVERY_REQUEST.stream(), own.stream()).collect(Collectors.toSet());
	}

	private static Map<String, String> expectedValues(NetworkSource source, RecordedRequest request,
			MetadataStubServer stub) {
		return switch (source) {
			case AWS -> "PUT".equals(request.method())
					? Map.of("content-length", "0", "x-aws-ec2-metadata-token-ttl-seconds",
							Ec2MetadataRackSource.TOKEN_TTL_SECONDS)
					: Map.of("x-aws-ec2-metadata-token", stub.issuedTokens().iterator().next());
			case ECS -> Map.of();
			case GCP -> Map.of("metadata-flavor", "Google");
			case AZURE -> Map.of("metadata", "true");
		};
	}

	private static String requestLine(RecordedRequest request) {
		return request.method() + " " + request.path() + ((request.query() != null) ? "?" + request.query() : "");
	}

	private static Map<String, String> headers(RecordedRequest request) {
		Map<String, String> headers = new TreeMap<>();
		request.headers().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", values)));
		return headers;
	}

}
