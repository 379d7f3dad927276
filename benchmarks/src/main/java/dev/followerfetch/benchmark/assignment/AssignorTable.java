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
package dev.followerfetch.benchmark.assignment;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link AssignorBenchmark} through JMH, with the {@code gc} profiler and
 * {@link LeaderZoneProfiler}, and prints its cases side by side as a Markdown table: for
 * each case and each next strategy, the plain assignor and the zone-aware one before it,
 * their time per {@code assign}, leader-zone share and bytes allocated per
 * {@code assign}, and zone-aware / plain as ratios, all measured in the same run. Takes
 * JMH's command-line options ({@code -p}, {@code -wi}, {@code -i}, {@code -f},
 * {@code -jvmArgsAppend}, ...); a parameter not given takes the benchmark's defaults. A
 * case that failed (an exception, an {@link OutOfMemoryError}, a setup over its timeout,
 * a forked JVM that died) shows as failed, with its exception.
 *
 * @author follower-fetch authors
 */
public final class AssignorTable {

	private static final List<String> CASE = List.of("memberCount", "partitionsToMemberRatio", "topicCount",
			"subscriptionModel", "layout", "rebalance");

	private static final String ASSIGNOR = "assignorType";

	private static final String ALLOCATED = "gc.alloc.rate.norm";

	private AssignorTable() {
	}

