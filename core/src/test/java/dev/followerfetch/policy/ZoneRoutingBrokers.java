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
package dev.followerfetch.policy;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How each broker that routes by client id reads the zone out of a {@code client.id}, as
 * its documentation and sources describe it, written here independently of
 * {@link ClientIdZone} so that tests check the tags against the brokers' reading, not
 * against the rule that made them.
 * <ul>
 * <li>WarpStream: {@code a=b,c=d,rest_of_the_client_id}, comma-separated {@code key=value}
 * pairs, {@code warpstream_az} or its alias {@code ws_az}
 * (docs.warpstream.com, "Configuring Kafka Client ID Features").</li>
 * <li>Aiven Inkless: the pattern {@code (^|[ ,])diskless_az=([^=, ]*)}.</li>
 * <li>AutoMQ: a query string, {@code &}-separated {@code key=value} pairs,
 * {@code automq_az}.</li>
 * </ul>
 *
 * @author follower-fetch authors
 */
public final class ZoneRoutingBrokers {

	private static final Pattern INKLESS = Pattern.compile("(^|[ ,])diskless_az=([^=, ]*)");

	private ZoneRoutingBrokers() {
	}

	public static Optional<String> warpstream(String clientId) {
		return pairs(clientId, ",", "warpstream_az").or(() -> pairs(clientId, ",", "ws_az"));
	}

	public static Optional<String> inkless(String clientId) {
		Matcher matcher = INKLESS.matcher(clientId);
		return matcher.find() ? Optional.of(matcher.group(2)) : Optional.empty();
	}

	public static Optional<String> automq(String clientId) {
		return pairs(clientId, "&", "automq_az");
	}

	public static Optional<String> custom(String clientId, String key) {
		return pairs(clientId, ",", key);
	}

	private static Optional<String> pairs(String clientId, String separator, String key) {
		for (String field : clientId.split(Pattern.quote(separator))) {
			int equals = field.indexOf('=');
			if (equals > 0 && field.substring(0, equals).equals(key)) {
				return Optional.of(field.substring(equals + 1));
			}
		}
		return Optional.empty();
	}

}
