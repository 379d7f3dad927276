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

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.json.JsonParserFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Runs the sample as its README says, with a short {@code demo.duration}: against its
 * local three-zone cluster, as a process in az-b, and as three instances, one per zone.
 * Checks over HTTP what the README points at, then that the sample stops by itself and
 * takes its local cloud, and its other instances, down with it.
 *
 * @author follower-fetch authors
 */
class SampleApplicationTests {

	private static final Duration DEMO_DURATION = Duration.ofSeconds(30);

	private static final List<String> LISTENERS = List.of("analytics", "payments");

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void analyticsReadsInZonePaymentsReadsFromTheLeadersAndTheSampleStopsByItself() throws Exception {
		try (ConfigurableApplicationContext context = SampleApplication.application()
			.run("--server.port=0", "--demo.duration=" + DEMO_DURATION.toSeconds() + "s",
					"--follower-fetch.detection.timeout=10s")) {
			URI sample = URI.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port"));
			List<InetSocketAddress> localCloud = localCloudAddresses(context);
			Map<String, Object> details = awaitEveryPartitionRead(sample.resolve("/actuator/health/followerFetch"));
			assertThat(details).containsEntry("state", "ACTIVE")
				.containsEntry("rack", "az-b")
				.containsEntry("source", "aws:availability-zone-id")
				.containsEntry("brokerRacks", List.of("az-a", "az-b", "az-c"));
			assertThat(listener(details, "analytics")).containsEntry("policy", "LOCALITY")
				.containsEntry("partitions", 6)
				.containsEntry("zoneLocalPartitions", 6)
				.containsEntry("crossZonePartitions", 0);
			// Every zone leads two of the six partitions: from the leaders, two reads are in az-b
			assertThat(listener(details, "payments")).containsEntry("policy", "FRESHNESS")
				.containsEntry("partitions", 6)
				.containsEntry("zoneLocalPartitions", 2)
				.containsEntry("crossZonePartitions", 4);
			HttpResponse<String> bytes = get(sample.resolve("/actuator/metrics/follower.fetch.bytes"));
			assertThat(bytes.statusCode()).isEqualTo(200);
			assertThat(bytes.body()).contains("\"name\":\"follower.fetch.bytes\"");
			await("the sample stops after demo.duration").atMost(DEMO_DURATION.plusMinutes(1))
				.until(() -> !context.isActive() && localCloud.stream().allMatch(SampleApplicationTests::refuses));
		}
	}

