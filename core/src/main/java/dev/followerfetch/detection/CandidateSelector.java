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
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the rack among the candidates offered by the source that answered, for example
 * the AZ id or the AZ name.
 *
 * @author follower-fetch authors
 */
@FunctionalInterface
interface CandidateSelector {

	/**
	 * Takes the source's most preferred candidate.
	 */
	CandidateSelector FIRST = (source, candidates, timeLeft) -> new Selection(candidates.get(0),
			(candidates.size() > 1) ? "preferred form of " + source : null, null);

	/**
	 * Choose a candidate.
	 * @param source the name of the source
	 * @param candidates the valid candidates, most preferred first; never empty
	 * @param timeLeft what is left of {@code follower-fetch.detection.timeout}; the choice
	 * must not take longer
	 * @return the choice and why
	 */
	Selection select(String source, List<RackCandidate> candidates, Duration timeLeft);

	/**
	 * A chosen candidate and the reason for the choice.
	 *
	 * @param candidate the chosen candidate
	 * @param reason why it was chosen, or {@code null}
	 * @param brokerRacks the broker racks consulted, or {@code null} if none were
	 */
	record Selection(RackCandidate candidate, @Nullable String reason, @Nullable Set<String> brokerRacks) {

	}

}
