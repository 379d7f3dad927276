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

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.followerfetch.BootApis;
import dev.followerfetch.Policy;
import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FollowerFetchObservationAutoConfiguration}: what is registered with and
 * without Actuator and Micrometer. The brokers are a closed loopback port.
 *
 * @author follower-fetch authors
 */
class FollowerFetchObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
				FollowerFetchObservationAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withPropertyValues("follower-fetch.rack=az-b", "spring.kafka.bootstrap-servers=127.0.0.1:9",
				"follower-fetch.observation.timeout=300ms");

	@Test
	void healthAndMetersReadOneMonitor() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(ReadLocalityMonitor.class)
			.hasSingleBean(FollowerFetchMeterBinder.class)
			.hasBean("followerFetchHealthIndicator"));
	}

	@Test
	void anApplicationsOwnMonitorIsTheOneHealthAndMetersRead() {
		ClusterInspectors inspectors = new ClusterInspectors(() -> Map.of("bootstrap.servers", "127.0.0.1:9"),
				Duration.ofMillis(300));
		ReadLocalityMonitor.MonitorSettings settings = new ReadLocalityMonitor.MonitorSettings(Duration.ofSeconds(30),
				Duration.ZERO, Duration.ofMillis(300), 20, Policy.LOCALITY);
		ReadLocalityMonitor own = new ReadLocalityMonitor(() -> DetectedRack.of("az-b", "own"), List::of, null,
				List::of, inspectors, settings, Clock.systemUTC());
		this.contextRunner.withBean(ReadLocalityMonitor.class, () -> own)
			.run((context) -> assertThat(context).getBean(ReadLocalityMonitor.class).isSameAs(own));
	}

	@Test
	void theHealthShowsASnapshotNoRefreshReplacedAsStaleWithTheLastRefreshErrorUntilARefreshWorks() {
		MovableClock clock = new MovableClock();
		AtomicBoolean failing = new AtomicBoolean(true);
		ClusterInspectors inspectors = new ClusterInspectors(() -> Map.of("bootstrap.servers", "127.0.0.1:9"),
				Duration.ofMillis(300));
		ReadLocalityMonitor.MonitorSettings settings = new ReadLocalityMonitor.MonitorSettings(Duration.ofSeconds(30),
				Duration.ZERO, Duration.ofMillis(300), 20, Policy.LOCALITY);
		ReadLocalityMonitor own = new ReadLocalityMonitor(() -> DetectedRack.of("az-b", "own"), () -> {
			if (failing.get()) {
				throw new NoClassDefFoundError("org/apache/kafka/clients/admin/Admin");
			}
			return List.of();
		}, null, List::of, inspectors, settings, clock);
		this.contextRunner.withBean(ReadLocalityMonitor.class, () -> own)
			.withPropertyValues("follower-fetch.health.degraded-status=OUT_OF_SERVICE")
			.run((context) -> {
				own.refresh();
				clock.advance(settings.staleAfter());
				assertThat(BootApis.health(context).details()).containsEntry("state", "STARTING");
				clock.advance(Duration.ofMillis(1));
				BootApis.HealthReading stale = BootApis.health(context);
				assertThat(stale.status()).isEqualTo("OUT_OF_SERVICE");
				assertThat(stale.details()).containsEntry("state", "STALE")
					.containsEntry("lastState", "STARTING")
					.containsEntry("lastRefreshError", "NoClassDefFoundError: org/apache/kafka/clients/admin/Admin")
					.containsEntry("updatedAt", own.snapshot().takenAt().toString());
				MeterRegistry registry = new SimpleMeterRegistry();
				context.getBean(FollowerFetchMeterBinder.class).bindTo(registry);
				assertThat(registry.get("follower.fetch.state").tag("state", "STALE").gauge().value()).isOne();
				assertThat(registry.get("follower.fetch.state").tag("state", "STARTING").gauge().value()).isZero();
				failing.set(false);
				own.refresh();
				assertThat(BootApis.health(context).details()).containsEntry("state", "STARTING")
					.doesNotContainKeys("lastState", "lastRefreshError")
					.containsEntry("updatedAt", clock.instant().toString());
				assertThat(registry.get("follower.fetch.state").tag("state", "STALE").gauge().value()).isZero();
			});
	}

	@Test
	void withoutActuatorThereIsNoHealthIndicatorAndTheRackIsStillApplied() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(BootApis.HEALTH_INDICATOR)).run((context) -> {
			assertThat(context).doesNotHaveBean("followerFetchHealthIndicator")
				.hasSingleBean(FollowerFetchMeterBinder.class);
			assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
				.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b");
		});
	}

	@Test
	void withoutMicrometerThereAreNoMetersAndTheRackIsStillApplied() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
					ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
					FollowerFetchObservationAutoConfiguration.class))
			.withPropertyValues("follower-fetch.rack=az-b", "spring.kafka.bootstrap-servers=127.0.0.1:9")
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(FollowerFetchMeterBinder.class)
					.hasBean("followerFetchHealthIndicator");
				assertThat(((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties())
					.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b");
			});
	}

	@Test
	void aHealthIndicatorOfTheApplicationNamedFollowerFetchReplacesTheStartersOne() {
		BootApis.withHealthIndicator(this.contextRunner, "followerFetchHealthIndicator", Map.of("own", true))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(FollowerFetchHealthIndicator.class);
				assertThat(BootApis.health(context).details()).containsEntry("own", true);
			});
	}

	@Test
	void theMonitorRunsOnceTheContextHasStartedAndStartsAfterTheListenerContainers() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(ReadLocalityMonitor.class).isRunning()).isTrue();
			assertThat(context.getBean(ReadLocalityMonitorLifecycle.class).getPhase())
				.isGreaterThan(AbstractMessageListenerContainer.DEFAULT_PHASE);
		});
	}

	@Test
	void theMonitorCanBeStoppedAndStartedAgain() {
		this.contextRunner.run((context) -> {
			ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
			monitor.stop();
			assertThat(monitor.isRunning()).isFalse();
			monitor.start();
			assertThat(monitor.isRunning()).isTrue();
			assertThat(monitor.refresh().problems()).extracting(Problem::message)
				.noneSatisfy((problem) -> assertThat(problem).contains("closed"));
		});
	}

	@Test
	void theHealthIndicatorCanBeSwitchedOff() {
		this.contextRunner.withPropertyValues("management.health.followerfetch.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("followerFetchHealthIndicator")
				.hasSingleBean(ReadLocalityMonitor.class));
	}

	@Test
	@SuppressWarnings("removal") // the consumer builds the metadata; Kafka 4.4 deprecates its constructors for others
	void theMonitorReadsTheGroupsLedByTheAssignorsOfTheRegistryTheConsumerFactoryCarries() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZoneAwareAssignors.class);
			Map<String, Object> config = new HashMap<>(
					((ConsumerFactory<?, ?>) context.getBean(ConsumerFactory.class)).getConfigurationProperties());
			assertThat(config).containsEntry(ZoneAwareAssignor.REGISTRY_CONFIG, context.getBean(ZoneAwareAssignors.class));
			config.put(ConsumerConfig.CLIENT_ID_CONFIG, "orders-0");
			config.put(ConsumerConfig.GROUP_ID_CONFIG, "orders");
			ZoneAwareAssignor leader = new ZoneAwareAssignor();
			leader.configure(config);
			Node broker = new Node(0, "localhost", 9092, "az-b");
			Cluster metadata = new Cluster("cluster", List.of(broker),
					List.of(new PartitionInfo("orders", 0, broker, new Node[] { broker }, new Node[] { broker })),
					Set.of(), Set.of());
			Assignment assigned = leader
				.assign(metadata, new GroupSubscription(Map.of("member-0", new Subscription(List.of("orders")))))
				.groupAssignment()
				.get("member-0");
			leader.onAssignment(assigned, new ConsumerGroupMetadata("orders", 1, "member-0", Optional.empty()));
			ReadLocalityMonitor monitor = context.getBean(ReadLocalityMonitor.class);
			monitor.refresh();
			assertThat(monitor.assignmentFallbackGroups()).containsExactly("orders");
		});
	}

	@Test
	void whenDisabledTheHealthIndicatorReportsDisabledAndNothingIsMonitored() {
		this.contextRunner.withPropertyValues("follower-fetch.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(ReadLocalityMonitor.class)
				.doesNotHaveBean(FollowerFetchMeterBinder.class);
			assertThat(BootApis.health(context).details()).containsEntry("state", "DISABLED");
		});
	}

	@Test
	void aNonPositiveRefreshIntervalFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("follower-fetch.observation.refresh-interval=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("follower-fetch.observation.refresh-interval"));
	}

}
