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

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.NamedSettings;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.observation.ReadLocalityMonitor.MonitorSettings;
import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.jspecify.annotations.Nullable;

/**
 * Puts a {@link ReadLocalityMonitor} together from what an adapter finds, each part
 * named: the settings, the consumers and producers to observe, the brokers, and the
 * application's {@link ClientRackDecider}.
 *
 * @author follower-fetch authors
 */
public final class ReadLocalityMonitorBuilder {

	private final NamedSettings settings;

	private final Supplier<DetectedRack> detectedRack;

	private final Supplier<Map<String, Object>> adminConfig;

	private Supplier<List<ObservedConsumers>> consumers = List::of;

	private Supplier<List<ObservedProducer>> producers = List::of;

	private Supplier<@Nullable ClientRackDecider> decider = () -> null;

	private Supplier<ZoneAwareAssignors> assignors = ZoneAwareAssignors::new;

	private AppliedPlans applied = new AppliedPlans();

	private ConfiguredConsumers configured = new ConfiguredConsumers();

	ReadLocalityMonitorBuilder(NamedSettings settings, Supplier<DetectedRack> detectedRack,
			Supplier<Map<String, Object>> adminConfig) {
		this.settings = settings;
		this.detectedRack = detectedRack;
		this.adminConfig = adminConfig;
	}

	/**
	 * The sources of the application's consumers.
	 * @param consumers asked at each refresh
	 * @return this builder
	 */
	public ReadLocalityMonitorBuilder consumers(Supplier<List<ObservedConsumers>> consumers) {
		this.consumers = consumers;
		return this;
	}

	/**
	 * The application's producer factories.
	 * @param producers asked at each refresh
	 * @return this builder
	 */
	public ReadLocalityMonitorBuilder producers(Supplier<List<ObservedProducer>> producers) {
		this.producers = producers;
		return this;
	}

	/**
	 * The application's decider, when it has one: the client ids the monitor's admin
	 * clients send, the policies declared for consumers the starter did not configure, and
	 * the registry of the zone-aware assignors it hands out.
	 * @param decider asked when needed; {@code null} while there is none
	 * @return this builder
	 */
	public ReadLocalityMonitorBuilder decider(Supplier<@Nullable ClientRackDecider> decider) {
		this.decider = decider;
		return this;
	}

	/**
	 * Where the plans of the application's clients are applied: the monitor's admin
	 * clients take their client ids from it too, so that no two clients share one.
	 * @param applied the application's applied plans
	 * @return this builder
	 */
	public ReadLocalityMonitorBuilder appliedPlans(AppliedPlans applied) {
		this.applied = applied;
		return this;
	}

	/**
	 * The registry of zone-aware assignors to read when there is no decider.
	 * @param assignors asked once, when the monitor is built
	 * @return this builder
	 */
	public ReadLocalityMonitorBuilder assignors(Supplier<ZoneAwareAssignors> assignors) {
		this.assignors = assignors;
		return this;
	}

	/**
	 * The consumers the application configured through the decider, to attribute those
	 * found in JMX to ({@code observation.other-consumers}).
	 * @param configured the consumers reported so far
	 * @return this builder
	 */
	public ReadLocalityMonitorBuilder configuredConsumers(ConfiguredConsumers configured) {
		this.configured = configured;
		return this;
	}

	/**
	 * The monitor, not started.
	 * @return the monitor
	 * @throws InvalidSettingException naming a setting it cannot use
	 */
	public ReadLocalityMonitor build() {
		MonitorSettings monitor = MonitorSettings.of(this.settings);
		boolean otherConsumers = this.settings.bool("observation.other-consumers", true);
		Supplier<@Nullable ClientRackDecider> decider = this.decider;
		AppliedPlans applied = this.applied;
		ClusterInspectors inspectors = new ClusterInspectors(this.adminConfig, monitor.timeout(),
				(clientId) -> Optional.ofNullable(decider.get()).flatMap((rackDecider) -> {
					ClientRequest request = ClientRequest.client(Map.of(), clientId);
					return applied.applying(request, rackDecider.plan(request)).clientIdToSet();
				}).orElse(clientId));
		OtherConsumers others = otherConsumers ? new OtherConsumers(new ConsumerMetricsReader(),
				this.configured::list, (clientId) -> declaredPolicy(decider.get(), clientId, monitor)) : null;
		ZoneAwareAssignors registry = Optional.ofNullable(decider.get())
			.map(ClientRackDecider::assignors)
			.orElseGet(this.assignors);
		return new ReadLocalityMonitor(this.detectedRack, this.consumers, others, this.producers, inspectors, monitor,
				new MonotonicClock(), registry);
	}

	private static ConsumerPolicy declaredPolicy(@Nullable ClientRackDecider decider, String clientId,
			MonitorSettings monitor) {
		return (decider != null) ? decider.declaredPolicy(clientId)
				: new ConsumerPolicy(ConsumerKind.OTHER, clientId, monitor.defaultPolicy(), Origin.DEFAULT);
	}

}
