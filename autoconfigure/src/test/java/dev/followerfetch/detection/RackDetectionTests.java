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

import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.detection.DetectedRack.Outcome;
import dev.followerfetch.detection.RackDetectorTests.CountingSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RackDetection}.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class RackDetectionTests {

	private final FollowerFetchProperties properties = new FollowerFetchProperties();

	private final MockEnvironment environment = new MockEnvironment();

	private final CountingSource envSource = RackDetectorTests.source("env", false,
			() -> RackLookup.notFound("KAFKA_CLIENT_RACK not set"));

	private final CountingSource fileSource = RackDetectorTests.source("file", false,
			() -> RackLookup.found("/etc/podinfo/labels#topology.kubernetes.io/zone", "use1-az4"));

	private final CountingSource awsSource = RackDetectorTests.source("aws", true,
			() -> RackLookup.found("availability-zone-id", "use1-az2"));

	@BeforeEach
	void orderTheSourcesOfTheseTests() {
		this.properties.getDetection().setOrder(List.of("env", "file", "aws"));
	}

	@Test
	void explicitRackWinsAndNoSourceIsAsked() {
		this.properties.setRack(" use1-az1 ");
		DetectedRack detected = detect();
		assertThat(detected.rack()).hasValue("use1-az1");
		assertThat(detected.source()).hasValue("property:follower-fetch.rack");
		assertThat(this.envSource.calls() + this.fileSource.calls() + this.awsSource.calls()).isZero();
	}

	@Test
	void invalidExplicitRackFailsNamingThePropertyAndTheRule() {
		this.properties.setRack("use1 az1");
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(this::detect)
			.satisfies((ex) -> {
				assertThat(ex.setting()).isEqualTo("follower-fetch.rack");
				assertThat(ex.reason()).startsWith("A rack is 1 to 128 characters")
					.contains("disallowed character at position 5");
			});
	}

	@Test
	void kafkaConsumerClientRackWinsOverFollowerFetchRackWithAWarning(CapturedOutput output) {
		this.properties.setRack("use1-az1");
		this.environment.setProperty("spring.kafka.consumer.properties.client.rack", "use1-az3");
		DetectedRack detected = detect();
		assertThat(detected.rack()).hasValue("use1-az3");
		assertThat(detected.source()).hasValue("property:spring.kafka.consumer.properties.client.rack");
		assertThat(output).contains("follower-fetch.rack=use1-az1 is ignored: "
				+ "spring.kafka.consumer.properties.client.rack=use1-az3 is set");
		assertThat(this.awsSource.calls()).isZero();
	}

	@Test
	void anInvalidFollowerFetchRackFailsEvenWhenAKafkaClientRackIsSet() {
		this.properties.setRack("use1 az1");
		this.environment.setProperty("spring.kafka.consumer.properties.client.rack", "use1-az3");
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(this::detect)
			.satisfies((ex) -> assertThat(ex.setting()).isEqualTo("follower-fetch.rack"));
	}

	@Test
	void kafkaCommonClientRackIsHonouredAndConsumerPropertiesComeFirst() {
		this.environment.setProperty("spring.kafka.properties.client.rack", "use1-az5");
		assertThat(detect().source()).hasValue("property:spring.kafka.properties.client.rack");
		this.environment.setProperty("spring.kafka.consumer.properties.client.rack", "use1-az6");
		assertThat(detect().rack()).hasValue("use1-az6");
	}

	@Test
	void emptyKafkaClientRackKeepsConsumersOnTheLeaderWithoutDetection(CapturedOutput output) {
		this.environment.setProperty("spring.kafka.consumer.properties.client.rack", "");
		DetectedRack detected = detect();
		assertThat(detected.rack()).hasValue("");
		assertThat(detected.source()).hasValue("property:spring.kafka.consumer.properties.client.rack");
		assertThat(this.awsSource.calls()).isZero();
		assertThat(output).contains("Kafka client.rack is empty (from property:spring.kafka.consumer.properties."
				+ "client.rack), so consumers read from partition leaders and no rack is detected");
	}

	@Test
	void sourcesAreAskedInTheConfiguredOrder() {
		this.properties.getDetection().setOrder(List.of("file", "env", "aws"));
		DetectedRack detected = detect();
		assertThat(detected.source()).hasValue("file:/etc/podinfo/labels#topology.kubernetes.io/zone");
		assertThat(detected.attempts()).extracting(DetectedRack.Attempt::source).containsExactly("file", "env", "aws");
		assertThat(this.envSource.calls() + this.awsSource.calls()).isZero();
	}

	@Test
	void builtInSourceLeftOutOfTheOrderIsNotAsked() {
		this.properties.getDetection().setOrder(List.of(" env ", "aws"));
		assertThat(arrangedNames()).containsExactly("env", "aws");
		assertThat(detect().source()).hasValue("aws:availability-zone-id");
		assertThat(this.fileSource.calls()).isZero();
	}

	@Test
	void applicationSourceLeftOutOfTheOrderIsAskedFirst() {
		CountingSource custom = RackDetectorTests.source("cmdb", false, () -> RackLookup.found("rack", "use1-az9"));
		List<RackSource> available = List.of(this.envSource, this.fileSource, this.awsSource, custom);
		assertThat(detection().arrange(available)).extracting(RackSource::name)
			.containsExactly("cmdb", "env", "file", "aws");
		assertThat(detect(available).source()).hasValue("cmdb:rack");
	}

	@Test
	void applicationSourceNamedInTheOrderTakesThatPlace() {
		CountingSource custom = RackDetectorTests.source("cmdb", false, () -> RackLookup.found("rack", "use1-az9"));
		this.properties.getDetection().setOrder(List.of("env", "aws", "cmdb"));
		List<RackSource> available = List.of(this.envSource, this.fileSource, this.awsSource, custom);
		assertThat(detection().arrange(available)).extracting(RackSource::name).containsExactly("env", "aws", "cmdb");
	}

	@Test
	void unknownSourceInTheOrderFailsNamingThePropertyAndTheKnownSources() {
		this.properties.getDetection().setOrder(List.of("env", "k8s", "aws"));
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(this::detect)
			.satisfies((ex) -> {
				assertThat(ex.setting()).isEqualTo("follower-fetch.detection.order");
				assertThat(ex.value()).isEqualTo("env,k8s,aws");
				assertThat(ex.reason()).isEqualTo("Unknown source k8s. Known sources: env, file, aws.");
			});
	}

	@Test
	void sourceListedTwiceInTheOrderFailsNamingIt() {
		this.properties.getDetection().setOrder(List.of("env", "aws", "env "));
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(this::detect)
			.satisfies((ex) -> {
				assertThat(ex.setting()).isEqualTo("follower-fetch.detection.order");
				assertThat(ex.reason()).isEqualTo("Source env is listed more than once.");
			});
	}

	@Test
	void twoSourcesWithTheSameNameFailNamingBothClasses() {
		CountingSource other = RackDetectorTests.source("aws", true, () -> RackLookup.notFound("nothing"));
		assertThatIllegalStateException()
			.isThrownBy(() -> detect(List.of(this.envSource, this.awsSource, other)))
			.withMessage("Two RackSource beans share the name 'aws' (" + CountingSource.class.getName() + " and "
					+ CountingSource.class.getName() + "); give each source a distinct name()");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "-1s" })
	void nonPositiveTimeoutFailsNamingTheProperty(String timeout) {
		this.properties.getDetection().setTimeout(Duration.parse("PT" + timeout.replace("s", "S")));
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(this::detect)
			.satisfies((ex) -> assertThat(ex.setting()).isEqualTo("follower-fetch.detection.timeout"));
	}

	@Test
	void missingTimeoutFailsNamingTheProperty() {
		this.properties.getDetection().setTimeout(null);
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(this::detect)
			.satisfies((ex) -> assertThat(ex.setting()).isEqualTo("follower-fetch.detection.timeout"));
	}

	@Test
	void requiredWithoutARackThrowsWithTheReasonOfEverySource() throws Exception {
		URI refusing = RawLoopbackServer.refusingUri();
		this.properties.getDetection().setRequired(true);
		List<RackSource> sources = List.of(this.envSource, new FileRackSource(null, "topology.kubernetes.io/zone"),
				RackDetectorTests.aws(refusing));
		assertThatExceptionOfType(RackNotDetectedException.class).isThrownBy(() -> detect(sources))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).isEqualTo("No Kafka client.rack found and "
						+ "follower-fetch.detection.required is true. Sources tried: "
						+ "env: not found, KAFKA_CLIENT_RACK not set; "
						+ "file: not found, follower-fetch.detection.file.path not set; "
						+ "aws: failed, IMDSv2 token: " + refusing + "/latest/api/token refused the connection; "
						+ "IMDSv1: " + refusing
						+ "/latest/meta-data/placement/availability-zone-id refused the connection");
				assertThat(ex.getDetectedRack().attempts()).extracting(DetectedRack.Attempt::outcome)
					.containsExactly(Outcome.NOT_FOUND, Outcome.NOT_FOUND, Outcome.FAILED);
				FailureAnalysis analysis = new RackNotDetectedFailureAnalyzer().analyze(ex);
				assertThat(analysis.getDescription()).contains("    - env: not found, KAFKA_CLIENT_RACK not set\n",
						"    - file: not found, follower-fetch.detection.file.path not set\n", "    - aws: failed, ");
				assertThat(analysis.getAction()).contains("follower-fetch.rack", "KAFKA_CLIENT_RACK");
			});
	}

	@Test
	void notRequiredWithoutARackReturnsNoRackAndWarnsOnOneLine(CapturedOutput output) {
		this.properties.getDetection().setOrder(List.of("env"));
		DetectedRack detected = detect();
		assertThat(detected.rack()).isEmpty();
		assertThat(output.getOut().lines().filter((line) -> line.contains("No Kafka client.rack found")))
			.singleElement()
			.asString()
			.contains("Sources tried: env: not found, KAFKA_CLIENT_RACK not set. Set follower-fetch.rack");
	}

	@Test
	void detectedRackIsLoggedWithItsSourceOnOneLine(CapturedOutput output) {
		this.properties.getDetection().setOrder(List.of("env", "aws"));
		detect();
		assertThat(output.getOut().lines().filter((line) -> line.contains("Kafka client.rack is use1-az2")))
			.singleElement()
			.asString()
			.contains("(from aws:availability-zone-id, found in ")
			.contains("env: not found, KAFKA_CLIENT_RACK not set; aws: use1-az2 (availability-zone-id)");
	}

	private DetectedRack detect() {
		return detect(List.of(this.envSource, this.fileSource, this.awsSource));
	}

	private DetectedRack detect(List<RackSource> sources) {
		return Detections.detect(this.properties, this.environment, null, sources);
	}

	private List<String> arrangedNames() {
		return detection().arrange(List.of(this.envSource, this.fileSource, this.awsSource))
			.stream()
			.map(RackSource::name)
			.toList();
	}

	private RackDetection detection() {
		return new RackDetection(RackDetectionAutoConfiguration.detectionSettings(this.properties),
				CandidateSelector.FIRST);
	}

}
