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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.DetectedRack.Attempt;
import dev.followerfetch.detection.DetectedRack.Outcome;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.followerfetch.detection.MetadataHttpClientTests.elapsedSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link RackDetector} with real sources against loopback stubs.
 *
 * @author follower-fetch authors
 */
class RackDetectorTests {

	private static final Duration BUDGET = Duration.ofMillis(500);

	private static final Duration MARGIN = Duration.ofSeconds(2);

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@BeforeEach
	void awaitDetectionThreadsOfEarlierTests() {
		await().atMost(Duration.ofSeconds(5)).until(() -> detectionThreads() == 0);
	}

	@Test
	void firstSourceInOrderThatAnswersWins() {
		DetectedRack detected = detect(Duration.ofSeconds(1), env("use1-az1"), fixed("file", false, "use1-az2"));
		assertThat(detected.rack()).hasValue("use1-az1");
		assertThat(detected.source()).hasValue("env:KAFKA_CLIENT_RACK");
		assertThat(detected.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.FOUND, Outcome.SKIPPED);
	}

	@Test
	void localSourceOfHigherPriorityAnsweringMeansNoRemoteRequestAtAll() {
		allCloudsAnswering();
		DetectedRack detected = detect(Duration.ofSeconds(1), env("use1-az1"), ecs(this.metadata.stub().uri()),
				aws(this.metadata.stub().uri()), gcp(this.metadata.stub().uri()), azure(this.metadata.stub().uri()));
		assertThat(detected.rack()).hasValue("use1-az1");
		assertThat(detected.attempts()).extracting(Attempt::outcome)
			.containsExactly(Outcome.FOUND, Outcome.SKIPPED, Outcome.SKIPPED, Outcome.SKIPPED, Outcome.SKIPPED);
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void remoteSourcesAreAskedOnlyWhenTheLocalOnesBeforeThemHaveNothing() {
		allCloudsAnswering();
		DetectedRack detected = detect(Duration.ofSeconds(1), env(null), aws(this.metadata.stub().uri()),
				gcp(this.metadata.stub().uri()));
		assertThat(detected.rack()).hasValue("use1-az2");
		assertThat(detected.source()).hasValue("aws:availability-zone-id");
		assertThat(detected.attempts()).extracting(Attempt::outcome)
			.containsExactly(Outcome.NOT_FOUND, Outcome.FOUND, Outcome.SKIPPED);
		assertThat(this.metadata.stub().requests(MetadataStubServer.TOKEN_PATH)).hasSize(1);
	}

	@Test
	void higherPriorityRemoteSourceThatAnswersLaterStillWins() {
		Duration delay = Duration.ofMillis(300);
		this.metadata.stub()
			.gcp("projects/123456/zones/us-central1-b")
			.route(MetadataStubServer.TOKEN_PATH,
					this.metadata.stub().delayed(delay, MetadataStubServer.answer(200, "token")))
			.route(MetadataStubServer.AZ_ID_PATH, MetadataStubServer.answer(200, "use1-az2"))
			.route(MetadataStubServer.AZ_NAME_PATH, MetadataStubServer.answer(200, "us-east-1b"));
		long start = System.nanoTime();
		DetectedRack detected = detect(Duration.ofSeconds(2), aws(this.metadata.stub().uri()),
				gcp(this.metadata.stub().uri()));
		assertThat(detected.source()).hasValue("aws:availability-zone-id");
		assertThat(elapsedSince(start)).isGreaterThanOrEqualTo(delay);
		assertThat(this.metadata.stub().requests(MetadataStubServer.GCP_ZONE_PATH)).as("gcp was asked at the same time")
			.hasSize(1);
		assertThat(detected.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.FOUND, Outcome.SKIPPED);
	}

	@Test
	void remoteSourcesShareOneBudgetAndAreProbedConcurrently() throws Exception {
		Duration budget = Duration.ofMillis(800);
		MetadataStubServer.Responder zone = MetadataStubServer
			.flavored(MetadataStubServer.answer(200, "projects/123456/zones/us-central1-b"));
		this.metadata.stub()
			.route(MetadataStubServer.GCP_ZONE_PATH, this.metadata.stub().delayed(Duration.ofMillis(500), zone));
		try (RawLoopbackServer hanging = RawLoopbackServer.holding()) {
			long start = System.nanoTime();
			DetectedRack detected = detect(budget, aws(hanging.uri()), gcp(this.metadata.stub().uri()));
			assertThat(detected.source()).hasValue("gcp:zone");
			assertThat(detected.attempts().get(0).outcome()).isIn(Outcome.TIMED_OUT, Outcome.FAILED);
			assertThat(elapsedSince(start)).isBetween(budget.minusMillis(50), budget.plus(MARGIN));
		}
	}

	@Test
	void hangingSourcesEndDetectionWithinTheBudget() throws Exception {
		this.metadata.stub().route(MetadataStubServer.GCP_ZONE_PATH, this.metadata.stub().hang());
		try (RawLoopbackServer hanging = RawLoopbackServer.holding()) {
			long start = System.nanoTime();
			DetectedRack detected = detect(BUDGET, ecs(hanging.uri()), aws(hanging.uri()),
					gcp(this.metadata.stub().uri()), azure(hanging.uri()));
			assertThat(elapsedSince(start)).isLessThan(BUDGET.plus(MARGIN));
			assertThat(detected.rack()).isEmpty();
			assertThat(detected.attempts()).extracting(Attempt::outcome)
				.allMatch((outcome) -> outcome == Outcome.TIMED_OUT || outcome == Outcome.FAILED);
			assertThat(detected.describeAttempts()).doesNotContain("\n").contains("ecs: ", "aws: ", "gcp: ", "azure: ");
		}
	}

	@Test
	void timedOutSourceIsReportedWithTheBudget() {
		DetectedRack detected = detect(BUDGET, remote("slow", () -> {
			new CountDownLatch(1).await(10, TimeUnit.SECONDS);
			return RackLookup.found("zone", "late");
		}));
		assertThat(detected.attempts()).singleElement().hasToString("slow: timed out, no answer within 500 ms");
	}

	@Test
	void noDetectionThreadOutlivesASourceWhoseEndpointTricklesItsHeaders() throws Exception {
		String response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Padding: " + "x".repeat(200)
				+ "\r\nContent-Length: 8\r\n\r\nuse1-az2";
		this.metadata.stub().gcp("projects/123456/zones/us-central1-b");
		try (RawLoopbackServer trickling = RawLoopbackServer.trickling(response, Duration.ofMillis(50))) {
			DetectedRack detected = detect(BUDGET, aws(trickling.uri()), gcp(this.metadata.stub().uri()));
			assertThat(detected.source()).hasValue("gcp:zone");
			await().atMost(MARGIN).until(() -> detectionThreads() == 0);
		}
	}

	@Test
	void noDetectionThreadOutlivesTheBudgetWhenALowerPrioritySourceHangs() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		try (RawLoopbackServer hanging = RawLoopbackServer.holding()) {
			Duration budget = Duration.ofSeconds(3);
			long start = System.nanoTime();
			DetectedRack detected = detect(budget, aws(this.metadata.stub().uri()), gcp(hanging.uri()));
			assertThat(detected.source()).hasValue("aws:availability-zone-id");
			assertThat(elapsedSince(start)).isLessThan(budget);
			await().atMost(budget.plus(MARGIN)).until(() -> detectionThreads() == 0);
		}
	}

