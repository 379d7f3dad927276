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

import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed because no rack was found.
 *
 * @author follower-fetch authors
 */
class RackNotDetectedFailureAnalyzer extends AbstractFailureAnalyzer<RackNotDetectedException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, RackNotDetectedException cause) {
		DetectedRack detected = cause.getDetectedRack();
		String description = "No Kafka client.rack was found, and follower-fetch.detection.required is true. "
				+ ((detected.attempts().isEmpty()) ? "Sources tried: " + detected.describeAttempts() + "."
						: "Sources tried, in order:\n" + detected.attempts()
							.stream()
							.map((attempt) -> "    - " + attempt)
							.collect(Collectors.joining("\n")));
		String action = "Set follower-fetch.rack (or the KAFKA_CLIENT_RACK environment variable) to this "
				+ "application's zone, fix the source that should have answered, or set "
				+ "follower-fetch.detection.required=false to start with consumers reading from partition leaders.";
		return new FailureAnalysis(description, action, cause);
	}

}
