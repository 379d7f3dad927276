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

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The first metadata request in a fresh JVM, with {@link MetadataHttpClient} and with the
 * JDK's {@link HttpClient} set up as a metadata client would be (HTTP/1.1, no proxy, no
 * redirects, a timeout): {@value #FRESH_JVMS} JVMs per client, taking turns, each asking
 * a loopback stub once. Prints the time from the JVM's {@code main} to the answer, the
 * classes loaded and the threads alive once it is in, side by side. Not a unit test; run
 * it with {@code ./mvnw -pl autoconfigure -am test-compile exec:exec@http-client-benchmark}.
 *
 * @author follower-fetch authors
 */
public final class HttpClientColdStartBenchmark {

	private static final int FRESH_JVMS = 10;

	private static final List<String> CLIENTS = List.of("MetadataHttpClient", "java.net.http.HttpClient");

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private HttpClientColdStartBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length == 2) {
			ask(args[0], URI.create(args[1]));
			return;
		}
		double[][][] runs = new double[CLIENTS.size()][FRESH_JVMS][];
		try (MetadataStubServer stub = MetadataStubServer.start()) {
			stub.route("/zone", MetadataStubServer.answer(200, "us-east-1b"));
			for (int run = 0; run < FRESH_JVMS; run++) {
				for (int client = 0; client < CLIENTS.size(); client++) {
					runs[client][run] = fresh(CLIENTS.get(client), stub.uri("/zone"));
				}
			}
		}
		System.out.printf("java %s, %d processors%n%n", System.getProperty("java.version"),
				Runtime.getRuntime().availableProcessors());
		System.out.println("| client | first request in a fresh JVM, median / max (ms) | vs MetadataHttpClient "
				+ "| classes loaded | threads alive after |");
		System.out.println("|---|---:|---:|---:|---:|");
		double baseline = median(runs[0], 0);
		for (int client = 0; client < CLIENTS.size(); client++) {
			System.out.printf("| %s | %.1f / %.1f | %.1fx | %.0f | %.0f |%n", CLIENTS.get(client),
					median(runs[client], 0), max(runs[client], 0), median(runs[client], 0) / baseline,
					median(runs[client], 1), median(runs[client], 2));
		}
	}

	private static void ask(String client, URI uri) throws Exception {
		long start = System.nanoTime();
		String body;
		if (client.equals("MetadataHttpClient")) {
			body = new MetadataHttpClient().fetch("GET", uri, Map.of(), TIMEOUT);
		}
		else {
			HttpClient http = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.proxy(HttpClient.Builder.NO_PROXY)
				.followRedirects(HttpClient.Redirect.NEVER)
				.connectTimeout(TIMEOUT)
				.build();
			body = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
					HttpResponse.BodyHandlers.ofString()).body();
		}
		double millis = (System.nanoTime() - start) / 1e6;
		if (!body.equals("us-east-1b")) {
			throw new IllegalStateException(client + " read " + body);
		}
		System.out.printf("%.3f %d %d%n", millis, ManagementFactory.getClassLoadingMXBean().getLoadedClassCount(),
				Thread.activeCount());
	}

	private static double[] fresh(String client, URI uri) throws Exception {
		String java = ProcessHandle.current().info().command().orElse("java");
		Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				HttpClientColdStartBenchmark.class.getName(), client, uri.toString())
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
		if (process.waitFor() != 0) {
			throw new IllegalStateException(client + " failed: " + output);
		}
		String[] lines = output.split("\n");
		return Arrays.stream(lines[lines.length - 1].split(" ")).mapToDouble(Double::parseDouble).toArray();
	}

	private static double median(double[][] runs, int column) {
		double[] values = Arrays.stream(runs).mapToDouble((run) -> run[column]).sorted().toArray();
		return values[values.length / 2];
	}

	private static double max(double[][] runs, int column) {
		return Arrays.stream(runs).mapToDouble((run) -> run[column]).max().orElse(0);
	}

}