	@Test
	void remoteSourceIgnoringItsTimeoutIsInterruptedAtTheDeadline() {
		AtomicBoolean interrupted = new AtomicBoolean();
		DetectedRack detected = detect(BUDGET, remote("custom", () -> {
			try {
				new CountDownLatch(1).await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
				throw ex;
			}
			return RackLookup.found("zone", "late");
		}));
		assertThat(detected.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.TIMED_OUT);
		await().atMost(MARGIN).untilTrue(interrupted);
		await().atMost(MARGIN).until(() -> detectionThreads() == 0);
	}

	@Test
	void invalidValueIsRejectedNamingSourceAndValueAndTheNextSourceIsTried() {
		this.metadata.stub().gcp("projects/123456/zones/us-central1-b");
		DetectedRack detected = detect(Duration.ofSeconds(1), env("us east\u001b[31m"),
				gcp(this.metadata.stub().uri()));
		assertThat(detected.rack()).hasValue("us-central1-b");
		assertThat(detected.source()).hasValue("gcp:zone");
		assertThat(detected.attempts().get(0)).satisfies((attempt) -> {
			assertThat(attempt.outcome()).isEqualTo(Outcome.INVALID);
			assertThat(attempt.detail()).isEqualTo("invalid rack from env:KAFKA_CLIENT_RACK: value "
					+ "\"us east\\u001b[31m\" has a disallowed character at position 3 "
					+ "(a rack is 1 to 128 characters: letters, digits and - _ . : / +)");
		});
		assertThat(detected.attempts().get(1).outcome()).isEqualTo(Outcome.FOUND);
		assertThat(detected.describeAttempts()).doesNotContain("\n").doesNotContain("\u001b");
	}

