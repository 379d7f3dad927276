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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.followerfetch.Policy;
import dev.followerfetch.policy.ConsumerKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@link StateLog} logs as snapshots follow each other.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class StateLogTests {

	private final StateLog log = new StateLog();

	private int refresh;

	@Test
	void enteringADegradedStateLogsOneWarningWithCauseAndFixNotOnePerRefresh(CapturedOutput output) {
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE));
		this.log.refreshed(snapshot(FollowerFetchState.RACK_MISMATCH));
		this.log.refreshed(snapshot(FollowerFetchState.RACK_MISMATCH));
		this.log.refreshed(snapshot(FollowerFetchState.RACK_MISMATCH));
		assertThat(lines(output, "follower-fetch state")).singleElement()
			.asString()
			.contains("WARN")
			.contains("follower-fetch state RACK_MISMATCH (was ACTIVE): Kafka client.rack az-x (from env:KAFKA_CLIENT_RACK)")
			.contains("broker racks [az-a, az-b, az-c]")
			.contains("Fix: " + StateLog.fix(FollowerFetchState.RACK_MISMATCH));
	}

	@Test
	void leavingADegradedStateLogsOneInfoAfterTwoCleanRefreshesInARow(CapturedOutput output) {
		this.log.refreshed(snapshot(FollowerFetchState.SELECTOR_DISABLED));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE));
		assertThat(lines(output, "no longer")).isEmpty();
		this.log.refreshed(snapshot(FollowerFetchState.PARTIAL));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE));
		assertThat(lines(output, "no longer")).singleElement()
			.asString()
			.contains("INFO")
			.contains("follower-fetch state PARTIAL, no longer SELECTOR_DISABLED (degraded for 20 s");
	}

	@Test
	void aStateThatFlapsBetweenLaggingAndActiveIsLoggedOnce(CapturedOutput output) {
		for (int i = 0; i < 5; i++) {
			this.log.refreshed(snapshot(FollowerFetchState.LAGGING));
			this.log.refreshed(snapshot(FollowerFetchState.ACTIVE));
		}
		assertThat(lines(output, "follower-fetch state")).singleElement()
			.asString()
			.contains("follower-fetch state LAGGING (was STARTING)")
			.contains("listener payments [t-0, t-2]");
	}

	@Test
	void movingFromOneDegradedStateToAnotherLogsTheNewOne(CapturedOutput output) {
		this.log.refreshed(snapshot(FollowerFetchState.LAGGING));
		this.log.refreshed(snapshot(FollowerFetchState.FALLBACK));
		assertThat(lines(output, "follower-fetch state")).hasSize(2)
			.last()
			.asString()
			.contains("follower-fetch state FALLBACK (was LAGGING)")
			.contains("longer than follower-fetch.observation.fallback-grace: listener payments [t-0, t-2]");
	}

	@Test
	void enteringUnreachableNamesThePartitionsEachConsumerWaitsFor(CapturedOutput output) {
		ConsumerReads reads = new ConsumerReads(ConsumerKind.LISTENER, "analytics", Policy.LOCALITY, 3, 3, 0,
				1, List.of(), 0, List.of(), List.of(), List.of(), List.of("t-0", "t-2"), 0, 0, null, Map.of());
		this.log.refreshed(new FollowerFetchSnapshot(FollowerFetchState.UNREACHABLE, "az-b", "property", Set.of("az-b"),
				"unknown", Map.of(ConsumerKind.LISTENER, Map.of("analytics", reads)), List.of(), Instant.now()));
		assertThat(lines(output, "follower-fetch state")).singleElement()
			.asString()
			.contains("follower-fetch state UNREACHABLE (was STARTING): consumers are sent to replicas in az-b (the "
					+ "in-sync follower the leader names, or the leader) that this application has not reached")
			.contains("no new records arrive from: listener analytics [t-0, t-2]. Fix: "
					+ StateLog.fix(FollowerFetchState.UNREACHABLE));
	}

	@Test
	void aFailingRefreshIsLoggedOnceWithoutAStackTraceUntilItFailsDifferentlyOrWorksAgain(CapturedOutput output) {
		FollowerFetchSnapshot kept = snapshot(FollowerFetchState.ACTIVE);
		this.log.refreshFailed(new IllegalStateException("no single KafkaAdmin bean"), kept);
		this.log.refreshFailed(new IllegalStateException("no single KafkaAdmin bean"), kept);
		this.log.refreshFailed(new IllegalArgumentException("bad"), kept);
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE));
		assertThat(lines(output, "could not refresh")).hasSize(2)
			.first()
			.asString()
			.contains("WARN")
			.contains("(IllegalStateException: no single KafkaAdmin bean): the health contributor and the meters "
					+ "show the snapshot taken at " + kept.takenAt());
		assertThat(output).doesNotContain("\tat ");
		assertThat(lines(output, "again")).singleElement()
			.asString()
			.contains("follower-fetch refreshes its read-locality snapshot again, after 3 failed refreshes");
	}

	@Test
	void unreachableBrokersAreLoggedWhenTheyStopAndStartAnswering(CapturedOutput output) {
		List<Problem> down = List.of(Problem.brokersUnreachable(null, "TimeoutException: timed out"));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE, down));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE, down));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE, List.of()));
		assertThat(lines(output, "brokers")).containsExactly(
				lines(output, "could not read the brokers (TimeoutException: timed out)").get(0),
				lines(output, "follower-fetch reads the brokers again").get(0));
	}

	@Test
	void aBrokerThatStopsAnsweringInAClusterThatAnswersIsLoggedByItsIdRackAndCluster(CapturedOutput output) {
		Problem timedOut = Problem.brokerUnreachable("orders", 2, "az-c", "TimeoutException: timed out");
		Problem refused = Problem.brokerUnreachable("orders", 2, "az-c", "connection refused");
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE, List.of(timedOut)));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE, List.of(timedOut)));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE, List.of(refused)));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE, List.of()));
		assertThat(lines(output, "broker 2")).containsExactly(
				lines(output, "could not read the broker 2 (rack az-c) of orders (TimeoutException: timed out): the "
						+ "cluster answers, but this broker's replica selector is unknown").get(0),
				lines(output, "could not read the broker 2 (rack az-c) of orders (connection refused)").get(0),
				lines(output, "follower-fetch reads the broker 2 (rack az-c) of orders again").get(0));
	}

	@Test
	void aStaleSnapshotIsLoggedOnceByTheReadThatFindsItAndLeftAfterTwoRefreshesThatWork(CapturedOutput output) {
		FollowerFetchSnapshot active = snapshot(FollowerFetchState.ACTIVE);
		this.log.refreshed(active);
		this.log.refreshFailed(new NoClassDefFoundError("org/example/Gone"), active);
		FollowerFetchSnapshot stale = active
			.stale(new FollowerFetchSnapshot.Stale(FollowerFetchState.ACTIVE, "NoClassDefFoundError: org/example/Gone", null));
		this.log.stale(stale);
		this.log.stale(stale);
		assertThat(lines(output, "follower-fetch state")).singleElement()
			.asString()
			.contains("WARN")
			.contains("follower-fetch state STALE (was ACTIVE): no refresh has replaced the read-locality snapshot taken "
					+ "at 2026-01-01T00:00:00Z (state ACTIVE) for two refresh intervals and the timeout: the last refresh "
					+ "failed (NoClassDefFoundError: org/example/Gone). Fix: " + StateLog.fix(FollowerFetchState.STALE));
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE));
		assertThat(lines(output, "no longer")).isEmpty();
		this.log.refreshed(snapshot(FollowerFetchState.ACTIVE));
		assertThat(lines(output, "no longer")).singleElement()
			.asString()
			.contains("follower-fetch state ACTIVE, no longer STALE (degraded for 20 s, 2 refreshes in a row without it)");
	}

	@Test
	void aFailureIsLoggedInOneLineWithoutControlCharacters(CapturedOutput output) {
		this.log.refreshFailed(new IllegalStateException("bad\u001b[31m\r\nnews"), snapshot(FollowerFetchState.ACTIVE));
		assertThat(lines(output, "could not refresh")).singleElement()
			.asString()
			.contains("(IllegalStateException: bad[31m news)");
		assertThat(output.getOut()).doesNotContain("\u001b");
	}

	@Test
	void everyFixIsWordForWordInTheTroubleshootingGuide() throws IOException {
		String guide = Files.readString(Path.of("../docs/troubleshooting.md"));
		Arrays.stream(FollowerFetchState.values())
			.filter(FollowerFetchState::isDegraded)
			.forEach((state) -> assertThat(guide).as(state.name()).contains(StateLog.fix(state)));
	}

	private static List<String> lines(CapturedOutput output, String text) {
		return output.getOut().lines().filter((line) -> line.contains(text)).toList();
	}

	private FollowerFetchSnapshot snapshot(FollowerFetchState state) {
		return snapshot(state, List.of());
	}

	private FollowerFetchSnapshot snapshot(FollowerFetchState state, List<Problem> problems) {
		List<String> partitions = List.of("t-0", "t-2");
		ConsumerReads reads = new ConsumerReads(ConsumerKind.LISTENER, "payments", Policy.LOCALITY, 3, 1, 2,
				1, List.of(), 0, partitions, partitions, List.of(), List.of(), 0, 0, null, Map.of());
		return new FollowerFetchSnapshot(state, "az-x", "env:KAFKA_CLIENT_RACK", Set.of("az-a", "az-b", "az-c"),
				"default (LeaderSelector) on brokers [0]", Map.of(ConsumerKind.LISTENER, Map.of("payments", reads)),
				problems, Instant.parse("2026-01-01T00:00:00Z").plusSeconds(10L * this.refresh++));
	}

}
