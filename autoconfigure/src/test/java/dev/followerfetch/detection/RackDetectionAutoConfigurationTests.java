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

import dev.followerfetch.FollowerFetchProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Tests for {@link RackDetectionAutoConfiguration}. Every context here has an explicit
 * rack and an empty source order, so no source is ever asked: the defaults are checked
 * without contacting them.
 *
 * @author follower-fetch authors
 */
class RackDetectionAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RackDetectionAutoConfiguration.class))
		.withPropertyValues("follower-fetch.detection.order=");

	@Test
	void thePropertiesDefaultsAreTheDetectionsOwn() {
		assertThat(RackDetectionAutoConfiguration.detectionSettings(new FollowerFetchProperties()))
			.isEqualTo(DetectionSettings.defaults(DetectionSettings.SPRING_BOOT_PREFIX));
	}

	@Test
	void anApplicationsOwnDetectedRackReplacesDetection() {
		DetectedRack own = DetectedRack.of("az-z", "own");
		this.contextRunner.withPropertyValues("follower-fetch.rack=use1-az1")
			.withBean(DetectedRack.class, () -> own)
			.run((context) -> assertThat(context.getBean(DetectedRack.class)).isSameAs(own));
	}

	@Test
	void explicitRackBecomesTheDetectedRackAndEverySourceIsABean() {
		this.contextRunner.withPropertyValues("follower-fetch.rack=use1-az1").run((context) -> {
			assertThat(context.getBean(DetectedRack.class).rack()).hasValue("use1-az1");
			assertThat(context.getBeansOfType(RackSource.class).values()).extracting(RackSource::name)
				.containsExactlyInAnyOrder("env", "file", "ecs", "kubernetes", "aws", "gcp", "azure");
		});
	}

	@Test
	void metadataEndpointsDefaultToTheWellKnownAddresses() {
		assumeThat(System.getenv("AWS_EC2_METADATA_SERVICE_ENDPOINT")).isNull();
		assumeThat(System.getenv("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE")).isNull();
		this.contextRunner.withPropertyValues("follower-fetch.rack=use1-az1")
			.withSystemProperties("follower-fetch.detection.aws.endpoint", "follower-fetch.detection.gcp.endpoint",
					"follower-fetch.detection.azure.endpoint", "AWS_EC2_METADATA_SERVICE_ENDPOINT", "GCE_METADATA_HOST")
			.run((context) -> {
			assertThat(context.getBean(Ec2MetadataRackSource.class).endpoint())
				.isEqualTo(URI.create("http://169.254.169.254"));
			assertThat(ReflectionTestUtils.getField(context.getBean(AzureMetadataRackSource.class), "endpoint"))
				.isEqualTo(URI.create("http://169.254.169.254"));
			assertThat(ReflectionTestUtils.getField(context.getBean(GcpMetadataRackSource.class), "endpoint")).isNull();
		});
	}

	@Test
	void configuredEndpointsAreBound() {
		this.contextRunner
			.withPropertyValues("follower-fetch.rack=use1-az1",
					"follower-fetch.detection.aws.endpoint=http://127.0.0.1:1",
					"follower-fetch.detection.azure.endpoint=http://127.0.0.1:2",
					"follower-fetch.detection.gcp.endpoint=http://127.0.0.1:3")
			.run((context) -> {
				assertThat(context.getBean(Ec2MetadataRackSource.class).endpoint())
					.isEqualTo(URI.create("http://127.0.0.1:1"));
				assertThat(ReflectionTestUtils.getField(context.getBean(AzureMetadataRackSource.class), "endpoint"))
					.isEqualTo(URI.create("http://127.0.0.1:2"));
				assertThat(ReflectionTestUtils.getField(context.getBean(GcpMetadataRackSource.class), "endpoint"))
					.isEqualTo(URI.create("http://127.0.0.1:3"));
			});
	}

	@Test
	void endpointGivenAsABareHostIsTakenAsAnHttpUrl() {
		this.contextRunner
			.withPropertyValues("follower-fetch.rack=use1-az1", "follower-fetch.detection.aws.endpoint=localhost:1")
			.run((context) -> assertThat(context.getBean(Ec2MetadataRackSource.class).endpoint())
				.isEqualTo(URI.create("http://localhost:1")));
	}

	@Test
	void emptyKafkaClientRackStartsTheApplicationOnTheLeader() {
		this.contextRunner.withPropertyValues("spring.kafka.consumer.properties.client.rack=")
			.run((context) -> assertThat(context.getBean(DetectedRack.class).rack()).hasValue(""));
	}

	@Test
	void requiredRackThatIsNotFoundFailsTheStartUp() {
		this.contextRunner.withPropertyValues("follower-fetch.detection.required=true")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(RackNotDetectedException.class));
	}

	@Test
	void disabledStarterDetectsNothing() {
		this.contextRunner.withPropertyValues("follower-fetch.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DetectedRack.class)
				.doesNotHaveBean(RackSource.class));
	}

}
