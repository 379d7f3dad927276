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
import java.util.stream.Collectors;


/**
 * A rack value offered by a source, with the attribute it was read from. The value is
 * taken as read, possibly empty or invalid: the detector validates it and reports what is
 * wrong with it, naming the source and attribute.
 *
 * @param rack the rack value, for example {@code use1-az2}
 * @param attribute what the value is, for example {@code availability-zone-id}
 * @author follower-fetch authors
 */
public record RackCandidate(String rack, String attribute) {

	public RackCandidate {
		if (attribute.isBlank()) {
			throw new IllegalArgumentException("'attribute' must not be empty");
		}
	}

	/**
	 * Describe this candidate for a message or a log line.
	 * @return the rack followed by its attribute in brackets, for example
	 * {@code use1-az2 (availability-zone-id)}
	 */
	String describe() {
		return this.rack + " (" + this.attribute + ")";
	}

	/**
	 * Describe candidates for a message or a log line.
	 * @param candidates the candidates
	 * @return each {@link #describe() described}, in order, separated by commas
	 */
	static String describe(List<RackCandidate> candidates) {
		return candidates.stream().map(RackCandidate::describe).collect(Collectors.joining(", "));
	}

}
