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

import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads the {@code node-id} tag of a Kafka client's per-node metrics. Only {@code node-N}
 * with a plain non-negative number is a broker connection: bootstrap connections are
 * negative, and the group coordinator's is {@code Integer.MAX_VALUE - N} or, since Kafka
 * 4.4, written {@code node-+N}, which a plain integer parse would take for broker N.
 *
 * @author follower-fetch authors
 */
final class NodeIds {

	private static final Pattern BROKER = Pattern.compile("node-(\\d{1,9})");

	private NodeIds() {
	}

	/**
	 * The broker a {@code node-id} tag names.
	 * @param tag the tag's value, or {@code null}
	 * @return the broker id, or empty for any other connection
	 */
	static OptionalInt brokerId(@Nullable String tag) {
		if (tag == null || !BROKER.matcher(tag).matches()) {
			return OptionalInt.empty();
		}
		return OptionalInt.of(Integer.parseInt(tag.substring("node-".length())));
	}

}
