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
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.followerfetch.detection.DetectedRack.Attempt;
import dev.followerfetch.detection.DetectionStartups.ThreadSnapshot;
import dev.followerfetch.detection.HostileBehaviour.HostileEndpoint;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static dev.followerfetch.detection.MetadataHttpClientTests.elapsedSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every network source against every hostile behaviour a loopback endpoint can show,
 * started the way an application starts: the context comes up with the next source's
 * rack, the source's reason is logged once, on one line, naming the URL or the source and
 * what went wrong, no thread that detection started outlives the start-up, and a huge
 * answer leaves no trace on the heap. Times are not asserted here beyond bounds that catch
 * a hang; {@code HostileMetadataBenchmark} measures them.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class HostileMetadataStartupTests {

	private static final Duration TIMEOUT = Duration.ofMillis(400);

	/**
	 * Endpoints that answer at once, however badly, get a budget no loaded machine uses
	 * up, so that their reason is always theirs and never a timeout.
	 */
	private static final Duration ANSWERING_TIMEOUT = Duration.ofSeconds(5);

	private static final int START_UPS = 3;

	private static final Duration HANG_GUARD = Duration.ofSeconds(10);

	private static final long HEAP_GROWTH_BOUND = 16L * 1024 * 1024;

	private static final long STREAMED_BOUND = 64L * 1024 * 1024;

	static Stream<Arguments> sourcesAndBehaviours() {
		return Arrays.stream(NetworkSource.values())
			.flatMap((source) -> Arrays.stream(HostileBehaviour.values())
				.filter((behaviour) -> behaviour.appliesTo(source))
				.map((behaviour) -> Arguments.of(source, behaviour)));
	}

	@ParameterizedTest(name = "{0} endpoint that {1}")
	@MethodSource("sourcesAndBehaviours")
	void everyHostileEndpointLeavesTheApplicationStartingOnTheNextSource(NetworkSource source,
			HostileBehaviour behaviour, CapturedOutput output) throws Exception {
		try (HostileEndpoint endpoint = behaviour.start()) {
			boolean holds = behaviour == HostileBehaviour.HANGS_AFTER_ACCEPTING
					|| behaviour == HostileBehaviour.TRICKLES_ONE_BYTE_A_SECOND;
			ApplicationContextRunner runner = DetectionStartups.runner(source, endpoint.uri(),
					holds ? TIMEOUT : ANSWERING_TIMEOUT);
			Pattern expected = expectedReason(source, behaviour, endpoint.uri());
			for (int startUp = 1; startUp <= START_UPS; startUp++) {
				ThreadSnapshot threads = ThreadSnapshot.take();
				long heapBefore = (behaviour == HostileBehaviour.STREAMS_GIGABYTES) ? DetectionStartups.heapUsedAfterGc()
						: 0;
				int logStart = output.length();
				AtomicReference<String> reason = new AtomicReference<>();
				long start = System.nanoTime();
				runner.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(elapsedSince(start)).as("start-up time").isLessThan(HANG_GUARD);
					DetectedRack detected = context.getBean(DetectedRack.class);
					assertThat(detected.rack()).hasValue(DetectionStartups.NEXT_RACK);
					Attempt attempt = detected.attempts().get(0);
					assertThat(attempt.source()).isEqualTo(source.sourceName());
					reason.set(attempt.toString());
					if (behaviour == HostileBehaviour.STREAMS_GIGABYTES) {
						assertThat(DetectionStartups.heapUsedAfterGc() - heapBefore).as("heap growth after GC")
							.isLessThan(HEAP_GROWTH_BOUND);
					}
				});
				String log = output.toString().substring(logStart);
				assertThat(reason.get()).matches(expected).doesNotContainPattern("\\p{Cntrl}");
				assertThat(occurrences(log, reason.get())).as("start-up %d logs %s", startUp, reason.get()).isOne();
				assertThat(occurrences(log, source.sourceName() + ": ")).as("start-up %d names %s", startUp, source)
					.isOne();
				await().pollInSameThread()
					.atMost(HANG_GUARD)
					.untilAsserted(() -> assertThat(threads.startedSince()).as("threads started by the start-up")
						.isEmpty());
			}
			assertThat(endpoint.requestsElsewhere()).as("requests that followed a redirect").isEmpty();
			for (String token : endpoint.issuedTokens()) {
				assertThat(output).doesNotContain(token);
			}
			if (behaviour == HostileBehaviour.STREAMS_GIGABYTES) {
				await().pollInSameThread().atMost(HANG_GUARD).until(() -> endpoint.openStreams() == 0);
				assertThat(endpoint.bytesStreamed()).as("bytes the stub could write before the client hung up")
					.isPositive()
					.isLessThan(STREAMED_BOUND);
			}
		}
	}

	private static Pattern expectedReason(NetworkSource source, HostileBehaviour behaviour, URI endpoint) {
		String name = source.sourceName();
		String url = Pattern.quote(endpoint.toString()) + "/\\S+";
		String failed = name + ": failed, (IMDSv2 token: )?" + url + " ";
		return Pattern.compile(switch (behaviour) {
			case HANGS_AFTER_ACCEPTING, TRICKLES_ONE_BYTE_A_SECOND -> name + ": timed out, no answer within "
					+ TIMEOUT.toMillis() + " ms|" + failed + "did not answer within \\d+ ms.*";
			case STREAMS_GIGABYTES -> failed + "sent a body larger than 65536 bytes.*";
			case ANSWERS_BINARY -> failed + "sent a body that is not UTF-8 text.*";
			case ANSWERS_CONTROL_CHARACTERS, ANSWERS_200_WITH_HTML -> notARack(source, url);
			case REDIRECTS_TO_ANOTHER_HOST -> failed + "answered HTTP 302 redirect to \"http://127\\.0\\.0\\.1:\\d+/.*"
					+ "\\(not followed\\).*";
			case CLOSES_MID_RESPONSE -> failed + "closed the connection after 33 of 64 body bytes.*";
			case IMDS_TOKEN_EXPIRES -> name + ": failed, " + Pattern.quote(endpoint.toString())
					+ "/latest/meta-data/placement/availability-zone-id answered HTTP 401";
		});
	}

	private static String notARack(NetworkSource source, String url) {
		return switch (source) {
			case AWS -> "aws: invalid, invalid rack from aws:availability-zone-id: value \".*";
			case ECS -> "ecs: failed, " + url + " answered a body that is not a JSON object: .*";
			case GCP -> "gcp: failed, " + url + " answered \".*, not projects/<number>/zones/<zone>";
			case AZURE -> "azure: invalid, invalid rack from azure:location-zone: value \".*";
		};
	}

	private static int occurrences(String text, String part) {
		int count = 0;
		for (int index = text.indexOf(part); index >= 0; index = text.indexOf(part, index + part.length())) {
			count++;
		}
		return count;
	}

}
