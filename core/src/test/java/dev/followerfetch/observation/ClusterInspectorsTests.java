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

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClusterInspectors}.
 *
 * @author follower-fetch authors
 */
class ClusterInspectorsTests {

	private final ClusterInspectors inspectors = new ClusterInspectors(
			() -> Map.of("bootstrap.servers", List.of("b:9092", "a:9092")), Duration.ofSeconds(1));

	@Test
	void bootstrapServersInAnyOrderOrFormNameTheSameCluster() {
		assertThat(ClusterInspectors.cluster("b:9092, a:9092,")).isEqualTo("a:9092,b:9092");
		assertThat(ClusterInspectors.cluster(List.of(" a:9092", "b:9092"))).isEqualTo("a:9092,b:9092");
		assertThat(ClusterInspectors.cluster(" , ")).isNull();
		assertThat(ClusterInspectors.cluster(null)).isNull();
	}

	@Test
	void consumersOfTheAdminsClusterOrOfNoneInParticularShareTheAdminsInspector() {
		ClusterInspector admin = this.inspectors.forConsumers(Map.of());
		assertThat(this.inspectors.forConsumers(Map.of("bootstrap.servers", "a:9092,b:9092"))).isSameAs(admin);
		assertThat(this.inspectors.clusterOf(admin)).isNull();
	}

	@Test
	void consumersOfAnotherClusterGetOneInspectorForThatCluster() {
		ClusterInspector other = this.inspectors.forConsumers(Map.of("bootstrap.servers", "c:9092"));
		assertThat(other).isNotSameAs(this.inspectors.forConsumers(Map.of()));
		assertThat(this.inspectors.forConsumers(Map.of("bootstrap.servers", List.of("c:9092")))).isSameAs(other);
		assertThat(this.inspectors.clusterOf(other)).isEqualTo("c:9092");
	}

	@Test
	void anotherClustersAdminTakesTheConsumersConnectionButNotTheirTimeouts() {
		assertThat(ClusterInspectors.adminConfigOf(Map.of("bootstrap.servers", "c:9092", "security.protocol", "SSL",
				"request.timeout.ms", "15000", "metadata.max.age.ms", "30000", "group.id", "g")))
			.containsOnly(Map.entry("bootstrap.servers", "c:9092"), Map.entry("security.protocol", "SSL"));
	}

	@Test
	void anInspectorNoRefreshUsedClosesItsAdminClientUntilItIsAskedAgain() throws Exception {
		ClusterInspectors inspectors = new ClusterInspectors(() -> Map.of("bootstrap.servers", "127.0.0.1:9"),
				Duration.ofMillis(200), (id) -> id + "-idle");
		try {
			ClusterInspector admin = inspectors.forConsumers(Map.of());
			ClusterInspector other = inspectors.forConsumers(Map.of("bootstrap.servers", "127.0.0.1:19"));
			inspectQuietly(admin);
			inspectQuietly(other);
			assertThat(adminClientIds()).contains("follower-fetch-monitor-idle", "follower-fetch-monitor-2-idle");
			inspectors.idleExcept(List.of(other));
			assertThat(adminClientIds()).doesNotContain("follower-fetch-monitor-idle")
				.contains("follower-fetch-monitor-2-idle");
			inspectQuietly(admin);
			assertThat(adminClientIds()).contains("follower-fetch-monitor-idle");
		}
		finally {
			inspectors.close();
		}
		assertThat(adminClientIds()).doesNotContain("follower-fetch-monitor-idle", "follower-fetch-monitor-2-idle");
	}

	private static void inspectQuietly(ClusterInspector inspector) {
		try {
			inspector.inspect(List.of("orders"));
		}
		catch (Exception ex) {
			// nothing listens there: the admin client exists, the call times out
		}
	}

	/**
	 * The admin clients open in this JVM, as Kafka registers them in JMX.
	 */
	private static Set<String> adminClientIds() throws Exception {
		return ManagementFactory.getPlatformMBeanServer()
			.queryNames(new ObjectName("kafka.admin.client:type=app-info,*"), null)
			.stream()
			.map((name) -> (name.getKeyProperty("id") != null) ? name.getKeyProperty("id")
					: name.getKeyProperty("client-id"))
			.collect(Collectors.toSet());
	}

}
