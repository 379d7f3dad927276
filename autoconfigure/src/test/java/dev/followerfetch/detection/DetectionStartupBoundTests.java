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

import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import dev.followerfetch.detection.RackDetectorTests.CountingSource;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

import static dev.followerfetch.detection.MetadataHttpClientTests.elapsedSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What start-up pays and says once a rack is found: detection and the read of the brokers'
 * racks share {@code follower-fetch.detection.timeout}, and a rack that none of the
 * brokers has is a warning, whatever source it came from.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class DetectionStartupBoundTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final Duration MARGIN = Duration.ofMillis(700);

	private static final Set<String> BROKER_RACKS = Set.of("az-a", "az-b", "az-c");

	private static final Function<String, String> NO_ENVIRONMENT = (name) -> null;

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	private final FollowerFetchProperties properties = new FollowerFetchProperties();

	@Test
	void slowMetadataAndBrokersThatNeverAnswerTogetherStayWithinTheDetectionTimeout() throws Exception {
		this.metadata.stub().imds(ImdsMode.V1_ALLOWED_TOKEN_HANGS, "us-east-1b", "use1-az2");
		try (RawLoopbackServer blackHole = RawLoopbackServer.holding()) {
			BrokerRackLookup brokers = new AdminBrokerRackLookup(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
					blackHole.uri().getHost() + ":" + blackHole.uri().getPort()));
			this.properties.getDetection().setOrder(List.of("aws"));
			this.properties.getDetection().setTimeout(TIMEOUT);
			RackSource aws = new Ec2MetadataRackSource(new MetadataHttpClient(), true, this.metadata.stub().uri(),
					ZoneFormat.AUTO, NO_ENVIRONMENT);
			long start = System.nanoTime();
			DetectedRack detected = Detections.detect(this.properties, new MockEnvironment(), brokers, List.of(aws));
			Duration elapsed = elapsedSince(start);
			assertThat(detected.rack()).hasValue("use1-az2");
			assertThat(detected.reason()).get().asString().startsWith("broker racks unknown (no answer within ");
			assertThat(elapsed).isGreaterThanOrEqualTo(TIMEOUT.minusMillis(50)).isLessThan(TIMEOUT.plus(MARGIN));
			assertThat(detected.elapsed()).isLessThan(TIMEOUT.plus(MARGIN));
		}
	}

	@Test
	void brokersThatRefuseTheConnectionCostNothingLikeTheTimeout() throws Exception {
		String refusing = RawLoopbackServer.refusingUri().getAuthority();
		long start = System.nanoTime();
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new AdminBrokerRackLookup(
					Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, List.of(refusing, refusing)))
				.brokerRacks(TIMEOUT))
			.withMessageStartingWith("no bootstrap server accepts connections (" + refusing + ": ");
		assertThat(elapsedSince(start)).isLessThan(TIMEOUT.dividedBy(2));
	}

	@Test
	void rackFromASingleValueSourceThatNoBrokerHasIsAWarningNamingRackSourceAndBrokerRacks(CapturedOutput output) {
		DetectedRack detected = detect(env("az-x"), null);
		assertThat(detected.brokerRacks()).hasValue(BROKER_RACKS);
		assertThat(output.getOut()).doesNotContain("INFO");
		assertThat(output.getOut().lines().filter((line) -> line.contains("WARN")))
			.singleElement()
			.asString()
			.contains("Rack mismatch: Kafka client.rack is az-x (from env:KAFKA_CLIENT_RACK), but the brokers' "
					+ "racks are [az-a, az-b, az-c].");
	}

	@Test
	void explicitRackThatNoBrokerHasIsAWarningToo(CapturedOutput output) {
		detect(env("az-b"), "az-y");
		assertThat(output.getOut().lines().filter((line) -> line.contains("WARN")))
			.singleElement()
			.asString()
			.contains("Kafka client.rack is az-y (from property:follower-fetch.rack), but the brokers' racks are "
					+ "[az-a, az-b, az-c].");
	}

	@Test
	void rackThatABrokerHasIsOneInfoLineSayingSo(CapturedOutput output) {
		detect(env("az-b"), null);
		assertThat(output.getOut()).doesNotContain("WARN");
		assertThat(output.getOut().lines().filter((line) -> line.contains("Kafka client.rack is az-b")))
			.singleElement()
			.asString()
			.contains("(from env:KAFKA_CLIENT_RACK, matches the broker racks [az-a, az-b, az-c], found in ");
	}

	@Test
	void brokersWithoutAnyRackAreAWarning(CapturedOutput output) {
		this.properties.getDetection().setOrder(List.of("env"));
		Detections.detect(this.properties, new MockEnvironment(), (timeout) -> Set.of(), List.of(env("az-b")));
		assertThat(output.getOut().lines().filter((line) -> line.contains("WARN")))
			.singleElement()
			.asString()
			.contains("Kafka client.rack is az-b (from env:KAFKA_CLIENT_RACK), but none of the brokers has a "
					+ "broker.rack");
	}

	private DetectedRack detect(RackSource env, String explicitRack) {
		this.properties.setRack(explicitRack);
		this.properties.getDetection().setOrder(List.of("env"));
		return Detections.detect(this.properties, new MockEnvironment(), (timeout) -> BROKER_RACKS, List.of(env));
	}

	private static CountingSource env(String rack) {
		return RackDetectorTests.source("env", false, () -> RackLookup.found("KAFKA_CLIENT_RACK", rack));
	}

}
