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

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.followerfetch.InvalidSettingException;
import org.jspecify.annotations.Nullable;

/**
 * The zone tag in {@code client.id} that brokers routing by client id read
 * ({@code follower-fetch.client-id-zone}): WarpStream ({@code warpstream_az=<zone>}, pairs
 * separated by commas), Aiven Inkless ({@code diskless_az=<zone>}, idem), AutoMQ
 * ({@code automq_az=<zone>}, pairs separated by {@code &}), or a key of the user's with
 * commas. The tag goes first and ends with its separator, so that the suffixes Spring
 * Kafka appends ({@code -0}, {@code -1} for each consumer of a container, a counter for
 * each producer) stay outside the zone the broker reads.
 *
 * @author follower-fetch authors
 */
public final class ClientIdZone {

	/** No tag: client ids are left as they are. */
	public static final ClientIdZone NONE = new ClientIdZone("none", List.of(), ',');

	static final String PROPERTY = "follower-fetch.client-id-zone";

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]+");

	private final String name;

	private final List<String> keys;

	private final char separator;

	private ClientIdZone(String name, List<String> keys, char separator) {
		this.name = name;
		this.keys = keys;
		this.separator = separator;
	}

	/**
	 * The tag a {@code follower-fetch.client-id-zone} value names.
	 * @param value {@code none}, {@code warpstream}, {@code inkless}, {@code automq}, or
	 * the key of a tag {@code <key>=<zone>,}
	 * @return the tag
	 * @throws InvalidSettingException for a key with other characters
	 * than letters, digits, {@code _}, {@code .} and {@code -}
	 */
	public static ClientIdZone of(String value) {
		String trimmed = value.trim();
		return switch (trimmed.toLowerCase(Locale.ROOT)) {
			case "none", "" -> NONE;
			case "warpstream" -> new ClientIdZone("warpstream", List.of("warpstream_az", "ws_az"), ',');
			case "inkless" -> new ClientIdZone("inkless", List.of("diskless_az"), ',');
			case "automq" -> new ClientIdZone("automq", List.of("automq_az"), '&');
			default -> {
				if (!KEY.matcher(trimmed).matches()) {
					throw new InvalidSettingException(PROPERTY, value,
							"Must be none, warpstream, inkless, automq, or the key of a tag <key>=<zone>, made of "
									+ "letters, digits, '_', '.' and '-'.");
				}
				yield new ClientIdZone(trimmed, List.of(trimmed), ',');
			}
		};
	}

	/**
	 * Whether client ids get a tag.
	 * @return {@code false} for {@link #NONE}
	 */
	public boolean enabled() {
		return !this.keys.isEmpty();
	}

	/**
	 * The key the tag starts with.
	 * @return for example {@code warpstream_az}, or empty for {@link #NONE}
	 */
	public Optional<String> key() {
		return this.keys.stream().findFirst();
	}

	/**
	 * Whether a zone can be put in the tag as it is: a brokers' parser stops at the
	 * separators, {@code =} and blanks, and a query string's decodes {@code %} and
	 * {@code +}.
	 * @param zone the zone
	 * @return whether the zone has none of them
	 */
	public boolean fits(String zone) {
		return !zone.isEmpty() && zone.chars()
			.noneMatch((c) -> ",&=;%+".indexOf(c) >= 0 || Character.isWhitespace(c));
	}

	/**
	 * The {@code client.id} a client sends with the tag.
	 * @param own the client's own {@code client.id}, or {@code null}: kept after the tag,
	 * unless it already carries one of the keys
	 * @param base what follows the tag when the client has no {@code client.id} of its
	 * own, or {@code null} to leave such a client alone
	 * @param zone the zone, or {@code null} when none is known
	 * @return the {@code client.id} to set, or empty to leave the client's as it is
	 */
	public Optional<String> clientId(@Nullable Object own, @Nullable String base, @Nullable String zone) {
		if (!enabled() || zone == null || !fits(zone)) {
			return Optional.empty();
		}
		String ownId = (own != null && !own.toString().isBlank()) ? own.toString() : null;
		if (ownId == null && (base == null || base.isBlank())) {
			return Optional.empty();
		}
		if (tagged(ownId)) {
			return Optional.empty();
		}
		return Optional.of(this.keys.get(0) + "=" + zone + this.separator + ((ownId != null) ? ownId : base));
	}

	/**
	 * A client id without the tag this rule puts first, as the application named the
	 * client.
	 * @param clientId a client id
	 * @return the client id after the tag, or the client id itself when it does not start
	 * with one
	 */
	public String untagged(String clientId) {
		for (String key : this.keys) {
			int separator = clientId.indexOf(this.separator);
			if (clientId.startsWith(key + "=") && separator > 0) {
				return clientId.substring(separator + 1);
			}
		}
		return clientId;
	}

	/**
	 * Whether a {@code client.id} already carries one of the keys, as the broker parses it.
	 * @param clientId the client id
	 * @return whether it carries a tag
	 */
	public boolean tagged(@Nullable String clientId) {
		if (clientId == null || !enabled()) {
			return false;
		}
		String[] fields = clientId.split((this.separator == '&') ? "&" : "[ ,]");
		for (String field : fields) {
			for (String key : this.keys) {
				if (field.startsWith(key + "=")) {
					return true;
				}
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return this.name;
	}

}
