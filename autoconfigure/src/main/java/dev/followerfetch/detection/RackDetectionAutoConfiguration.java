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
import java.util.function.Function;

import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.detection.MetadataHttpClient.MetadataException;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
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

	@Bean
	@ConditionalOnMissingBean
	DetectedRack followerFetchDetectedRack(FollowerFetchProperties properties, Environment environment,
			ObjectProvider<RackSource> sources, ObjectProvider<KafkaAdmin> kafkaAdmin) {
		FollowerFetchProperties.Detection detection = properties.getDetection();
		CandidateSelector selector = new BrokerMatchingCandidateSelector(brokerRackLookup(kafkaAdmin),
				detection.getBrokerTimeout(), detection.getAws().getZoneFormat());
		return new RackDetection(properties, environment, selector).detect(sources.orderedStream().toList());
	}

	private static BrokerRackLookup brokerRackLookup(ObjectProvider<KafkaAdmin> kafkaAdmin) {
		return (timeout) -> new AdminBrokerRackLookup(ApplicationKafkaAdmin.configuration(kafkaAdmin))
			.brokerRacks(timeout);
	}

	@Bean
	EnvironmentRackSource followerFetchEnvironmentRackSource(FollowerFetchProperties properties,
			Environment environment) {
		return new EnvironmentRackSource(properties.getDetection().getEnv().getVariables(), lookup(environment));
	}

	@Bean
	FileRackSource followerFetchFileRackSource(FollowerFetchProperties properties) {
		FollowerFetchProperties.File file = properties.getDetection().getFile();
		return new FileRackSource(file.getPath(), file.getKey());
	}

	@Bean
	EcsTaskMetadataRackSource followerFetchEcsTaskMetadataRackSource(FollowerFetchProperties properties,
			Environment environment) {
		return new EcsTaskMetadataRackSource(MetadataHttpClient.INSTANCE, properties.getDetection().getEcs().isEnabled(),
				lookup(environment));
	}

	@Bean
	KubernetesNodeRackSource followerFetchKubernetesNodeRackSource(FollowerFetchProperties properties,
			Environment environment) {
		FollowerFetchProperties.Kubernetes kubernetes = properties.getDetection().getKubernetes();
		return new KubernetesNodeRackSource(kubernetes.isEnabled(), kubernetes.getNodeNameVariable(),
				kubernetes.getServiceAccount(), lookup(environment));
	}

	@Bean
	Ec2MetadataRackSource followerFetchEc2MetadataRackSource(FollowerFetchProperties properties,
			Environment environment) {
		FollowerFetchProperties.Aws aws = properties.getDetection().getAws();
		return new Ec2MetadataRackSource(MetadataHttpClient.INSTANCE, aws.isEnabled(),
				endpoint("follower-fetch.detection.aws.endpoint", aws.getEndpoint()), aws.getZoneFormat(),
				lookup(environment));
	}

	@Bean
	GcpMetadataRackSource followerFetchGcpMetadataRackSource(FollowerFetchProperties properties,
			Environment environment) {
		FollowerFetchProperties.Gcp gcp = properties.getDetection().getGcp();
		return new GcpMetadataRackSource(MetadataHttpClient.INSTANCE, gcp.isEnabled(),
				endpoint("follower-fetch.detection.gcp.endpoint", gcp.getEndpoint()), lookup(environment));
	}

	@Bean
	AzureMetadataRackSource followerFetchAzureMetadataRackSource(FollowerFetchProperties properties) {
		FollowerFetchProperties.Azure azure = properties.getDetection().getAzure();
		return new AzureMetadataRackSource(MetadataHttpClient.INSTANCE, azure.isEnabled(),
				endpoint("follower-fetch.detection.azure.endpoint", azure.getEndpoint()));
	}

	/**
	 * An endpoint property as the sources need it: an http(s) URL with a host and no path
	 * (each source adds its own), or a bare {@code host[:port]} as the environment
	 * variables allow.
	 */
	static @Nullable URI endpoint(String property, @Nullable URI configured) {
		if (configured == null) {
			return null;
		}
		URI endpoint;
		try {
			endpoint = MetadataEndpoints.parse(configured.toString(), property);
		}
		catch (MetadataException ex) {
			endpoint = null;
		}
		String path = (endpoint != null) ? endpoint.getRawPath() : null;
		boolean hasPath = path != null && !path.isEmpty() && !path.equals("/");
		if (endpoint == null || hasPath || endpoint.getRawQuery() != null) {
			throw new InvalidConfigurationPropertyValueException(property, configured,
					"Must be an http(s) URL with a host and no path, such as http://169.254.169.254, or a host[:port].");
		}
		return endpoint;
	}

	private static Function<String, String> lookup(Environment environment) {
		return environment::getProperty;
	}

}
