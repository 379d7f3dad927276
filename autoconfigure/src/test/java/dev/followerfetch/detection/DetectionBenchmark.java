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
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.env.StandardEnvironment;

/**
 * Wall-clock cost of rack detection, measured in one run and printed side by side: an
 * explicit rack, an environment variable, every cloud answering from a loopback stub, and
 * the first cloud in the order hanging. Every scenario is warmed up before any is
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
				RawLoopbackServer hanging = RawLoopbackServer.holding()) {
			aws.imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
			gcp.gcp("projects/123456/zones/us-central1-b");
			azure.azure("2", "eastus");
			ecs.ecs("us-east-1a");
			Function<String, String> ecsVariable = Map.of(EcsTaskMetadataRackSource.VARIABLE,
					ecs.uri(MetadataStubServer.ECS_BASE_PATH).toString())::get;
			List<Measurement> measurements = List.of(
					new Measurement("explicit follower-fetch.rack", 20_000, 50_000, "use1-az9",
							scenario("use1-az9", List.of("env", "file", "ecs", "aws", "gcp", "azure"),
									sources(NO_ENVIRONMENT, aws.uri(), gcp.uri(), azure.uri(), NO_ENVIRONMENT))),
					new Measurement("env KAFKA_CLIENT_RACK", 20_000, 50_000, "use1-az1",
							scenario(null, List.of("env", "file", "ecs", "aws", "gcp", "azure"),
									sources(Map.of("KAFKA_CLIENT_RACK", "use1-az1")::get, aws.uri(), gcp.uri(),
											azure.uri(), ecsVariable))),
					new Measurement("stubs all answering, aws first", 300, 2_000, "use1-az2",
							scenario(null, List.of("env", "file", "aws", "ecs", "gcp", "azure"),
									sources(NO_ENVIRONMENT, aws.uri(), gcp.uri(), azure.uri(), ecsVariable))),
					new Measurement("aws hangs, gcp answers, 1 s budget", 1, 10, "us-central1-b",
							scenario(null, List.of("env", "file", "aws", "gcp", "azure"),
									sources(NO_ENVIRONMENT, hanging.uri(), gcp.uri(), azure.uri(), NO_ENVIRONMENT))));
			measurements.forEach(Measurement::warmUp);
			List<Result> results = measurements.stream().map(Measurement::measure).toList();
			print(results);
		}
	}

	private static Scenario scenario(String rack, List<String> order, List<RackSource> sources) {
		FollowerFetchProperties properties = new FollowerFetchProperties();
		properties.setRack(rack);
		properties.getDetection().setOrder(order);
		properties.getDetection().setTimeout(BUDGET);
		RackDetection detection = new RackDetection(properties, new StandardEnvironment(), CandidateSelector.FIRST);
		return () -> detection.detect(sources);
	}

	private static List<RackSource> sources(Function<String, String> environment, URI aws, URI gcp, URI azure,
			Function<String, String> ecsEnvironment) {
		MetadataHttpClient client = new MetadataHttpClient();
		return List.of(new EnvironmentRackSource(List.of("KAFKA_CLIENT_RACK"), environment),
				new FileRackSource(null, "topology.kubernetes.io/zone"),
				new EcsTaskMetadataRackSource(client, true, ecsEnvironment),
				new Ec2MetadataRackSource(client, true, aws, ZoneFormat.AUTO, NO_ENVIRONMENT),
				new GcpMetadataRackSource(client, true, gcp, NO_ENVIRONMENT),
				new AzureMetadataRackSource(client, true, azure));
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
