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

import java.util.List;
import java.util.function.Function;

import dev.followerfetch.BootLine;
import dev.followerfetch.BoundSettings;
import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.InvalidSettings;
import dev.followerfetch.detection.RackDetection.KafkaClientRack;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Auto-configuration that works out the rack (zone) this application runs in.
 *
 * @author follower-fetch authors
 */
@AutoConfiguration
@ConditionalOnClass(ConsumerFactory.class)
@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
@EnableConfigurationProperties(FollowerFetchProperties.class)
public final class RackDetectionAutoConfiguration {

	private static final List<String> KAFKA_CLIENT_RACK_PREFIXES = List.of("spring.kafka.consumer.properties",
			"spring.kafka.properties");

	@Bean
	DetectionSettings followerFetchDetectionSettings(FollowerFetchProperties properties) {
		BootLine.requireRunning(SpringBootVersion.getVersion());
		return InvalidSettings.checked(() -> detectionSettings(properties));
	}

	static DetectionSettings detectionSettings(FollowerFetchProperties properties) {
		return DetectionSettings.of(BoundSettings.of(properties));
	}

	@Bean
	@ConditionalOnMissingBean
	DetectedRack followerFetchDetectedRack(DetectionSettings settings, Environment environment,
			ObjectProvider<RackSource> sources, ObjectProvider<KafkaAdmin> kafkaAdmin) {
		BrokerRackLookup brokers = (timeout) -> BrokerRackLookup
			.admin(ApplicationKafkaAdmin.configuration(kafkaAdmin))
			.brokerRacks(timeout);
		return InvalidSettings.checked(() -> RackDetection.matchingBrokers(settings, brokers)
			.detect(sources.orderedStream().toList(), kafkaClientRack(environment)));
	}

	static @Nullable KafkaClientRack kafkaClientRack(Environment environment) {
		for (String prefix : KAFKA_CLIENT_RACK_PREFIXES) {
			String rack = Binder.get(environment)
				.bind(prefix, Bindable.mapOf(String.class, String.class))
				.map((map) -> map.get("client.rack"))
				.orElse(null);
			if (rack != null) {
				return new KafkaClientRack(prefix + ".client.rack", rack);
			}
		}
		return null;
	}

	@Bean
	EnvironmentRackSource followerFetchEnvironmentRackSource(DetectionSettings settings, Environment environment) {
		return settings.envSource(lookup(environment));
	}

	@Bean
	FileRackSource followerFetchFileRackSource(DetectionSettings settings) {
		return settings.fileSource();
	}

	@Bean
	EcsTaskMetadataRackSource followerFetchEcsTaskMetadataRackSource(DetectionSettings settings,
			Environment environment) {
		return settings.ecsSource(lookup(environment));
	}

	@Bean
	KubernetesNodeRackSource followerFetchKubernetesNodeRackSource(DetectionSettings settings,
			Environment environment) {
		return settings.kubernetesSource(lookup(environment));
	}

	@Bean
	Ec2MetadataRackSource followerFetchEc2MetadataRackSource(DetectionSettings settings, Environment environment) {
		return settings.awsSource(lookup(environment));
	}

	@Bean
	GcpMetadataRackSource followerFetchGcpMetadataRackSource(DetectionSettings settings, Environment environment) {
		return settings.gcpSource(lookup(environment));
	}

	@Bean
	AzureMetadataRackSource followerFetchAzureMetadataRackSource(DetectionSettings settings) {
		return settings.azureSource();
	}

	private static Function<String, @Nullable String> lookup(Environment environment) {
		return environment::getProperty;
	}

}
