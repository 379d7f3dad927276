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
package dev.followerfetch.observation;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import dev.followerfetch.BoundSettings;
import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.InvalidSettings;
import dev.followerfetch.application.BinderBindings;
import dev.followerfetch.application.BinderClientRackAutoConfiguration;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.application.ListenerContainers;
import dev.followerfetch.application.ListenerPolicies;
import dev.followerfetch.application.StreamsApplications;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.ApplicationKafkaAdmin;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.streams.KafkaStreams;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.Order;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.util.StringUtils;

/**
 * Auto-configuration that answers "is follower fetching working, and what is it saving?":
 * a background monitor, the {@code followerFetch} health contributor and Micrometer
 * meters, all reading one snapshot.
 *
 * @author follower-fetch authors
 */
@AutoConfiguration(after = { RackDetectionAutoConfiguration.class, ClientRackAutoConfiguration.class,
		FetchPolicyAutoConfiguration.class, BinderClientRackAutoConfiguration.class })
@ConditionalOnClass(ConsumerFactory.class)
@EnableConfigurationProperties(FollowerFetchProperties.class)
@Import(FollowerFetchHealthConfiguration.class)
public final class FollowerFetchObservationAutoConfiguration {

	private static final Log logger = LogFactory.getLog(FollowerFetchObservationAutoConfiguration.class);

	private static final List<String> KNOWN_STATUSES = List.of("UNKNOWN", "DOWN", "OUT_OF_SERVICE", "UP");

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
	static class MonitorConfiguration {

		@Bean
		static ObservedProducers followerFetchObservedProducers(ObjectProvider<ClientRackDecider> decider) {
			return new ObservedProducers(decider);
		}

		@Bean
		@ConditionalOnMissingBean
		ReadLocalityMonitor followerFetchReadLocalityMonitor(FollowerFetchProperties properties,
				ObjectProvider<DetectedRack> detectedRack, ObjectProvider<ObservedConsumers> sources,
				ObjectProvider<KafkaAdmin> kafkaAdmin, ObjectProvider<ClientRackDecider> decider,
				ObjectProvider<ObservedProducers> producers, ConfiguredConsumers configured,
				ObjectProvider<ZoneAwareAssignors> assignors, ObjectProvider<AppliedPlans> applied) {
			return InvalidSettings.checked(() -> ReadLocalityMonitor
				.builder(BoundSettings.of(properties), detectedRack::getObject,
						() -> ApplicationKafkaAdmin.configuration(kafkaAdmin))
				.consumers(() -> sources.orderedStream().toList())
				.producers(() -> producers.stream().flatMap((observed) -> observed.find().stream()).toList())
				.decider(decider::getIfAvailable)
				.appliedPlans(applied.getIfAvailable(AppliedPlans::new))
				.assignors(() -> assignors.getIfAvailable(ZoneAwareAssignors::new))
				.configuredConsumers(configured)
				.build());
		}

		@Bean
		ReadLocalityMonitorLifecycle followerFetchReadLocalityMonitorLifecycle(ReadLocalityMonitor monitor) {
			return new ReadLocalityMonitorLifecycle(monitor);
		}

		@Bean
		@Order(0)
		ListenerConsumers followerFetchListenerConsumers(ListenerContainers containers, ListenerPolicies policies) {
			return new ListenerConsumers(containers::all, policies);
		}

		@Bean
		ConfiguredConsumers followerFetchConfiguredConsumers() {
			return new ConfiguredConsumers();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(BinderBindings.class)
	static class BindingsConfiguration {

		@Bean
		@Order(2)
		BindingConsumers followerFetchBindingConsumers(BinderBindings bindings) {
			return new BindingConsumers(bindings);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ KafkaStreams.class, StreamsBuilderFactoryBean.class })
	@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
	static class StreamsConsumersConfiguration {

		@Bean
		@Order(1)
		StreamsConsumers followerFetchStreamsConsumers(ListableBeanFactory beanFactory,
				ObjectProvider<StreamsApplications> applications) {
			return new StreamsConsumers(beanFactory, applications);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
	static class MetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		FollowerFetchMeterBinder followerFetchMeterBinder(ReadLocalityMonitor monitor, DetectedRack detectedRack) {
			FollowerFetchMeterBinder binder = new FollowerFetchMeterBinder(monitor, detectedRack);
			monitor.onRefresh(binder::bindListeners);
			return binder;
		}

	}

	/**
	 * The snapshots the health contributor shows: the monitor's, or {@code DISABLED} when
	 * follower-fetch is off.
	 */
	static Supplier<FollowerFetchSnapshot> healthSnapshots(ObjectProvider<ReadLocalityMonitor> monitor) {
		ReadLocalityMonitor readLocality = monitor.getIfAvailable();
		if (readLocality == null) {
			FollowerFetchSnapshot disabled = new FollowerFetchSnapshot(FollowerFetchState.DISABLED, null, null,
					Set.of(), "unknown", Map.of(), List.of(), Instant.now());
			return () -> disabled;
		}
		return readLocality::snapshot;
	}

	/**
	 * The status code of a degraded state, checked once for both Boot lines.
	 * @throws InvalidConfigurationPropertyValueException when it is blank
	 */
	static String degradedStatus(FollowerFetchProperties properties) {
		String degraded = properties.getHealth().getDegradedStatus();
		if (!StringUtils.hasText(degraded)) {
			throw new InvalidConfigurationPropertyValueException("follower-fetch.health.degraded-status", degraded,
					"Must be a health status code such as UNKNOWN, DOWN or OUT_OF_SERVICE.");
		}
		String code = degraded.strip().toUpperCase(Locale.ROOT);
		if (!KNOWN_STATUSES.contains(code)) {
			logger.warn("follower-fetch.health.degraded-status=" + degraded + " is not one of Spring Boot's "
					+ "statuses " + KNOWN_STATUSES + "; it is used as given, but the status aggregator and the "
					+ "HTTP status mapping must know it");
		}
		return code;
	}

}
