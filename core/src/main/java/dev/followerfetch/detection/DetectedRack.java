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

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;


/**
 * The rack this application runs in, where it came from, and what every source said. One
 * instance per application context, available as a bean.
 *
 * @author follower-fetch authors
 */
public final class DetectedRack {

	private final @Nullable String rack;

	private final @Nullable String source;

	private final @Nullable String reason;

	private final @Nullable Set<String> brokerRacks;

	private final List<Attempt> attempts;

	private final Duration elapsed;

	DetectedRack(@Nullable String rack, @Nullable String source, @Nullable String reason,
			@Nullable Set<String> brokerRacks, List<Attempt> attempts,
			Duration elapsed) {
		if ((rack == null) != (source == null)) {
			throw new IllegalArgumentException("'rack' and 'source' go together");
		}
		this.rack = rack;
		this.source = source;
		this.reason = reason;
		this.brokerRacks = (brokerRacks != null) ? Collections.unmodifiableSet(new TreeSet<>(brokerRacks)) : null;
		this.attempts = List.copyOf(attempts);
		this.elapsed = elapsed;
	}

	/**
	 * A rack known without detection, for example in a test.
	 * @param rack the rack, or {@code null} for none
	 * @param source where it came from, or {@code null} for none
	 * @return the detected rack
	 */
	public static DetectedRack of(String rack, String source) {
		return new DetectedRack(rack, (rack != null) ? source : null, null, null, List.of(), Duration.ZERO);
	}

	/**
	 * The rack to use as {@code client.rack}.
	 * @return the rack, or empty when none was found
	 */
	public Optional<String> rack() {
		return Optional.ofNullable(this.rack);
	}

	/**
	 * Where the rack came from, for example {@code aws:availability-zone-id} or
	 * {@code property:follower-fetch.rack}.
	 * @return the source, or empty when no rack was found
	 */
	public Optional<String> source() {
		return Optional.ofNullable(this.source);
	}

	/**
	 * Why this rack was chosen among the candidates of its source, for example which AZ
	 * form matched the brokers.
	 * @return the reason for the choice, empty when there was none to make
	 */
	public Optional<String> reason() {
		return Optional.ofNullable(this.reason);
	}

	/**
	 * The racks of the brokers, when they were read to choose among candidates (AWS
	 * {@code zone-format=auto}, Azure).
	 * @return the distinct broker racks, or empty when the brokers were not consulted or
	 * could not be reached
	 */
	public Optional<Set<String>> brokerRacks() {
		return Optional.ofNullable(this.brokerRacks);
	}

	/**
	 * Every source consulted, in priority order, with what it answered.
	 * @return the attempts
	 */
	public List<Attempt> attempts() {
		return this.attempts;
	}

	/**
	 * The candidates offered by the source the rack came from.
	 * @return the candidates, most preferred first; empty when no rack was found
	 */
	public List<RackCandidate> candidates() {
		return this.attempts.stream()
			.filter((attempt) -> attempt.outcome() == Outcome.FOUND)
			.findFirst()
			.map(Attempt::candidates)
			.orElse(List.of());
	}

	/**
	 * Wall-clock time detection took.
	 * @return the elapsed time
	 */
	public Duration elapsed() {
		return this.elapsed;
	}

	/**
	 * A one-line account of every source's answer, suitable for logs and error messages.
	 * @return the description
	 */
	public String describeAttempts() {
		if (this.attempts.isEmpty()) {
			return "none (follower-fetch.detection.order is empty and there is no RackSource of the application's own)";
		}
		return this.attempts.stream().map(Attempt::toString).collect(Collectors.joining("; "));
	}

	@Override
	public String toString() {
		if (this.rack == null) {
			return "no rack (" + describeAttempts() + ")";
		}
		return this.rack + " (from " + this.source + ")";
	}

	/**
	 * How a source answered.
	 */
	public enum Outcome {

		/**
		 * The source offered at least one valid rack.
		 */
		FOUND,

		/**
		 * The source has nothing to offer here, for example an unset variable.
		 */
		NOT_FOUND,

		/**
		 * The source answered with a value that is not a valid rack.
		 */
		INVALID,

		/**
		 * The source failed, for example an HTTP error or a refused connection.
		 */
		FAILED,

		/**
		 * The source did not answer within the detection budget.
		 */
		TIMED_OUT,

		/**
		 * The source was not consulted because a source of higher priority answered.
		 */
		SKIPPED

	}

	/**
	 * What one source answered.
	 *
	 * @param source the source name
	 * @param outcome how it answered
	 * @param detail the reason, for anything but {@link Outcome#FOUND}; for a source that
	 * was found, what was wrong with the candidates it also offered, or {@code null}
	 * @param candidates the valid candidates it offered
	 */
	public record Attempt(String source, Outcome outcome, @Nullable String detail, List<RackCandidate> candidates) {

		public Attempt {
			candidates = List.copyOf(candidates);
		}

		@Override
		public String toString() {
			String answer = (this.outcome == Outcome.FOUND) ? RackCandidate.describe(this.candidates)
					: this.outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ');
			return this.source + ": " + answer + ((this.detail != null) ? ", " + this.detail : "");
		}

	}

}