	@Test
	void invalidValuesFromImdsAreReportedAndTheNextRemoteSourceAnswers() {
		this.metadata.stub()
			.imds(ImdsMode.V2_REQUIRED, "x".repeat(129), "use1-az2\r\nX-Injected: 1")
			.gcp("projects/123456/zones/us-central1-b");
		DetectedRack detected = detect(Duration.ofSeconds(1), aws(this.metadata.stub().uri()),
				gcp(this.metadata.stub().uri()));
		assertThat(detected.source()).hasValue("gcp:zone");
		assertThat(detected.attempts().get(0)).satisfies((attempt) -> {
			assertThat(attempt.outcome()).isEqualTo(Outcome.INVALID);
			assertThat(attempt.detail()).contains(
					"invalid rack from aws:availability-zone-id: value \"use1-az2\\u000d\\u000aX-Injected: 1\"",
					"invalid rack from aws:availability-zone: value \"" + "x".repeat(40)
							+ "\"... (129 characters) is longer than 128 characters");
		});
	}

	@Test
	void emptyImdsAttributeIsReportedAndTheOtherAttributeStillAnswers() {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "");
		DetectedRack detected = detect(Duration.ofSeconds(1), aws(this.metadata.stub().uri()));
		assertThat(detected.rack()).hasValue("us-east-1b");
		assertThat(detected.source()).hasValue("aws:availability-zone");
		assertThat(detected.describeAttempts()).isEqualTo(
				"aws: us-east-1b (availability-zone), invalid rack from aws:availability-zone-id: empty value");
	}

	@Test
	void emptyEcsAvailabilityZoneIsInvalidNamingTheSource() {
		this.metadata.stub().ecs("");
		DetectedRack detected = detect(Duration.ofSeconds(1), ecs(this.metadata.stub().uri()));
		assertThat(detected.rack()).isEmpty();
		assertThat(detected.attempts()).singleElement()
			.hasToString("ecs: invalid, invalid rack from ecs:availability-zone: empty value");
	}

	@Test
	void refusedAndErrorAnswersAreFailuresNamingTheUrl() throws Exception {
		URI refusing = RawLoopbackServer.refusingUri();
		this.metadata.stub().route(MetadataStubServer.GCP_ZONE_PATH, MetadataStubServer.answer(500, "boom"));
		DetectedRack detected = detect(Duration.ofSeconds(1), aws(refusing), gcp(this.metadata.stub().uri()));
		assertThat(detected.rack()).isEmpty();
		assertThat(detected.attempts()).extracting(Attempt::toString)
			.containsExactly("aws: failed, IMDSv2 token: " + refusing + "/latest/api/token refused the connection; "
					+ "IMDSv1: " + refusing + "/latest/meta-data/placement/availability-zone-id refused the connection",
					"gcp: failed, " + this.metadata.stub().uri(MetadataStubServer.GCP_ZONE_PATH)
							+ " answered HTTP 500");
	}

	@Test
	void sourceThatThrowsIsReportedOnOneLine() {
		DetectedRack detected = detect(Duration.ofSeconds(1), local("broken", () -> {
			throw new IllegalStateException("first line\n\tsecond line");
		}), local("silent", () -> null));
		assertThat(detected.attempts()).extracting(Attempt::toString)
			.containsExactly("broken: failed, first line second line", "silent: failed, returned no lookup");
	}

	@Test
	void localSourceAfterTheRemoteOnesIsStillAskedInItsTurn() throws Exception {
		DetectedRack detected = detect(Duration.ofSeconds(1), aws(RawLoopbackServer.refusingUri()), env("use1-az1"));
		assertThat(detected.source()).hasValue("env:KAFKA_CLIENT_RACK");
		assertThat(detected.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.FAILED, Outcome.FOUND);
	}

	@Test
	void selectorChoosesAmongTheCandidatesOfTheWinningSource() {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		CandidateSelector byName = (source, candidates, timeLeft) -> new CandidateSelector.Selection(candidates.stream()
			.filter((candidate) -> candidate.attribute().equals("availability-zone"))
			.findFirst()
			.orElseThrow(), "brokers use AZ names", null);
		DetectedRack detected = new RackDetector(List.of(aws(this.metadata.stub().uri())), Duration.ofSeconds(1),
				byName)
			.detect();
		assertThat(detected.rack()).hasValue("us-east-1b");
		assertThat(detected.source()).hasValue("aws:availability-zone");
		assertThat(detected.reason()).contains("brokers use AZ names");
		assertThat(detected.candidates()).extracting(RackCandidate::rack).containsExactly("use1-az2", "us-east-1b");
	}

	private void allCloudsAnswering() {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2")
			.gcp("projects/123456/zones/us-central1-b")
			.azure("2", "eastus")
			.ecs("us-east-1a");
	}

	static DetectedRack detect(Duration budget, RackSource... sources) {
		return new RackDetector(List.of(sources), budget, CandidateSelector.FIRST).detect();
	}

	static long detectionThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("follower-fetch-detection-"))
			.count();
	}

	static EnvironmentRackSource env(String value) {
		return new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK"),
				(name) -> name.equals("KAFKA_CLIENT_RACK") ? value : null);
	}

	static Ec2MetadataRackSource aws(URI endpoint) {
		return new Ec2MetadataRackSource(new MetadataHttpClient(), true, endpoint, ZoneFormat.AUTO, (name) -> null);
	}

	static GcpMetadataRackSource gcp(URI endpoint) {
		return new GcpMetadataRackSource(new MetadataHttpClient(), true, endpoint, (name) -> null);
	}

	static AzureMetadataRackSource azure(URI endpoint) {
		return new AzureMetadataRackSource(new MetadataHttpClient(), true, endpoint);
	}

	static EcsTaskMetadataRackSource ecs(URI endpoint) {
		return new EcsTaskMetadataRackSource(new MetadataHttpClient(), true,
				Map.of(EcsTaskMetadataRackSource.VARIABLE, endpoint + MetadataStubServer.ECS_BASE_PATH)::get);
	}

	static RackSource fixed(String name, boolean remote, String rack) {
		return source(name, remote, () -> RackLookup.found("value", rack));
	}

	static RackSource local(String name, Lookup lookup) {
		return source(name, false, lookup);
	}

	static RackSource remote(String name, Lookup lookup) {
		return source(name, true, lookup);
	}

	static CountingSource source(String name, boolean remote, Lookup lookup) {
		return new CountingSource(name, remote, lookup);
	}

	/**
	 * A lookup that may throw anything.
	 */
	@FunctionalInterface
	interface Lookup {

		RackLookup get() throws Exception;

	}

	/**
	 * A source made of a lambda that counts how often it was asked.
	 */
	static final class CountingSource implements RackSource {

		private final String name;

		private final boolean remote;

		private final Lookup lookup;

		private final AtomicInteger calls = new AtomicInteger();

		CountingSource(String name, boolean remote, Lookup lookup) {
			this.name = name;
			this.remote = remote;
			this.lookup = lookup;
		}

		@Override
		public String name() {
			return this.name;
		}

		@Override
		public boolean isRemote() {
			return this.remote;
		}

		@Override
		public RackLookup lookup(Duration timeout) throws Exception {
			this.calls.incrementAndGet();
			return this.lookup.get();
		}

		int calls() {
			return this.calls.get();
		}

	}

}
