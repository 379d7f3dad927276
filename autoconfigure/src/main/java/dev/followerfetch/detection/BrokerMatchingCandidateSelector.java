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

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Chooses the candidate the brokers' racks use, so an AWS process picks the AZ id on an
 * MSK-style cluster and the AZ name on a cluster labelled by name. When nothing matches,
 * or the brokers cannot be read in time, the source's preferred form is kept and the
 * reason says why.
 *
 * @author follower-fetch authors
 */
final class BrokerMatchingCandidateSelector implements CandidateSelector {

	private static final Log logger = LogFactory.getLog(BrokerMatchingCandidateSelector.class);

	private final BrokerRackLookup brokers;

	private final Duration timeout;

	private final ZoneFormat awsZoneFormat;

	BrokerMatchingCandidateSelector(BrokerRackLookup brokers, Duration timeout, ZoneFormat awsZoneFormat) {
		this.brokers = brokers;
		this.timeout = timeout;
		this.awsZoneFormat = awsZoneFormat;
	}

	@Override
	public Selection select(String source, List<RackCandidate> candidates) {
		RackCandidate preferred = candidates.get(0);
		if ("aws".equals(source) && this.awsZoneFormat != ZoneFormat.AUTO) {
			return new Selection(preferred, "follower-fetch.detection.aws.zone-format="
					+ this.awsZoneFormat.name().toLowerCase(Locale.ROOT), null);
		}
		if (candidates.size() == 1) {
			return new Selection(preferred, null, null);
		}
		Set<String> racks;
		try {
			racks = new TreeSet<>(this.brokers.brokerRacks(this.timeout));
		}
		catch (Exception ex) {
			String reason = "broker racks unknown (" + describe(ex) + "), kept the preferred " + preferred.attribute();
			logger.warn("Could not read the brokers' racks to choose between " + RackCandidate.describe(candidates)
					+ ": " + describe(ex) + "; using " + preferred.describe());
			return new Selection(preferred, reason, null);
		}
		if (racks.isEmpty()) {
			String reason = "the brokers have no broker.rack, kept the preferred " + preferred.attribute();
			logger.warn("None of the brokers has a broker.rack, so no consumer can read from a follower in its zone");
			return new Selection(preferred, reason, racks);
		}
		for (RackCandidate candidate : candidates) {
			if (racks.contains(candidate.rack())) {
				return new Selection(candidate, candidate.attribute() + " matches the broker racks " + racks, racks);
			}
		}
		String reason = "no broker rack matches " + RackCandidate.describe(candidates) + " (broker racks: " + racks
				+ "), kept the preferred " + preferred.attribute();
		logger.warn("Rack mismatch: " + reason + ". Consumers will read across zones until client.rack matches a "
				+ "broker rack; set follower-fetch.rack or fix broker.rack.");
		return new Selection(preferred, reason, racks);
	}

	private String describe(Exception ex) {
		Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
		if (cause instanceof TimeoutException || cause instanceof org.apache.kafka.common.errors.TimeoutException) {
			return "no answer within " + this.timeout.toMillis() + " ms";
		}
		return FailureMessages.of(cause).replaceAll("\\s+", " ");
	}

}
