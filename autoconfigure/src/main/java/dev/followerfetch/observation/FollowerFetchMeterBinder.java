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

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.followerfetch.ClientRack;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.policy.ConsumerKind;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Meters over the {@link ReadLocalityMonitor}'s snapshot: partitions read in and out of
 * zone per listener, Streams application, binding, other consumer or share consumer (its
 * {@code kind} tag), the zone-local ones from the leader or a follower (its {@code replica}
 * tag), bytes received from each side, the rack in use and the state. Meters of a
 * consumer are registered when it first appears in a snapshot and removed when its source
 * no longer lists it (a consumer the application built and closed), as Micrometer's
 * {@code KafkaMetrics} removes the meters of metrics that went away; other and share
 * consumers are named by client id, so at most {@value #MAX_OTHER_CONSUMERS} of them have
 * meters at a time. Bytes each
 * producer factory sent to either side, at most {@value #MAX_PRODUCERS} factories at a
 * time, removed when the monitor no longer lists the factory (its bean destroyed). The
 * rebalances this application's consumers led whose assignment kept the zone-aware
 * assignor's wrapped strategy's own, per consumer group, from the group's first
 * appearance, at most {@value #MAX_GROUPS} groups.
 *
 * @author follower-fetch authors
 */
final class FollowerFetchMeterBinder implements MeterBinder {

	static final int MAX_OTHER_CONSUMERS = 100;

	static final int MAX_PRODUCERS = 100;

	static final int MAX_GROUPS = 100;

	private final ReadLocalityMonitor monitor;

	private final DetectedRack detectedRack;

	private final Set<MeterRegistry> registries = ConcurrentHashMap.newKeySet();

	private final Map<Owner, List<Registered>> consumerMeters = new ConcurrentHashMap<>();

	private final Set<String> bound = ConcurrentHashMap.newKeySet();

	private final Map<String, List<Registered>> producerMeters = new ConcurrentHashMap<>();

	private final Set<String> boundGroups = ConcurrentHashMap.newKeySet();

	FollowerFetchMeterBinder(ReadLocalityMonitor monitor, DetectedRack detectedRack) {
		this.monitor = monitor;
		this.detectedRack = detectedRack;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.registries.add(registry);
		this.detectedRack.rack()
			.flatMap(ClientRack::of)
			.ifPresent((rack) -> Gauge.builder("follower.fetch.rack", () -> 1)
				.description("The rack (zone) this application reads as, with where it came from")
				.tags("rack", rack.value(), "source", this.detectedRack.source().orElse("unknown"))
				.register(registry));
		for (FollowerFetchState state : FollowerFetchState.values()) {
			Gauge.builder("follower.fetch.state", this.monitor, (monitor) -> (monitor.snapshot().state() == state) ? 1 : 0)
				.description("1 for the state follower fetching is in, 0 for the others")
				.tags("state", state.name(), "degraded", String.valueOf(state.isDegraded()))
				.register(registry);
		}
		bindListeners(this.monitor.snapshot());
	}

	synchronized void bindListeners(FollowerFetchSnapshot snapshot) {
		removeGone();
		removeGoneProducers();
		bindProducers(snapshot);
		bindFallbacks();
		for (ConsumerReads reads : snapshot.all()) {
			Owner owner = new Owner(reads.kind(), reads.name());
			if (owner.namedByClientId() && !this.consumerMeters.containsKey(owner)
					&& this.consumerMeters.keySet().stream().filter(Owner::namedByClientId).count() >= MAX_OTHER_CONSUMERS) {
				continue;
			}
			List<Registered> meters = this.consumerMeters.computeIfAbsent(owner, (key) -> new ArrayList<>());
			for (MeterRegistry registry : this.registries) {
				if (!this.bound.add(owner.key() + "@" + System.identityHashCode(registry))) {
					continue;
				}
				register(registry, owner, reads.policy().name().toLowerCase(Locale.ROOT))
					.forEach((meter) -> meters.add(new Registered(registry, meter)));
			}
		}
	}

	private List<Meter> register(MeterRegistry registry, Owner owner, String policy) {
		ConsumerKind kind = owner.kind();
		String name = owner.name();
		List<Meter> meters = new ArrayList<>();
		for (Replica replica : Replica.values()) {
			meters.add(Gauge
				.builder("follower.fetch.partitions", this.monitor, (monitor) -> partitions(monitor, kind, name, replica))
				.description("Assigned partitions last read from a broker in this zone (local: from the "
						+ "leader or an in-sync follower) or another (remote)")
				.tags(Tags.of("listener", name, "kind", kind.tag(), "policy", policy, "zone",
						replica.local ? "local" : "remote", "replica", replica.tag))
				.register(registry));
		}
		for (boolean local : new boolean[] { true, false }) {
			meters.add(FunctionCounter
				.builder("follower.fetch.bytes", this.monitor, (monitor) -> monitor.bytes(kind, name, local))
				.description("Bytes received from brokers in this zone (local) or another (remote)")
				.baseUnit(BaseUnits.BYTES)
				.tags(Tags.of("listener", name, "kind", kind.tag(), "policy", policy, "zone", local ? "local" : "remote"))
				.register(registry));
		}
		return meters;
	}

	private void removeGone() {
		for (Iterator<Map.Entry<Owner, List<Registered>>> entries = this.consumerMeters.entrySet().iterator(); entries
			.hasNext();) {
			Map.Entry<Owner, List<Registered>> entry = entries.next();
			Owner owner = entry.getKey();
			if (!this.monitor.lists(owner.kind(), owner.name())) {
				entry.getValue().forEach((registered) -> registered.registry().remove(registered.meter()));
				this.bound.removeIf((key) -> key.startsWith(owner.key() + "@"));
				entries.remove();
			}
		}
	}

	private void bindProducers(FollowerFetchSnapshot snapshot) {
		for (String name : snapshot.producers().keySet()) {
			if (!this.producerMeters.containsKey(name) && this.producerMeters.size() >= MAX_PRODUCERS) {
				continue;
			}
			List<Registered> meters = this.producerMeters.computeIfAbsent(name, (key) -> new ArrayList<>());
			for (MeterRegistry registry : this.registries) {
				if (!this.bound.add(producerKey(name) + "@" + System.identityHashCode(registry))) {
					continue;
				}
				for (boolean local : new boolean[] { true, false }) {
					meters.add(new Registered(registry, FunctionCounter
						.builder("follower.fetch.produced.bytes", this.monitor,
								(monitor) -> monitor.producedBytes(name, local))
						.description("Bytes producers sent to partition leaders in this zone (local) or another (remote)")
						.baseUnit(BaseUnits.BYTES)
						.tags("producer", name, "zone", local ? "local" : "remote")
						.register(registry)));
				}
			}
		}
	}

	private void removeGoneProducers() {
		for (Iterator<Map.Entry<String, List<Registered>>> entries = this.producerMeters.entrySet().iterator(); entries
			.hasNext();) {
			Map.Entry<String, List<Registered>> entry = entries.next();
			if (!this.monitor.listsProducer(entry.getKey())) {
				entry.getValue().forEach((registered) -> registered.registry().remove(registered.meter()));
				this.bound.removeIf((key) -> key.startsWith(producerKey(entry.getKey()) + "@"));
				entries.remove();
			}
		}
	}

	private static String producerKey(String name) {
		return "producer:" + name;
	}

	private void bindFallbacks() {
		for (String group : this.monitor.assignmentFallbackGroups()) {
			if (!this.boundGroups.contains(group)) {
				if (this.boundGroups.size() >= MAX_GROUPS) {
					continue;
				}
				this.boundGroups.add(group);
			}
			for (MeterRegistry registry : this.registries) {
				if (!this.bound.add("assignment-group:" + group + "@" + System.identityHashCode(registry))) {
					continue;
				}
				FunctionCounter
					.builder("follower.fetch.assignment.fallbacks", this.monitor,
							(monitor) -> monitor.assignmentFallbacks(group))
					.description("Rebalances led by this application whose assignment kept the wrapped "
							+ "strategy's own, by group")
					.tags("group", group)
					.register(registry);
			}
		}
	}

	private static double partitions(ReadLocalityMonitor monitor, ConsumerKind kind, String name, Replica replica) {
		ConsumerReads reads = monitor.snapshot().of(kind).get(name);
		if (reads == null) {
			return 0;
		}
		return switch (replica) {
			case LOCAL_LEADER -> reads.zoneLocalLeaderPartitions();
			case LOCAL_FOLLOWER -> reads.zoneLocalPartitions() - reads.zoneLocalLeaderPartitions();
			case REMOTE -> reads.crossZonePartitions();
		};
	}

	/**
	 * A consumer that has meters.
	 */
	private record Owner(ConsumerKind kind, String name) {

		String key() {
			return this.kind.tag() + ":" + this.name;
		}

		boolean namedByClientId() {
			return this.kind == ConsumerKind.OTHER || this.kind == ConsumerKind.SHARE;
		}

	}

	private record Registered(MeterRegistry registry, Meter meter) {

	}

	/**
	 * Where a partition is read from, as the {@code zone} and {@code replica} tags say.
	 */
	private enum Replica {

		LOCAL_LEADER(true, "leader"), LOCAL_FOLLOWER(true, "follower"), REMOTE(false, "any");

		private final boolean local;

		private final String tag;

		Replica(boolean local, String tag) {
			this.local = local;
			this.tag = tag;
		}

	}

}
