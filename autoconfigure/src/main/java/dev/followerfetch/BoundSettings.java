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
package dev.followerfetch;

import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The bound {@code follower-fetch.*} properties by name, the form the core builds each of
 * its settings from ({@link NamedSettings}), where each setting's default and check are
 * written. Every property the core reads is here, but {@code enabled} (a condition) and
 * {@code health.degraded-status} (Boot's own).
 * <p>
 * Named by hand, each name beside its getter, as Spring Boot's own {@code KafkaProperties}
 * builds Kafka's configuration: a plain map rather than {@code PropertyMapper}, since the
 * core takes names rather than setters.
 *
 * @author follower-fetch authors
 */
public final class BoundSettings {

	private BoundSettings() {
	}

	/**
	 * Every property the core reads, by name.
	 * @param properties the bound properties
	 * @return the settings by name
	 */
	public static NamedSettings of(FollowerFetchProperties properties) {
		Map<String, @Nullable Object> named = new HashMap<>();
		named.put("rack", properties.getRack());
		named.put("client-id-zone", properties.getClientIdZone());
		detection(properties.getDetection(), named);
		policy(properties.getPolicy(), named);
		named.put("producer.rack-aware", properties.getProducer().isRackAware());
		FollowerFetchProperties.Assignment assignment = properties.getAssignment();
		named.put("assignment.enabled", assignment.isEnabled());
		named.put("assignment.realign", assignment.isRealign());
		named.put("assignment.realign-grace", assignment.getRealignGrace());
		named.put("assignment.realign-interval", assignment.getRealignInterval());
		FollowerFetchProperties.Observation observation = properties.getObservation();
		named.put("observation.refresh-interval", observation.getRefreshInterval());
		named.put("observation.fallback-grace", observation.getFallbackGrace());
		named.put("observation.timeout", observation.getTimeout());
		named.put("observation.max-listed-partitions", observation.getMaxListedPartitions());
		named.put("observation.max-listed-topics", observation.getMaxListedTopics());
		named.put("observation.other-consumers", observation.isOtherConsumers());
		return NamedSettings.bound(NamedSettings.SPRING_BOOT_PREFIX, named);
	}

	/**
	 * The {@code policy.*} properties, by name.
	 * @param policy the bound policy properties
	 * @return the settings by name
	 */
	public static NamedSettings of(FollowerFetchProperties.PolicyProperties policy) {
		Map<String, @Nullable Object> named = new HashMap<>();
		policy(policy, named);
		return NamedSettings.bound(NamedSettings.SPRING_BOOT_PREFIX, named);
	}

	private static void detection(FollowerFetchProperties.Detection detection, Map<String, @Nullable Object> named) {
		named.put("detection.order", detection.getOrder());
		named.put("detection.timeout", detection.getTimeout());
		named.put("detection.broker-timeout", detection.getBrokerTimeout());
		named.put("detection.required", detection.isRequired());
		named.put("detection.env.variables", detection.getEnv().getVariables());
		named.put("detection.file.path", detection.getFile().getPath());
		named.put("detection.file.key", detection.getFile().getKey());
		named.put("detection.ecs.enabled", detection.getEcs().isEnabled());
		named.put("detection.kubernetes.enabled", detection.getKubernetes().isEnabled());
		named.put("detection.kubernetes.node-name-variable", detection.getKubernetes().getNodeNameVariable());
		named.put("detection.kubernetes.service-account", detection.getKubernetes().getServiceAccount());
		named.put("detection.aws.enabled", detection.getAws().isEnabled());
		named.put("detection.aws.endpoint", detection.getAws().getEndpoint());
		named.put("detection.aws.zone-format", detection.getAws().getZoneFormat());
		named.put("detection.gcp.enabled", detection.getGcp().isEnabled());
		named.put("detection.gcp.endpoint", detection.getGcp().getEndpoint());
		named.put("detection.azure.enabled", detection.getAzure().isEnabled());
		named.put("detection.azure.endpoint", detection.getAzure().getEndpoint());
	}

	private static void policy(FollowerFetchProperties.PolicyProperties policy, Map<String, @Nullable Object> named) {
		named.put("policy.default", policy.getDefault());
		named.put("policy.listeners", policy.getListeners());
		named.put("policy.streams", policy.getStreams());
		named.put("policy.bindings", policy.getBindings());
		named.put("policy.consumers", policy.getConsumers());
		named.put("policy.replica-lease", policy.getReplicaLease());
		named.put("policy.replica-request-timeout", policy.getReplicaRequestTimeout());
	}

}
