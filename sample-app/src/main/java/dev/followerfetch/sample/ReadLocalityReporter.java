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
package dev.followerfetch.sample;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.observation.FollowerFetchSnapshot;
import dev.followerfetch.observation.FollowerFetchState;
import dev.followerfetch.observation.ReadLocalityMonitor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

/**
 * Prints the {@link ReadLocalityTable} to the console, with the Actuator URLs that serve
 * the same figures: the {@code followerFetch} health details and the
 * {@code follower.fetch.bytes} meter. With other instances running, the table holds every
 * instance, each with its own figures and health URL.
 *
 * @author follower-fetch authors
 */
@Component
class ReadLocalityReporter implements ApplicationListener<WebServerInitializedEvent> {

	private final ObjectProvider<ReadLocalityMonitor> monitor;

	private final EndToEndLatency latency;

	private final DemoInstances instances;

	private final int instance;

	private final String actuatorPath;

	private volatile String actuatorUrl;

	ReadLocalityReporter(ObjectProvider<ReadLocalityMonitor> monitor, EndToEndLatency latency,
			DemoInstances instances, DemoProperties properties,
			@Value("${management.endpoints.web.base-path:/actuator}") String actuatorPath) {
		this.monitor = monitor;
		this.latency = latency;
		this.instances = instances;
		this.instance = properties.getInstance();
		this.actuatorPath = actuatorPath;
	}

	@Override
	public void onApplicationEvent(WebServerInitializedEvent event) {
		if (this.actuatorUrl == null || "management".equals(event.getApplicationContext().getServerNamespace())) {
			this.actuatorUrl = "http://localhost:" + event.getWebServer().getPort() + this.actuatorPath;
		}
	}

	/**
	 * Print the table.
	 */
	void print() {
		List<ConfigurableApplicationContext> others = this.instances.others();
		if (!others.isEmpty()) {
			List<ReadLocalityTable.Instance> all = new ArrayList<>();
			all.add(instance());
			others.forEach((other) -> all.add(other.getBean(ReadLocalityReporter.class).instance()));
			System.out.print(ReadLocalityTable.render(all));
			return;
		}
		StringBuilder report = new StringBuilder(ReadLocalityTable.render(snapshot(), this.latency.medians()));
		if (this.actuatorUrl != null) {
			report.append(String.format("  health:  %s/health/followerFetch%n", this.actuatorUrl));
			report.append(String.format("  metrics: %s/metrics/follower.fetch.bytes%n", this.actuatorUrl));
		}
		System.out.print(report);
	}

	/**
	 * What this instance reads now.
	 * @return this instance's figures for the table of all instances
	 */
	ReadLocalityTable.Instance instance() {
		String health = (this.actuatorUrl != null) ? this.actuatorUrl + "/health/followerFetch" : null;
		return new ReadLocalityTable.Instance(this.instance, snapshot(), this.latency.medians(), health);
	}

	private FollowerFetchSnapshot snapshot() {
		ReadLocalityMonitor monitor = this.monitor.getIfAvailable();
		if (monitor == null) {
			return new FollowerFetchSnapshot(FollowerFetchState.DISABLED, null, null, Set.of(), "unknown", Map.of(),
					List.of(), Instant.now());
		}
		return monitor.snapshot();
	}

}
