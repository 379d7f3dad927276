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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.springframework.boot.json.BasicJsonParser;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.util.StringUtils;

/**
 * What reading the zone from an ECS task metadata document costs with {@link JsonFields}
 * and with Spring Boot's parsers, side by side in one run: the first parse in a fresh
 * JVM that has Spring loaded (as the application has when detection runs), median and
 * maximum of {@value #FRESH_JVMS} processes per parser, interleaved; and a warm parse,
 * median of {@value #WARM_PARSES}. {@link JsonParserFactory} picks what the classpath
 * has (Jackson here, as in most Boot applications). Not a unit test; run it with
 * {@code ./mvnw -pl autoconfigure -am test-compile exec:exec@json-benchmark}.
 *
 * @author follower-fetch authors
 */
public final class JsonParsingBenchmark {

	private static final int FRESH_JVMS = 15;

	private static final int WARM_PARSES = 20_000;

	private static final List<String> PARSERS = List.of("JsonFields", "JsonParserFactory", "BasicJsonParser");

	private JsonParsingBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 1) {
			StringUtils.hasText("loaded");
			Class.forName("org.springframework.boot.SpringApplication");
			long start = System.nanoTime();
			String zone = zone(args[0]);
			long micros = (System.nanoTime() - start) / 1000;
			System.out.println(micros + " " + JsonParserFactory.getJsonParser().getClass().getSimpleName() + " " + zone);
			return;
		}
		long[][] first = new long[PARSERS.size()][FRESH_JVMS];
		String picked = "?";
		for (int run = 0; run < FRESH_JVMS; run++) {
			for (int parser = 0; parser < PARSERS.size(); parser++) {
				String[] answer = fresh(PARSERS.get(parser));
				if (!"us-east-1a".equals(answer[2])) {
					throw new IllegalStateException(PARSERS.get(parser) + " read " + answer[2]);
				}
				first[parser][run] = Long.parseLong(answer[0]);
				picked = answer[1];
			}
		}
		double[] warm = new double[PARSERS.size()];
		for (int parser = 0; parser < PARSERS.size(); parser++) {
			warm[parser] = warmMedianMicros(PARSERS.get(parser));
		}
		System.out.printf("java %s, %d processors, a task document of %d characters; JsonParserFactory picks %s%n%n",
				System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), TaskDocument.TEXT.length(),
				picked);
		System.out.println("| parser | first parse in a fresh JVM, median / max (ms) | vs JsonFields | warm parse, median (µs) | vs JsonFields |");
		System.out.println("|---|---:|---:|---:|---:|");
		long baseline = median(first[0]);
		for (int parser = 0; parser < PARSERS.size(); parser++) {
			System.out.printf("| %s | %.2f / %.2f | %.1fx | %.2f | %.1fx |%n", PARSERS.get(parser),
					median(first[parser]) / 1000.0, Arrays.stream(first[parser]).max().orElse(0) / 1000.0,
					(double) median(first[parser]) / baseline, warm[parser], warm[parser] / warm[0]);
		}
	}

	private static String zone(String parser) {
		Object zone = switch (parser) {
			case "JsonFields" -> JsonFields.string(TaskDocument.TEXT, "AvailabilityZone");
			case "JsonParserFactory" -> JsonParserFactory.getJsonParser().parseMap(TaskDocument.TEXT).get("AvailabilityZone");
			case "BasicJsonParser" -> new BasicJsonParser().parseMap(TaskDocument.TEXT).get("AvailabilityZone");
			default -> throw new IllegalArgumentException(parser);
		};
		return String.valueOf(zone);
	}

	private static String[] fresh(String parser) throws IOException, InterruptedException {
		String java = ProcessHandle.current().info().command().orElse("java");
		Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				JsonParsingBenchmark.class.getName(), parser)
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		if (process.waitFor() != 0) {
			throw new IllegalStateException(parser + " failed: " + output);
		}
		// the answer is the last line: a logging framework may print its own status before it
		return output.lines().reduce((previous, line) -> line).orElse("").split(" ");
	}

	private static double warmMedianMicros(String parser) {
		for (int i = 0; i < WARM_PARSES; i++) {
			zone(parser);
		}
		long[] nanos = new long[WARM_PARSES];
		for (int i = 0; i < nanos.length; i++) {
			long start = System.nanoTime();
			zone(parser);
			nanos[i] = System.nanoTime() - start;
		}
		return median(nanos) / 1000.0;
	}

	private static long median(long[] values) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}

	/**
	 * A Fargate task metadata document (v4) with three containers, the shape ECS answers.
	 */
	private static final class TaskDocument {

		static final String TEXT = text();

		private static String text() {
			StringBuilder containers = new StringBuilder();
			for (int i = 0; i < 3; i++) {
				containers.append((i > 0) ? "," : "")
					.append("{\"DockerId\":\"cd189a933e5849daa93386466019ab50-").append(i)
					.append("\",\"Name\":\"app-").append(i)
					.append("\",\"Image\":\"123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1.4.").append(i)
					.append("\",\"ImageID\":\"sha256:8ddbd3c4ca44b0a6b35b4e5a3e7c0e0c1b0a3f6dc8e9ee6f0a5f8b5c7d6e4f3a\",")
					.append("\"Labels\":{\"com.amazonaws.ecs.cluster\":\"arn:aws:ecs:us-east-1:123456789012:cluster/prod\",")
					.append("\"com.amazonaws.ecs.container-name\":\"app\",\"com.amazonaws.ecs.task-definition-family\":\"app\",")
					.append("\"com.amazonaws.ecs.task-definition-version\":\"42\"},\"DesiredStatus\":\"RUNNING\",")
					.append("\"KnownStatus\":\"RUNNING\",\"Limits\":{\"CPU\":256,\"Memory\":512},")
					.append("\"CreatedAt\":\"2026-12-01T10:15:12.25Z\",\"StartedAt\":\"2026-12-01T10:15:13.04Z\",")
					.append("\"Type\":\"NORMAL\",\"Networks\":[{\"NetworkMode\":\"awsvpc\",\"IPv4Addresses\":[\"10.0.2.106\"],")
					.append("\"AttachmentIndex\":0,\"MACAddress\":\"0e:9e:32:c7:48:85\",\"IPv4SubnetCIDRBlock\":\"10.0.2.0/24\",")
					.append("\"PrivateDNSName\":\"ip-10-0-2-106.ec2.internal\"}],")
					.append("\"LogOptions\":{\"awslogs-group\":\"/ecs/app\",\"awslogs-region\":\"us-east-1\"},")
					.append("\"LogDriver\":\"awslogs\"}");
			}
			return "{\"Cluster\":\"arn:aws:ecs:us-east-1:123456789012:cluster/prod\","
					+ "\"TaskARN\":\"arn:aws:ecs:us-east-1:123456789012:task/prod/1f8c3d\",\"Family\":\"app\","
					+ "\"Revision\":\"42\",\"DesiredStatus\":\"RUNNING\",\"KnownStatus\":\"RUNNING\","
					+ "\"Limits\":{\"CPU\":0.25,\"Memory\":512},\"PullStartedAt\":\"2026-12-01T10:15:02.1Z\","
					+ "\"Containers\":[" + containers + "],\"LaunchType\":\"FARGATE\","
					+ "\"ClockDrift\":{\"ClockErrorBound\":0.44,\"ClockSynchronizationStatus\":\"SYNCHRONIZED\"},"
					+ "\"AvailabilityZone\":\"us-east-1a\"}";
		}

	}

}