	public static void main(String[] args) throws Exception {
		CommandLineOptions command = new CommandLineOptions(args);
		Options options = new OptionsBuilder().parent(command)
			.include(AssignorBenchmark.class.getName() + ".assign")
			.addProfiler(GCProfiler.class)
			.addProfiler(LeaderZoneProfiler.class)
			.build();
		Failures failures = new Failures(
				OutputFormatFactory.createFormatInstance(System.out, command.verbosity().orElse(VerboseMode.NORMAL)));
		Collection<RunResult> results = new Runner(options, failures).run();
		Map<String, RunResult> byCase = new HashMap<>();
		for (RunResult result : results) {
			byCase.put(key(result.getParams()::getParam), result);
		}
		List<String> assignors = values(command, ASSIGNOR);
		System.out.println();
		System.out.println(setting(results));
		System.out.println();
		System.out.println("| members | partitions / member | topics | subscription | layout | rebalance | next strategy "
				+ "| plain ms/assign | zone-aware ms/assign | time zone-aware / plain | plain leader-zone share "
				+ "| zone-aware leader-zone share | plain alloc/assign | zone-aware alloc/assign "
				+ "| alloc zone-aware / plain | pending plain / zone-aware |");
		System.out.println("|---:|---:|---:|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
		for (Map<String, String> params : grid(command)) {
			for (AssignorBenchmark.AssignorType zoneAware : AssignorBenchmark.AssignorType.values()) {
				AssignorBenchmark.AssignorType plainType = zoneAware.plain();
				if (!zoneAware.zoneAware() || !(assignors.contains(zoneAware.name())
						|| assignors.contains(plainType.name()))) {
					continue;
				}
				Cell plain = cell(params, plainType, byCase, failures);
				Cell zoned = cell(params, zoneAware, byCase, failures);
				List<String> row = new ArrayList<>();
				CASE.forEach((name) -> row.add(params.get(name)));
				row.add(plainType.inner().getSimpleName());
				row.add(plain.time());
				row.add(zoned.time());
				row.add(ratio(zoned.score(), plain.score()));
				row.add(plain.share());
				row.add(zoned.share());
				row.add(plain.allocated());
				row.add(zoned.allocated());
				row.add(ratio(zoned.secondary(ALLOCATED), plain.secondary(ALLOCATED)));
				row.add(plain.pending() + " / " + zoned.pending());
				System.out.println("| " + String.join(" | ", row) + " |");
			}
		}
		if (!failures.reasons.isEmpty()) {
			System.out.println();
			System.out.println("Failed cases:");
			failures.reasons.forEach((key, reason) -> System.out.println("- " + key + ": " + reason));
		}
	}

	private static String setting(Collection<RunResult> results) {
		StringBuilder setting = new StringBuilder(
				"JVM " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ", "
						+ Runtime.getRuntime().availableProcessors() + " cores");
		results.stream().findFirst().map(RunResult::getParams).ifPresent((params) -> setting.append(", JMH ")
			.append(params.getJmhVersion())
			.append(", ")
			.append(params.getForks())
			.append(" fork, warm-up ")
			.append(params.getWarmup().getCount())
			.append(" x ")
			.append(params.getWarmup().getTime())
			.append(", measurement ")
			.append(params.getMeasurement().getCount())
			.append(" x ")
			.append(params.getMeasurement().getTime())
			.append(", JVM options ")
			.append(params.getJvmArgs()));
		return setting.toString();
	}

	/**
	 * Every case of the run, in the order of the parameters.
	 */
	private static List<Map<String, String>> grid(CommandLineOptions command) throws NoSuchFieldException {
		List<Map<String, String>> grid = new ArrayList<>();
		grid.add(new LinkedHashMap<>());
		for (String name : CASE) {
			List<Map<String, String>> next = new ArrayList<>();
			for (Map<String, String> params : grid) {
				for (String value : values(command, name)) {
					Map<String, String> more = new LinkedHashMap<>(params);
					more.put(name, value);
					next.add(more);
				}
			}
			grid = next;
		}
		return grid;
	}

	private static List<String> values(CommandLineOptions command, String name) throws NoSuchFieldException {
		Collection<String> given = command.getParameter(name).orElse(null);
		if (given != null) {
			return List.copyOf(given);
		}
		return List.of(AssignorBenchmark.class.getDeclaredField(name).getAnnotation(Param.class).value());
	}

	private static String key(ParamSource params) {
		List<String> values = new ArrayList<>();
		CASE.forEach((name) -> values.add(name + "=" + params.get(name)));
		values.add(ASSIGNOR + "=" + params.get(ASSIGNOR));
		return String.join(" ", values);
	}

	private static Cell cell(Map<String, String> params, AssignorBenchmark.AssignorType type,
			Map<String, RunResult> byCase, Failures failures) {
		String key = key((name) -> name.equals(ASSIGNOR) ? type.name() : params.get(name));
		RunResult result = byCase.get(key);
		if (result != null) {
			return new Cell(result, null);
		}
		String reason = failures.reasons.get(key);
		return new Cell(null, (reason != null) ? "failed: " + shortly(reason) : "not run");
	}

	private static String shortly(String reason) {
		String simple = reason.replaceFirst("^[a-z0-9_.]+\\.(?=[A-Z])", "");
		return (simple.length() > 110) ? simple.substring(0, 107) + "..." : simple;
	}

	private static String ratio(double value, double baseline) {
		return (Double.isNaN(value) || Double.isNaN(baseline) || baseline == 0) ? "-" : "%.2fx".formatted(value / baseline);
	}

	private interface ParamSource {

		@Nullable String get(String name);

	}

	/**
	 * One assignor's numbers in one case, or why there are none.
	 */
	private record Cell(@Nullable RunResult result, @Nullable String failure) {

		double score() {
			return (this.result != null) ? this.result.getPrimaryResult().getScore() : Double.NaN;
		}

		double secondary(String label) {
			Result<?> secondary = (this.result != null) ? this.result.getSecondaryResults().get(label) : null;
			return (secondary != null) ? secondary.getScore() : Double.NaN;
		}

		String time() {
			if (this.result == null) {
				return String.valueOf(this.failure);
			}
			Result<?> primary = this.result.getPrimaryResult();
			String format = format(primary.getScore());
			return Double.isNaN(primary.getScoreError()) ? format.formatted(primary.getScore())
					: format.formatted(primary.getScore()) + " ± " + format.formatted(primary.getScoreError());
		}

		String share() {
			double share = secondary(LeaderZoneProfiler.SHARE);
			return (this.result == null) ? "-" : Double.isNaN(share) ? "n/a" : "%.1f%%".formatted(share * 100);
		}

		String allocated() {
			double bytes = secondary(ALLOCATED);
			if (Double.isNaN(bytes)) {
				return "-";
			}
			return (bytes >= 1 << 30) ? "%.2f GiB".formatted(bytes / (1 << 30))
					: (bytes >= 1 << 20) ? "%.1f MiB".formatted(bytes / (1 << 20))
					: (bytes >= 1 << 10) ? "%.0f KiB".formatted(bytes / (1 << 10)) : "%.0f B".formatted(bytes);
		}

		String pending() {
			double pending = secondary(LeaderZoneProfiler.PENDING);
			return Double.isNaN(pending) ? "-" : "%,.0f".formatted(pending);
		}

		/**
		 * Three significant digits of the score, and as many decimals for its error.
		 */
		private static String format(double score) {
			int decimals = Math.max(0, 2 - (int) Math.floor(Math.log10(Math.max(Math.abs(score), 1e-9))));
			return "%,." + decimals + "f";
		}

	}

	/**
	 * JMH's console output, keeping the exception of each case that failed: a failed
	 * trial prints {@code <failure>} and then its exceptions, a forked JVM that died its
	 * exit code.
	 */
	private static final class Failures implements OutputFormat {

		private final OutputFormat out;

		private final Map<String, String> reasons = new LinkedHashMap<>();

		private @Nullable BenchmarkParams current;

		private boolean failing;

		Failures(OutputFormat out) {
			this.out = out;
		}

		@Override
		public void println(String s) {
			this.out.println(s);
			BenchmarkParams params = this.current;
			if (params == null) {
				return;
			}
			String key = key(params::getParam);
			if (s.startsWith("<failure")) {
				this.failing = true;
				this.reasons.putIfAbsent(key, "failed");
			}
			else if (s.startsWith("<forked VM failed")) {
				this.reasons.putIfAbsent(key, s.substring(1, s.length() - 1));
			}
			else if (this.failing && !s.isBlank()) {
				this.reasons.put(key, s.lines().findFirst().orElse(s).strip());
				this.failing = false;
			}
		}

		@Override
		public void startBenchmark(BenchmarkParams benchParams) {
			this.current = benchParams;
			this.failing = false;
			this.out.startBenchmark(benchParams);
		}

		@Override
		public void endBenchmark(BenchmarkResult result) {
			this.out.endBenchmark(result);
		}

		@Override
		public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
			this.out.iteration(benchParams, params, iteration);
		}

		@Override
		public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
				IterationResult data) {
			this.out.iterationResult(benchParams, params, iteration, data);
		}

		@Override
		public void startRun() {
			this.out.startRun();
		}

		@Override
		public void endRun(Collection<RunResult> result) {
			this.out.endRun(result);
		}

		@Override
		public void print(String s) {
			this.out.print(s);
		}

		@Override
		public void flush() {
			this.out.flush();
		}

		@Override
		public void close() {
			this.out.close();
		}

		@Override
		public void verbosePrintln(String s) {
			this.out.verbosePrintln(s);
		}

		@Override
		public void write(int b) {
			this.out.write(b);
		}

		@Override
		public void write(byte[] b) throws IOException {
			this.out.write(b);
		}

	}

}
