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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.followerfetch.Policy;
import dev.followerfetch.assignment.ZoneAwareAssignment.Balance;
import dev.followerfetch.assignment.ZoneAwareAssignment.Member;
import dev.followerfetch.assignment.ZoneAwareAssignor.Leadership;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.observation.ReadLocalityMonitor.MonitorSettings;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FollowerFetchMeterBinder}'s counter of the zone-aware rebalances that
 * kept the wrapped strategy's own assignment, over a monitor whose leaderships the test
 * sets. The brokers are a closed loopback port.
 *
 * @author follower-fetch authors
 */
class FollowerFetchMeterBinderTests {

	private static final String FALLBACKS = "follower.fetch.assignment.fallbacks";

	private final Map<String, Leadership> leaderships = new ConcurrentHashMap<>();

	private final ReadLocalityMonitor monitor = new ReadLocalityMonitor(() -> DetectedRack.of("az-b", "test"),
			List::of, null, List::of,
			new ClusterInspectors(() -> Map.of("bootstrap.servers", "127.0.0.1:9"), Duration.ofMillis(300)),
			new MonitorSettings(Duration.ofSeconds(30), Duration.ZERO, Duration.ofMillis(300), 20, Policy.LOCALITY),
			Clock.systemUTC(), () -> this.leaderships);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final FollowerFetchMeterBinder binder = new FollowerFetchMeterBinder(this.monitor,
			DetectedRack.of("az-b", "test"));

	@AfterEach
	void stopMonitor() {
		this.monitor.stop();
	}

	@Test
	void theRebalancesLedByTheApplicationThatFellBackAreCountedByGroup() {
		this.monitor.onRefresh(this.binder::bindListeners);
		this.binder.bindTo(this.registry);
		assertThat(this.registry.find(FALLBACKS).meters()).as("before any group led").isEmpty();
		this.leaderships.put("client-a", leadership("orders", "client-a", "the zone-aware rule would exceed its budget", 2));
		this.leaderships.put("client-b", leadership("orders", "client-b", null, 1));
		this.leaderships.put("client-p", leadership("payments", "client-p", null, 0));
		this.monitor.refresh();
		FunctionCounter orders = this.registry.get(FALLBACKS).tag("group", "orders").functionCounter();
		assertThat(orders.count()).isEqualTo(3);
		assertThat(orders.getId().getBaseUnit()).isNull();
		assertThat(orders.getId().getDescription())
			.isEqualTo("Rebalances led by this application whose assignment kept the wrapped strategy's own, by group");
		assertThat(this.registry.get(FALLBACKS).tag("group", "payments").functionCounter().count())
			.as("from zero, so that its first fallback is an increase")
			.isZero();
		// client-b no longer leads: what it counted stays; client-a fell back twice more
		this.leaderships.remove("client-b");
		this.leaderships.put("client-a", leadership("orders", "client-a", "the zone-aware rule failed", 4));
		this.monitor.refresh();
		assertThat(orders.count()).isEqualTo(5);
		assertThat(this.registry.find(FALLBACKS).meters()).hasSize(2);
	}

	@Test
	void atMostAHundredGroupsHaveAFallbackCounter() {
		for (int group = 0; group < FollowerFetchMeterBinder.MAX_GROUPS + 20; group++) {
			this.leaderships.put("client-" + group, leadership("group-" + group, "client-" + group, null, 1));
		}
		this.monitor.refresh();
		this.binder.bindTo(this.registry);
		assertThat(this.monitor.assignmentFallbackGroups()).hasSize(FollowerFetchMeterBinder.MAX_GROUPS + 20);
		assertThat(this.registry.find(FALLBACKS).meters()).hasSize(FollowerFetchMeterBinder.MAX_GROUPS);
		assertThat(this.registry.find(FALLBACKS).functionCounters())
			.allSatisfy((counter) -> assertThat(counter.count()).isEqualTo(1));
	}

	private static Leadership leadership(String group, String clientId, @Nullable String fallback, long fallbacks) {
		return new Leadership(group, clientId, 3, Duration.ofSeconds(30), Balance.PER_TOPIC,
				List.of(new Member("member-a", "az-a", Policy.FRESHNESS, Set.of("t"), Set.of(new TopicPartition("t", 0)))),
				fallback, fallbacks, false);
	}

}
