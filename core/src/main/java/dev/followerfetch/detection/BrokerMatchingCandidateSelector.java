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
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import dev.followerfetch.ZoneFormat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the candidate the brokers' racks use, so an AWS process picks the AZ id on an
 * MSK-style cluster and the AZ name on a cluster labelled by name. When nothing matches,
 * or the brokers cannot be read in time, the source's preferred form is kept and the
 * reason says why. A single candidate is checked against the brokers' racks too, so that
 * a wrong rack is reported at start-up. The brokers get what is left of the detection
 * budget, at most {@code detection.broker-timeout}.
 *
 * @author follower-fetch authors
 */
final class BrokerMatchingCandidateSelector implements CandidateSelector {

	private static final Logger logger = LoggerFactory.getLogger(BrokerMatchingCandidateSelector.class);

	private final BrokerRackLookup brokers;

	private final DetectionSettings settings;

	BrokerMatchingCandidateSelector(BrokerRackLookup brokers, DetectionSettings settings) {
		this.brokers = brokers;
		this.settings = settings;
	}

	@Override
	public Selection select(String source, List<RackCandidate> candidates, Duration timeLeft) {
		RackCandidate preferred = candidates.get(0);
		ZoneFormat awsZoneFormat = this.settings.awsZoneFormat();
		boolean fixedForm = "aws".equals(source) && awsZoneFormat != ZoneFormat.AUTO;
		String fixedReason = (fixedForm) ? this.settings.name("detection.aws.zone-format") + "="
				+ awsZoneFormat.name().toLowerCase(Locale.ROOT) : null;
		List<RackCandidate> choices = (fixedForm) ? List.of(preferred) : candidates;
		Duration brokerTimeout = this.settings.brokerTimeout();
		Duration timeout = (timeLeft.compareTo(brokerTimeout) < 0) ? timeLeft : brokerTimeout;
		Set<String> racks;
		try {
			if (timeout.isZero()) {
				throw new TimeoutException(
						this.settings.name("detection.timeout") + " was used up before the brokers were asked");
			}
			racks = new TreeSet<>(this.brokers.brokerRacks(timeout));
		}
		catch (Exception ex) {
			if (choices.size() == 1) {
				return new Selection(preferred, join(fixedReason, "broker racks not read (" + describe(ex, timeout) + ")"),
						null);
			}
			String reason = "broker racks unknown (" + describe(ex, timeout) + "), kept the preferred "
					+ preferred.attribute();
			logger.warn("Could not read the brokers' racks to choose between " + RackCandidate.describe(candidates)
					+ ": " + describe(ex, timeout) + "; using " + preferred.describe());
			return new Selection(preferred, reason, null);
		}
		if (racks.isEmpty()) {
			return new Selection(preferred, join(fixedReason, "the brokers have no broker.rack"), racks);
		}
		for (RackCandidate candidate : choices) {
			if (racks.contains(candidate.rack())) {
				return new Selection(candidate,
						join(fixedReason, ((choices.size() > 1) ? candidate.attribute() + " " : "")
								+ "matches the broker racks " + racks),
						racks);
			}
		}
		String reason = (choices.size() > 1) ? "no broker rack matches " + RackCandidate.describe(candidates)
				+ ", kept the preferred " + preferred.attribute() : null;
		return new Selection(preferred, join(fixedReason, reason), racks);
	}

	private static @Nullable String join(@Nullable String first, @Nullable String second) {
		return (first == null) ? second : (second == null) ? first : first + ", " + second;
	}

	private static String describe(Exception ex, Duration timeout) {
		Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
		if ((cause instanceof TimeoutException || cause instanceof org.apache.kafka.common.errors.TimeoutException)
				&& !timeout.isZero()) {
			return "no answer within " + timeout.toMillis() + " ms";
		}
		return FailureMessages.of(cause).replaceAll("\\s+", " ");
	}

}
