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
package dev.followerfetch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.followerfetch.application.ClientRackAutoConfiguration;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.observation.FollowerFetchObservationAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.commons.logging.LogFactory;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Every invalid follower-fetch property value, one at a time, in a context with the whole
 * starter: start-up fails (or logs a WARN and goes on) with a message that names the
 * property and what it accepts, as the user reads it in Boot's failure analysis. The
 * "Configuration errors" table of {@code docs/troubleshooting.md} is checked against the
 * same reports.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class BadConfigurationTests {

	private static final String UNSET_VARIABLE = "FOLLOWER_FETCH_TEST_VARIABLE_NEVER_SET";

	private static final String KEY = "topology.kubernetes.io/zone";

	private static final Pattern BACKTICKED = Pattern.compile("`([^`]*)`");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class,
				FollowerFetchObservationAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withPropertyValues("spring.kafka.bootstrap-servers=127.0.0.1:9", "follower-fetch.observation.timeout=300ms",
				"follower-fetch.detection.order=env,file", "follower-fetch.detection.env.variables=" + UNSET_VARIABLE);

	@TempDir
	Path directory;

	@Test
	void anUnknownZoneFormatFailsListingTheValidFormats() {
		assertFailure("follower-fetch.detection.aws.zone-format=both")
			.contains("Failed to bind properties under 'follower-fetch.detection.aws.zone-format'")
			.contains("Value: \"both\"")
			.contains("The following values are valid: AUTO ID NAME");
	}

	@Test
	void anUnknownDefaultPolicyFailsListingThePolicies() {
		assertFailure("follower-fetch.policy.default=fastest")
			.contains("Failed to bind properties under 'follower-fetch.policy.default' to dev.followerfetch.Policy")
			.contains("The following values are valid: FRESHNESS LOCALITY");
	}

	@Test
	void anUnknownListenerPolicyFailsListingThePolicies() {
		assertFailure("follower-fetch.policy.listeners.payments=fastest")
			.contains("Failed to bind properties under 'follower-fetch.policy.listeners.payments'")
			.contains("The following values are valid: FRESHNESS LOCALITY");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "-1s" })
	void aDetectionTimeoutThatIsNotPositiveFails(String timeout) {
		assertFailure("follower-fetch.detection.timeout=" + timeout)
			.contains("Invalid value '" + timeout + "' for configuration property 'follower-fetch.detection.timeout'")
			.contains("The budget for network sources must be a positive duration, for example 1s.");
	}

	@ParameterizedTest
	@ValueSource(strings = { "ftp://127.0.0.1", "http://127.0.0.1:9/latest", "http:///nohost", "http://127.0.0.1:9?x=1" })
	void aMetadataEndpointThatIsNoBareHttpUrlFails(String endpoint) {
		assertFailure("follower-fetch.detection.aws.endpoint=" + endpoint)
			.contains("Invalid value '" + endpoint + "' for configuration property "
					+ "'follower-fetch.detection.aws.endpoint'")
			.contains("Must be an http(s) URL with a host and no path, such as http://169.254.169.254, or a "
					+ "host[:port].");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "-2s" })
	void aBrokerTimeoutThatIsNotPositiveFails(String timeout) {
		assertFailure("follower-fetch.detection.broker-timeout=" + timeout)
			.contains("Invalid value '" + timeout + "' for configuration property "
					+ "'follower-fetch.detection.broker-timeout'")
			.contains("must be a positive duration, for example 2s.");
	}

	@ParameterizedTest
	@ValueSource(strings = { "0s", "-200ms" })
	void aRefreshIntervalThatIsNotPositiveFails(String interval) {
		assertFailure("follower-fetch.observation.refresh-interval=" + interval)
			.contains("Invalid value '" + interval + "' for configuration property "
					+ "'follower-fetch.observation.refresh-interval'")
			.contains("Must be a positive duration, for example 30s.");
	}

	@Test
	void anObservationTimeoutThatIsNotPositiveFails() {
		assertFailure("follower-fetch.observation.timeout=0s")
			.contains("Invalid value '0s' for configuration property 'follower-fetch.observation.timeout'")
			.contains("Must be a positive duration, for example 5s.");
	}

	@Test
	void aNegativeFallbackGraceFails() {
		assertFailure("follower-fetch.observation.fallback-grace=-1s")
			.contains("Invalid value '-1s' for configuration property 'follower-fetch.observation.fallback-grace'")
			.contains("Must be zero or a positive duration, for example 2m.");
	}

	@Test
	void aNegativeRealignGraceOrIntervalFails() {
		assertFailure("follower-fetch.assignment.realign-grace=-1s")
			.contains("Invalid value '-1s' for configuration property 'follower-fetch.assignment.realign-grace'")
			.contains("Must be zero or a positive duration, for example 2m.");
		assertFailure("follower-fetch.assignment.realign-interval=-10m")
			.contains("Invalid value '-10m' for configuration property 'follower-fetch.assignment.realign-interval'")
			.contains("Must be zero or a positive duration, for example 10m.");
	}

	@Test
	void aNegativeReplicaLeaseFails() {
		assertFailure("follower-fetch.policy.replica-lease=-5s")
			.contains("Invalid value '-5s' for configuration property 'follower-fetch.policy.replica-lease'")
			.contains("Must be zero (Kafka's default of 5 minutes) or a positive duration, for example 30s.");
	}

	@Test
	void aNegativeMaxListedPartitionsFails() {
		assertFailure("follower-fetch.observation.max-listed-partitions=-1")
			.contains("Invalid value '-1' for configuration property "
					+ "'follower-fetch.observation.max-listed-partitions'")
			.contains("Must be zero or more.");
	}

	@Test
	void aNegativeMaxListedTopicsFails() {
		assertFailure("follower-fetch.observation.max-listed-topics=-1")
			.contains("Invalid value '-1' for configuration property 'follower-fetch.observation.max-listed-topics'")
			.contains("Must be zero or more.");
	}

	@Test
	void aBlankDegradedStatusFailsNamingStatusCodes() {
		assertFailure("follower-fetch.health.degraded-status= ")
			.contains("for configuration property 'follower-fetch.health.degraded-status'")
			.contains("Must be a health status code such as UNKNOWN, DOWN or OUT_OF_SERVICE.");
	}

	@Test
	void anUnknownSourceInTheOrderFailsListingTheKnownSources() {
		assertFailure("follower-fetch.detection.order=env,k8s")
			.contains("Invalid value 'env,k8s' for configuration property 'follower-fetch.detection.order'")
			.contains("Unknown source k8s. Known sources: env, file, ecs, kubernetes, aws, gcp, azure.");
	}

	@Test
	void aSourceListedTwiceInTheOrderFailsNamingIt() {
		assertFailure("follower-fetch.detection.order=env,env")
			.contains("Invalid value 'env,env' for configuration property 'follower-fetch.detection.order'")
			.contains("Source env is listed more than once.");
	}

	@Test
	void anEmptyOrderStartsWithAWarningListingTheKnownSources(CapturedOutput output) {
		this.contextRunner.withPropertyValues("follower-fetch.detection.order=", "follower-fetch.rack=az-b")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("WARN")
			.contains("follower-fetch.detection.order is empty: only an explicit rack and the application's own "
					+ "RackSource beans are used. Known sources: env, file, ecs, kubernetes, aws, gcp, azure.");
	}

	@Test
	void aRackFilePathThatDoesNotExistStartsWithAWarningNamingTheProperty(CapturedOutput output) {
		Path absent = this.directory.resolve("rack.id");
		assertWarning(output, "follower-fetch.detection.file.path=" + absent)
			.contains("file: not found, file " + absent + " does not exist (follower-fetch.detection.file.path)");
	}

	@Test
	void aRackFilePathThatIsADirectoryStartsWithAWarningNamingTheProperty(CapturedOutput output) {
		assertWarning(output, "follower-fetch.detection.file.path=" + this.directory)
			.contains("file: failed, file " + this.directory
					+ " is a directory (follower-fetch.detection.file.path must name a readable regular file)");
	}

	@Test
	void aRackFileThatCannotBeReadStartsWithAWarningNamingTheProperty(CapturedOutput output) throws IOException {
		Path file = Files.writeString(this.directory.resolve("rack.id"), "use1-az1\n");
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
		assumeThat(Files.isReadable(file)).as("a file without permissions is unreadable (not as root)").isFalse();
		assertWarning(output, "follower-fetch.detection.file.path=" + file)
			.contains("file: failed, file " + file
					+ " is not a readable regular file (follower-fetch.detection.file.path)");
	}

	@Test
	void aLabelFileWithConflictingZonesStartsWithAWarningQuotingBoth(CapturedOutput output) throws IOException {
		Path file = Files.writeString(this.directory.resolve("labels"),
				KEY + "=\"us-east-1a\"\napp=\"orders\"\n" + KEY + "=\"us-east-1b\"\n");
		assertWarning(output, "follower-fetch.detection.file.path=" + file)
			.contains("file: failed, file " + file + " has conflicting values for label " + KEY
					+ " (follower-fetch.detection.file.key): \"us-east-1a\", \"us-east-1b\"");
	}

	@Test
	void aRackWithADisallowedCharacterFailsStatingTheRule() {
		assertFailure("follower-fetch.rack=az b")
			.contains("Invalid value 'az b' for configuration property 'follower-fetch.rack'")
			.contains("A rack is 1 to 128 characters: letters, digits and - _ . : / +, but value \"az b\" has a "
					+ "disallowed character at position 3.")
			.containsOnlyOnce("A rack is");
	}

	@Test
	void aRackLongerThanTheLimitFailsStatingTheRule() {
		assertFailure("follower-fetch.rack=" + "a".repeat(129))
			.contains("for configuration property 'follower-fetch.rack'")
			.contains("A rack is 1 to 128 characters: letters, digits and - _ . : / +, but value \""
					+ "a".repeat(40) + "\"... (129 characters) is longer than 128 characters.");
	}

	@Test
	void aRequiredRackThatIsNotFoundFailsListingTheSourcesTried() {
		assertFailure("follower-fetch.detection.required=true")
			.contains("No Kafka client.rack was found, and follower-fetch.detection.required is true. "
					+ "Sources tried, in order: - env: not found, " + UNSET_VARIABLE + " not set "
					+ "- file: not found, follower-fetch.detection.file.path not set")
			.contains("Set follower-fetch.rack (or the KAFKA_CLIENT_RACK environment variable)");
	}

	@Test
	void aRequiredRackWithNoSourceToAskSaysSo() {
		assertFailure("follower-fetch.detection.required=true", "follower-fetch.detection.order=")
			.contains("follower-fetch.detection.required is true. Sources tried: none "
					+ "(follower-fetch.detection.order is empty and there is no RackSource of the application's own).");
	}

	@Test
	void theConfigurationErrorsTableQuotesWhatStartUpReports(CapturedOutput output) throws IOException {
		List<Row> rows = configurationErrorRows();
		assertThat(rows).hasSizeGreaterThanOrEqualTo(15);
		for (Row row : rows) {
			List<String> properties = new ArrayList<>(row.properties());
			String documentedPath = null;
			Path file = null;
			if (!row.fileLines().isEmpty()) {
				String pathProperty = properties.stream()
					.filter((property) -> property.startsWith("follower-fetch.detection.file.path="))
					.findFirst()
					.orElseThrow(() -> new AssertionError("Row " + row + " has file lines but no file path"));
				documentedPath = pathProperty.substring(pathProperty.indexOf('=') + 1);
				file = Files.write(Files.createTempFile(this.directory, "rack", ".txt"), row.fileLines());
				properties.set(properties.indexOf(pathProperty), "follower-fetch.detection.file.path=" + file);
			}
			int logged = output.getAll().length();
			AtomicReference<String> observed = new AtomicReference<>();
			this.contextRunner.withPropertyValues(properties.toArray(String[]::new)).run((context) -> {
				Throwable failure = context.getStartupFailure();
				assertThat(failure != null).as("%s fails start-up", row.input()).isEqualTo(row.failsStartUp());
				observed.set((failure != null) ? report(failure, properties) : output.getAll().substring(logged));
			});
			String text = normalize(observed.get());
			if (file != null) {
				text = text.replace(file.toString(), documentedPath);
			}
			for (String quote : row.quotes()) {
				assertThat(text).as("Observed for %s", row.input()).matches(inOrder(quote));
			}
		}
	}

	private AbstractStringAssert<?> assertFailure(String... properties) {
		AtomicReference<String> report = new AtomicReference<>();
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			report.set(report(context.getStartupFailure(), List.of(properties)));
		});
		return assertThat(normalize(report.get()));
	}

	private AbstractStringAssert<?> assertWarning(CapturedOutput output, String... properties) {
		this.contextRunner.withPropertyValues(properties).run((context) -> assertThat(context).hasNotFailed());
		return assertThat(normalize(output.getAll())).contains("WARN")
			.contains("No Kafka client.rack found in")
			.contains("so consumers keep reading from partition leaders");
	}

	/**
	 * What Boot prints under "APPLICATION FAILED TO START": the description and action of
	 * the first failure analyzer that understands the failure, as {@code FailureAnalyzers}
	 * picks it.
	 */
	private static String report(Throwable failure, List<String> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		TestPropertyValues.of(properties).applyTo(environment);
		ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
			.and(Environment.class, environment);
		List<FailureAnalyzer> analyzers = SpringFactoriesLoader
			.forDefaultResourceLocation(BadConfigurationTests.class.getClassLoader())
			.load(FailureAnalyzer.class, arguments,
					FailureHandler.logging(LogFactory.getLog(BadConfigurationTests.class)));
		for (FailureAnalyzer analyzer : analyzers) {
			FailureAnalysis analysis = analyzer.analyze(failure);
			if (analysis != null) {
				return "Description: " + analysis.getDescription() + "\nAction: " + analysis.getAction();
			}
		}
		throw new AssertionError("No failure analysis for " + failure, failure);
	}

	private static String normalize(String text) {
		return text.replaceAll("\\s+", " ");
	}

	/**
	 * A pattern that matches text holding the parts of a quote, which "..." separates, in
	 * order.
	 */
	private static String inOrder(String quote) {
		StringBuilder regex = new StringBuilder("(?s).*");
		for (String part : normalize(quote).split("\\.\\.\\.", -1)) {
			regex.append(Pattern.quote(part)).append(".*");
		}
		return regex.toString();
	}

	/**
	 * The rows of the table under "## Configuration errors": input (backticked properties,
	 * and backticked lines of the file a row names), outcome, message (backticked quotes).
	 */
	private static List<Row> configurationErrorRows() throws IOException {
		String troubleshooting = Files.readString(Path.of("../docs/troubleshooting.md"));
		int section = troubleshooting.indexOf("\n## Configuration errors\n");
		assertThat(section).as("docs/troubleshooting.md has a Configuration errors section").isPositive();
		int end = troubleshooting.indexOf("\n## ", section + 1);
		List<Row> rows = new ArrayList<>();
		for (String line : troubleshooting.substring(section, (end > 0) ? end : troubleshooting.length()).split("\n")) {
			if (!line.startsWith("| `")) {
				continue;
			}
			String[] cells = line.substring(2, line.length() - 2).split(" \\| ");
			assertThat(cells).as("cells of %s", line).hasSize(3);
			List<String> properties = new ArrayList<>();
			List<String> fileLines = new ArrayList<>();
			backticked(cells[0]).forEach((token) -> {
				if (token.startsWith("follower-fetch.") || token.startsWith("management.")) {
					properties.add(token);
				}
				else {
					fileLines.add(token);
				}
			});
			rows.add(new Row(cells[0], properties, fileLines, cells[1].strip().equals("fails start-up"),
					backticked(cells[2])));
		}
		return rows;
	}

	private static List<String> backticked(String cell) {
		List<String> tokens = new ArrayList<>();
		Matcher matcher = BACKTICKED.matcher(cell);
		while (matcher.find()) {
			tokens.add(matcher.group(1));
		}
		return tokens;
	}

	/**
	 * A row of the configuration errors table.
	 *
	 * @param input the input cell as written
	 * @param properties the properties it sets
	 * @param fileLines the lines of the file it names, if any
	 * @param failsStartUp whether the outcome is a failed start-up rather than a WARN
	 * @param quotes what the message cell quotes
	 */
	private record Row(String input, List<String> properties, List<String> fileLines, boolean failsStartUp,
			List<String> quotes) {

	}

}
