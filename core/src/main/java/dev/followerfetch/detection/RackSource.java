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

/**
 * A place the zone of this process can be read from. Every {@code RackSource} bean in the
 * application context joins the detection chain; {@code follower-fetch.detection.order}
 * names them by {@link #name()} in priority order.
 * <p>
 * Implementations must be thread-safe and must return within the given timeout. Anything
 * thrown is reported as the reason the source gave no rack, and the next source is tried.
 *
 * @author follower-fetch authors
 */
public interface RackSource {

	/**
	 * Short, stable name of this source, used in {@code follower-fetch.detection.order} and
	 * as the prefix of the reported source, for example {@code aws} in
	 * {@code aws:availability-zone-id}.
	 * @return the name of this source
	 */
	String name();

	/**
	 * Whether this source may block, for example on a network call. Such sources are
	 * probed concurrently and abandoned when the {@code follower-fetch.detection.timeout}
	 * budget runs out; only a source that answers at once from memory should say
	 * {@code false} and be read in place.
	 * @return {@code false} for a source that never blocks
	 */
	default boolean isRemote() {
		return true;
	}

	/**
	 * Look up the rack.
	 * @param timeout the time left in the detection budget
	 * @return the candidates found, most preferred first, or the reason there are none
	 * @throws Exception on failure; the message becomes the reason reported for this
	 * source
	 */
	RackLookup lookup(Duration timeout) throws Exception;

}
