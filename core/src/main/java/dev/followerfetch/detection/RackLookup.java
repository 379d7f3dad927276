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

import java.util.List;

import org.jspecify.annotations.Nullable;


/**
 * What a {@link RackSource} found: candidates in order of preference, or the reason it has
 * none.
 *
 * @param candidates the rack values offered, most preferred first; empty when nothing was
 * found
 * @param reason why nothing was found, or {@code null}
 * @author follower-fetch authors
 */
public record RackLookup(List<RackCandidate> candidates, @Nullable String reason) {

	public RackLookup {
		candidates = List.copyOf(candidates);
		if (candidates.isEmpty() && (reason == null || reason.isBlank())) {
			throw new IllegalArgumentException("'reason' is required when there is no candidate");
		}
	}

	/**
	 * A lookup that found one value.
	 * @param attribute what the value is
	 * @param rack the value
	 * @return the lookup
	 */
	public static RackLookup found(String attribute, String rack) {
		return new RackLookup(List.of(new RackCandidate(rack, attribute)), null);
	}

	/**
	 * A lookup that found several values.
	 * @param candidates the values, most preferred first
	 * @return the lookup
	 */
	public static RackLookup found(List<RackCandidate> candidates) {
		if (candidates.isEmpty()) {
			throw new IllegalArgumentException("'candidates' must not be empty");
		}
		return new RackLookup(candidates, null);
	}

	/**
	 * A lookup that found nothing.
	 * @param reason a one-line explanation naming the input at fault
	 * @return the lookup
	 */
	public static RackLookup notFound(String reason) {
		return new RackLookup(List.of(), reason);
	}

	/**
	 * Whether at least one candidate was found.
	 * @return {@code true} if there is a candidate
	 */
	public boolean isFound() {
		return !this.candidates.isEmpty();
	}

}