	@Test
	void threeInstancesOnePerZoneReadEveryPartitionFromAnInZoneLeader() throws Exception {
		try (ConfigurableApplicationContext first = SampleApplication.application()
			.run("--server.port=0", "--demo.instances=3", "--demo.duration=" + DEMO_DURATION.toSeconds() + "s",
					"--follower-fetch.detection.timeout=10s")) {
			List<ConfigurableApplicationContext> instances = new ArrayList<>(List.of(first));
			instances.addAll(first.getBean(DemoInstances.class).others());
			assertThat(instances).hasSize(3);
			List<URI> health = instances.stream()
				.map((instance) -> URI.create("http://localhost:"
						+ instance.getEnvironment().getProperty("local.server.port") + "/actuator/health/followerFetch"))
				.toList();
			List<InetSocketAddress> localCloud = localCloudAddresses(first);
			instances.stream().skip(1).map(SampleApplicationTests::metadataAddress).forEach(localCloud::add);
			await("every partition read from an in-zone leader by the instance in its zone")
				.atMost(Duration.ofSeconds(90))
				.pollInterval(Duration.ofMillis(500))
				.untilAsserted(() -> {
					List<Map<String, Object>> details = new ArrayList<>();
					for (URI uri : health) {
						details.add(details(get(uri)));
					}
					assertThat(details).extracting((instance) -> instance.get("state"))
						.containsExactly("ACTIVE", "ACTIVE", "ACTIVE");
					// each from its own EC2 instance metadata: az-b as with one instance, then the zones after it
					assertThat(details).extracting((instance) -> instance.get("rack"))
						.containsExactly("az-b", "az-c", "az-a");
					assertThat(details).extracting((instance) -> instance.get("source"))
						.containsOnly("aws:availability-zone-id");
					// JMX is process-wide: no instance takes the others' consumers for its own
					assertThat(details).allSatisfy((instance) -> assertThat(instance).doesNotContainKey("otherConsumers"));
					for (String listener : LISTENERS) {
						List<Map<String, Object>> reads = details.stream()
							.map((instance) -> listener(instance, listener))
							.toList();
						assertThat(reads).as("%s assignment", listener)
							.extracting((instance) -> instance.get("assignment"))
							.containsOnly("zone-aware");
						assertThat(sum(reads, "partitions")).as("%s partitions", listener).isEqualTo(6);
						assertThat(sum(reads, "zoneLocalLeaderPartitions"))
							.as("%s partitions read from an in-zone leader", listener)
							.isEqualTo(6);
						assertThat(sum(reads, "zoneLocalPartitions")).as("%s partitions read in-zone", listener)
							.isEqualTo(6);
						assertThat(sum(reads, "crossZonePartitions")).as("%s partitions read across zones", listener)
							.isZero();
					}
				});
			await("the sample stops after demo.duration, its other instances with it")
				.atMost(DEMO_DURATION.plusMinutes(1))
				.until(() -> instances.stream().noneMatch(ConfigurableApplicationContext::isActive)
						&& localCloud.stream().allMatch(SampleApplicationTests::refuses));
		}
	}

	private Map<String, Object> awaitEveryPartitionRead(URI health) {
		return await("both listeners read all six partitions").atMost(Duration.ofSeconds(60))
			.pollInterval(Duration.ofMillis(500))
			.until(() -> details(get(health)), (details) -> "ACTIVE".equals(details.get("state"))
					&& reads(details, "analytics", 6, 0) && reads(details, "payments", 2, 4));
	}

	private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> details(HttpResponse<String> response) {
		Map<String, Object> health = JsonParserFactory.getJsonParser().parseMap(response.body());
		return (Map<String, Object>) health.getOrDefault("details", Map.of());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> listener(Map<String, Object> details, String listenerId) {
		Map<String, Object> listeners = (Map<String, Object>) details.getOrDefault("listeners", Map.of());
		return (Map<String, Object>) listeners.getOrDefault(listenerId, Map.of());
	}

	private static boolean reads(Map<String, Object> details, String listenerId, int zoneLocal, int crossZone) {
		Map<String, Object> reads = listener(details, listenerId);
		return Integer.valueOf(zoneLocal).equals(reads.get("zoneLocalPartitions"))
				&& Integer.valueOf(crossZone).equals(reads.get("crossZonePartitions"));
	}

	private static List<InetSocketAddress> localCloudAddresses(ConfigurableApplicationContext context) {
		Environment environment = context.getEnvironment();
		List<InetSocketAddress> addresses = new ArrayList<>();
		for (String broker : environment.getRequiredProperty("spring.kafka.bootstrap-servers").split(",")) {
			URI uri = URI.create("kafka://" + broker.strip());
			addresses.add(new InetSocketAddress(uri.getHost(), uri.getPort()));
		}
		addresses.add(metadataAddress(context));
		return addresses;
	}

	private static InetSocketAddress metadataAddress(ConfigurableApplicationContext context) {
		URI metadata = URI.create(context.getEnvironment().getRequiredProperty("follower-fetch.detection.aws.endpoint"));
		return new InetSocketAddress(metadata.getHost(), metadata.getPort());
	}

	private static int sum(List<Map<String, Object>> reads, String count) {
		return reads.stream().mapToInt((instance) -> (instance.get(count) instanceof Integer value) ? value : 0).sum();
	}

	private static boolean refuses(InetSocketAddress address) {
		try (Socket socket = new Socket()) {
			socket.connect(address, 1000);
			return false;
		}
		catch (ConnectException ex) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
