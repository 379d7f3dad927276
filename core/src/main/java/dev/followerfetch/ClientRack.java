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
package dev.followerfetch;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A zone a Kafka client names in {@code client.rack}, and the one rule of what names one,
 * Kafka's own: a string setting is trimmed when the client parses its configuration, so
 * an unset, empty or blank {@code client.rack} all reach the brokers as no rack (the
 * client reads from the leaders), and {@code " az-a "} as {@code az-a}.
 *
 * @param value the zone, trimmed, as the brokers' {@code broker.rack} spells it
 * @author follower-fetch authors
 */
public record ClientRack(String value) {

	/**
	 * The most characters a detected rack, or a zone another member of a group sends, may
	 * have.
	 */
	public static final int MAX_LENGTH = 128;

	/**
	 * What a detected rack, or a zone another member of a group sends, must be.
	 */
	public static final String RULE = "1 to " + MAX_LENGTH + " characters: letters, digits and - _ . : / +";

	public ClientRack {
		if (value == null || value.isEmpty() || !value.equals(value.trim())) {
			throw new IllegalArgumentException("A client.rack names a zone, trimmed; '" + value + "' does not");
		}
	}

	/**
	 * The rack a {@code client.rack} setting names.
	 * @param setting the setting's value, or {@code null} when it is not set
	 * @return the rack, empty when the setting is unset, empty or blank
	 */
	public static Optional<ClientRack> of(@Nullable Object setting) {
		String zone = (setting != null) ? setting.toString().trim() : "";
		return zone.isEmpty() ? Optional.empty() : Optional.of(new ClientRack(zone));
	}

	/**
	 * The zone a {@code client.rack} setting names, as text.
	 * @param setting the setting's value, or {@code null} when it is not set
	 * @return the zone, or {@code null} when the setting names none
	 */
	public static @Nullable String zoneOf(@Nullable Object setting) {
		return of(setting).map(ClientRack::value).orElse(null);
	}

	/**
	 * Whether a {@code client.rack} setting names a zone.
	 * @param setting the setting's value, or {@code null} when it is not set
	 * @return {@code true} for a value that is not blank
	 */
	public static boolean names(@Nullable Object setting) {
		return of(setting).isPresent();
	}

	@Override
	public String toString() {
		return this.value;
	}

	/**
	 * Whether a value is a rack as detection accepts one: trimmed, and {@value #RULE}.
	 * @param value the value, may be {@code null}
	 * @return {@code true} for a well-formed rack
	 */
	public static boolean isWellFormed(@Nullable String value) {
		if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			if (!isAllowed(value.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Whether a character may appear in a rack.
	 * @param c the character
	 * @return {@code true} for letters and digits of ASCII and {@code - _ . : / +}
	 */
	public static boolean isAllowed(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
				|| c == '.' || c == ':' || c == '/' || c == '+';
	}

}
