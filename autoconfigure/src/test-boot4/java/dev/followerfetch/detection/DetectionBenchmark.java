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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.env.StandardEnvironment;

/**
 * Wall-clock cost of rack detection, measured in one run and printed side by side: an
 * explicit rack, an environment variable, every cloud answering from a loopback stub, the
 * first cloud in the order hanging, and the default order on a machine outside any cloud,
 * with firmware that names no cloud and with no firmware to read (today's path before the
 * firmware check), where the well-known addresses are played by a loopback endpoint that
 * swallows every request. Every scenario is warmed up before any is
 * measured; every endpoint is on 127.0.0.1. Not a unit test; run it with
 * {@code ./mvnw -pl autoconfigure test-compile exec:exec@detection-benchmark}.
 *
 * @author follower-fetch authors
 */
public final class DetectionBenchmark {

	private static final Duration BUDGET = Duration.ofSeconds(1);

	private static final Function<String, String> NO_ENVIRONMENT = (name) -> null;

	private DetectionBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		LoggingSystem.get(DetectionBenchmark.class.getClassLoader()).setLogLevel(null, LogLevel.WARN);
		try (MetadataStubServer aws = MetadataStubServer.start();
				MetadataStubServer gcp = MetadataStubServer.start();
				MetadataStubServer azure = MetadataStubServer.start();
				MetadataStubServer ecs = MetadataStubServer.start();
				RawLoopbackServer hanging = RawLoopbackServer.holding();
				RawLoopbackServer blackHole = RawLoopbackServer.holding()) {
			Path kvm = Files.createTempDirectory("firmware-kvm");
			Path none = Files.createTempDirectory("firmware-none");
			Firmware kvmFirmware = FirmwareTree.KVM.writeTo(kvm);
			Firmware noFirmware = FirmwareTree.NO_FIRMWARE.writeTo(none);
			aws.imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
			gcp.gcp("projects/123456/zones/us-central1-b");
			azure.azure("2", "eastus");
			ecs.ecs("us-east-1a");
			Function<String, String> ecsVariable = Map.of(EcsTaskMetadataRackSource.VARIABLE,
					ecs.uri(MetadataStubServer.ECS_BASE_PATH).toString())::get;
			List<Measurement> measurements = List.of(
					new Measurement("explicit follower-fetch.rack", 20_000, 50_000, "use1-az9",
							scenario("use1-az9", List.of("env", "file", "ecs", "kubernetes", "aws", "gcp", "azure"),
									sources(NO_ENVIRONMENT, aws.uri(), gcp.uri(), azure.uri(), NO_ENVIRONMENT))),
					new Measurement("env KAFKA_CLIENT_RACK", 20_000, 50_000, "use1-az1",
							scenario(null, List.of("env", "file", "ecs", "kubernetes", "aws", "gcp", "azure"),
									sources(Map.of("KAFKA_CLIENT_RACK", "use1-az1")::get, aws.uri(), gcp.uri(),
											azure.uri(), ecsVariable))),
					new Measurement("stubs all answering, aws first", 300, 2_000, "use1-az2",
							scenario(null, List.of("env", "file", "aws", "ecs", "gcp", "azure"),
									sources(NO_ENVIRONMENT, aws.uri(), gcp.uri(), azure.uri(), ecsVariable))),
					new Measurement("aws hangs, gcp answers, 1 s budget", 1, 10, "us-central1-b",
							scenario(null, List.of("env", "file", "aws", "gcp", "azure"),
									sources(NO_ENVIRONMENT, hanging.uri(), gcp.uri(), azure.uri(), NO_ENVIRONMENT))),
					new Measurement("no cloud, default order, firmware names none", 300, 2_000, "",
							scenario(null, List.of("env", "file", "ecs", "kubernetes", "aws", "gcp", "azure"),
									outsideAnyCloud(kvmFirmware, blackHole.uri()))),
					new Measurement("no cloud, default order, no firmware (today)", 1, 10, "",
							scenario(null, List.of("env", "file", "ecs", "kubernetes", "aws", "gcp", "azure"),
									outsideAnyCloud(noFirmware, blackHole.uri()))));
			measurements.forEach(Measurement::warmUp);
			List<Result> results = new ArrayList<>();
			int[] connections = new int[measurements.size()];
			for (int i = 0; i < measurements.size(); i++) {
				int before = blackHole.connections();
				results.add(measurements.get(i).measure());
				connections[i] = blackHole.connections() - before;
			}
			print(results);
			int firmwareRow = results.size() - 2;
			int todayRow = results.size() - 1;
			Result firmware = results.get(firmwareRow);
			Result today = results.get(todayRow);
			System.out.printf("%nOutside any cloud, default order: p50 %.3f ms when the firmware names no cloud "
					+ "(%d connections to the well-known addresses in %d detections) versus %.1f ms without firmware "
					+ "to read (%d connections in %d detections): %,.0fx%n", firmware.p50() / 1e6,
					connections[firmwareRow], firmware.iterations(), today.p50() / 1e6, connections[todayRow],
					today.iterations(), (double) today.p50() / firmware.p50());
		}
	}

	private static Scenario scenario(String rack, List<String> order, List<RackSource> sources) {
		FollowerFetchProperties properties = new FollowerFetchProperties();
		properties.setRack(rack);
		properties.getDetection().setOrder(order);
		properties.getDetection().setTimeout(BUDGET);
		return () -> Detections.detect(properties, new StandardEnvironment(), null, sources);
	}

	private static List<RackSource> sources(Function<String, String> environment, URI aws, URI gcp, URI azure,
			Function<String, String> ecsEnvironment) {
		MetadataHttpClient client = new MetadataHttpClient();
		return List.of(new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK"), environment),
				new FileRackSource(null, "topology.kubernetes.io/zone"),
				new EcsTaskMetadataRackSource(client, true, ecsEnvironment), outsideAnyPod(),
				new Ec2MetadataRackSource(client, true, aws, ZoneFormat.AUTO, NO_ENVIRONMENT),
				new GcpMetadataRackSource(client, true, gcp, NO_ENVIRONMENT),
				new AzureMetadataRackSource(client, true, azure));
	}

	/**
	 * The default sources with nothing configured: the network sources ask their
	 * well-known address, here played by {@code wellKnown}, unless the firmware rules their
	 * cloud out.
	 */
	private static List<RackSource> outsideAnyCloud(Firmware firmware, URI wellKnown) {
		MetadataHttpClient client = new MetadataHttpClient();
		return List.of(new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK"), NO_ENVIRONMENT),
				new FileRackSource(null, "topology.kubernetes.io/zone"),
				new EcsTaskMetadataRackSource(client, true, NO_ENVIRONMENT), outsideAnyPod(),
				new Ec2MetadataRackSource(client, true, null, ZoneFormat.AUTO, NO_ENVIRONMENT, firmware, wellKnown,
						wellKnown),
				new GcpMetadataRackSource(client, true, null, NO_ENVIRONMENT, firmware, wellKnown),
				new AzureMetadataRackSource(client, true, null, firmware, wellKnown));
	}

	private static RackSource outsideAnyPod() {
		return new KubernetesNodeRackSource(true, "NODE_NAME", Path.of("/nonexistent/serviceaccount"), NO_ENVIRONMENT);
	}

	private static void settle() {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (RackDetectorTests.detectionThreads() > 0 && System.nanoTime() < deadline) {
			Thread.onSpinWait();
		}
		System.gc();
	}

	private static void check(DetectedRack detected, String expectedRack, String name) {
		if (!detected.rack().orElse("").equals(expectedRack)) {
			throw new IllegalStateException(name + ": expected " + expectedRack + " but detected " + detected);
		}
	}

	private static long percentile(long[] sorted, double fraction) {
		int index = (int) Math.ceil(fraction * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(index, sorted.length - 1))];
	}

	private static void print(List<Result> results) {
		Result baseline = results.get(0);
		System.out.printf("java %s (%s), %s %s, %d processors%n%n", System.getProperty("java.version"),
				System.getProperty("java.vm.name"), System.getProperty("os.name"), System.getProperty("os.arch"),
				Runtime.getRuntime().availableProcessors());
		System.out.println(
				"| scenario | iterations | p50 (ms) | p99 (ms) | mean (ms) | p50 / explicit | mean / explicit |");
		System.out.println("|---|---:|---:|---:|---:|---:|---:|");
		for (Result result : results) {
			System.out.printf("| %s | %d | %.4f | %.4f | %.4f | %,.1fx | %,.1fx |%n", result.name(),
					result.iterations(), result.p50() / 1e6, result.p99() / 1e6, result.mean() / 1e6,
					(double) result.p50() / baseline.p50(), result.mean() / baseline.mean());
		}
	}

	@FunctionalInterface
	private interface Scenario {

		DetectedRack run();

	}

	private record Measurement(String name, int warmups, int iterations, String expectedRack, Scenario scenario) {

		void warmUp() {
			for (int i = 0; i < this.warmups; i++) {
				check(this.scenario.run(), this.expectedRack, this.name);
			}
		}

		Result measure() {
			settle();
			long[] nanos = new long[this.iterations];
			for (int i = 0; i < this.iterations; i++) {
				long start = System.nanoTime();
				DetectedRack detected = this.scenario.run();
				nanos[i] = System.nanoTime() - start;
				check(detected, this.expectedRack, this.name);
			}
			Arrays.sort(nanos);
			double mean = Arrays.stream(nanos).average().orElse(0);
			return new Result(this.name, this.iterations, percentile(nanos, 0.50), percentile(nanos, 0.99), mean);
		}

	}

	private record Result(String name, int iterations, long p50, long p99, double mean) {

	}

}
