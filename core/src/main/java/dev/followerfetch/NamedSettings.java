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

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Follower-fetch settings by name, as the user writes them after the prefix
 * ({@code detection.order}, {@code policy.replica-lease}): the one form the core builds
 * its settings from ({@code DetectionSettings.of}, {@code PolicySettings.of},
 * {@code ClientSettings.of}, the monitor's builder), so that each setting's name and
 * default are written once, where it is read. Values come in two kinds: those Spring Boot
 * bound ({@link #bound}), taken as they are, every name present; and a config provider's
 * text parameters ({@link #parameters}), parsed, a missing one keeping its default and one
 * nobody reads being unknown ({@link #failOnUnknown()}).
 *
 * @author follower-fetch authors
 */
public final class NamedSettings {

	/**
	 * The prefix of the Spring Boot properties.
	 */
	public static final String SPRING_BOOT_PREFIX = "follower-fetch.";

	private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d{1,12})(ms|s|m)?");

	private final String prefix;

	private final Map<String, ?> values;

	private final boolean text;

	private final Set<String> read = new HashSet<>();

	private NamedSettings(String prefix, Map<String, ?> values, boolean text) {
		this.prefix = prefix;
		this.values = values;
		this.text = text;
	}

	/**
	 * Values Spring Boot bound and converted, each taken as it is.
	 * @param prefix what the user writes before a name, {@code follower-fetch.}
	 * @param values the values by name, {@code null} for a property without one; every
	 * name read must be present
	 * @return the settings
	 */
	public static NamedSettings bound(String prefix, Map<String, ?> values) {
		return new NamedSettings(prefix, values, false);
	}

	/**
	 * Text parameters: durations written {@code 500ms}, {@code 1s}, {@code 2m} or ISO-8601
	 * ({@code PT1S}), lists comma-separated, a missing one keeping its default.
	 * @param prefix what the user writes before a name
	 * @param parameters the parameters by name
	 * @return the settings
	 */
	public static NamedSettings parameters(String prefix, Map<String, ?> parameters) {
		return new NamedSettings(prefix, parameters, true);
	}

	/**
	 * No value: every setting read has its default.
	 * @param prefix what the user writes before a name
	 * @return the settings
	 */
	public static NamedSettings defaults(String prefix) {
		return parameters(prefix, Map.of());
	}

	/**
	 * What the user writes before a name.
	 * @return the prefix, for example {@code follower-fetch.}
	 */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * Text, stripped; given as it is when bound.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 */
	public @Nullable String text(String key, @Nullable String fallback) {
		if (!this.text) {
			return given(key, String.class);
		}
		this.read.add(key);
		Object value = this.values.get(key);
		return (value != null) ? value.toString().strip() : fallback;
	}

	/**
	 * Text that an empty parameter leaves at its default.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 */
	public String word(String key, String fallback) {
		if (!this.text) {
			return given(key, String.class);
		}
		String value = text(key, fallback);
		return (value == null || value.isEmpty()) ? fallback : value;
	}

	/**
	 * A list, comma-separated in text, without empty entries.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 */
	public List<String> list(String key, List<String> fallback) {
		if (!this.text) {
			return given(key, List.class);
		}
		String value = text(key, null);
		if (value == null) {
			return fallback;
		}
		return Arrays.stream(value.split(",")).map(String::strip).filter((entry) -> !entry.isEmpty()).toList();
	}

	/**
	 * {@code true} or {@code false}, in any case.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 * @throws InvalidSettingException for other text
	 */
	public boolean bool(String key, boolean fallback) {
		if (!this.text) {
			return given(key, Boolean.class);
		}
		String value = text(key, null);
		if (value == null) {
			return fallback;
		}
		return switch (value.toLowerCase(Locale.ROOT)) {
			case "true" -> true;
			case "false" -> false;
			default -> throw invalid(key, value, "Must be true or false.");
		};
	}

	/**
	 * A whole number.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 * @throws InvalidSettingException for other text
	 */
	public int number(String key, int fallback) {
		if (!this.text) {
			return given(key, Integer.class);
		}
		String value = text(key, null);
		if (value == null) {
			return fallback;
		}
		try {
			return Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw invalid(key, value, "Must be a whole number.");
		}
	}

	/**
	 * A duration.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 * @throws InvalidSettingException for text that is not a duration
	 */
	public Duration duration(String key, Duration fallback) {
		if (!this.text) {
			return given(key, Duration.class);
		}
		String value = text(key, null);
		if (value == null) {
			return fallback;
		}
		Matcher simple = SIMPLE_DURATION.matcher(value.toLowerCase(Locale.ROOT));
		try {
			if (simple.matches()) {
				long amount = Long.parseLong(simple.group(1));
				return switch (Objects.requireNonNullElse(simple.group(2), "ms")) {
					case "s" -> Duration.ofSeconds(amount);
					case "m" -> Duration.ofMinutes(amount);
					default -> Duration.ofMillis(amount);
				};
			}
			return Duration.parse(value);
		}
		catch (RuntimeException ex) {
			throw invalid(key, value, "Must be a duration such as 500ms, 1s, 2m or PT1S.");
		}
	}

	/**
	 * A file path, which an empty parameter leaves at its default.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 * @throws InvalidSettingException for text that is not a path
	 */
	public @Nullable Path path(String key, @Nullable Path fallback) {
		if (!this.text) {
			return given(key, Path.class);
		}
		String value = text(key, null);
		if (value == null || value.isEmpty()) {
			return fallback;
		}
		try {
			return Path.of(value);
		}
		catch (InvalidPathException ex) {
			throw invalid(key, value, "Must be a file path: " + ex.getMessage() + ".");
		}
	}

	/**
	 * A file path that has a default.
	 * @param key the name
	 * @param fallback the default
	 * @return the value, or the default
	 * @throws InvalidSettingException for text that is not a path
	 */
	public Path pathOr(String key, Path fallback) {
		Path value = path(key, fallback);
		return (value != null) ? value : fallback;
	}

	/**
	 * An address, which an empty parameter leaves at its default.
	 * @param key the name
	 * @param fallback the default
	 * @param reason what a value must be, for text that is not a URI
	 * @return the value, or the default
	 * @throws InvalidSettingException for text that is not a URI
	 */
	public @Nullable URI uri(String key, @Nullable URI fallback, String reason) {
		if (!this.text) {
			return given(key, URI.class);
		}
		String value = text(key, null);
		if (value == null || value.isEmpty()) {
			return fallback;
		}
		try {
			return new URI(value);
		}
		catch (URISyntaxException ex) {
			throw invalid(key, value, reason);
		}
	}

	/**
	 * One of an enum's constants, named in any case.
	 * @param <E> the enum
	 * @param key the name
	 * @param type the enum's class
	 * @param fallback the default
	 * @param reason what a value must be, for text that names none
	 * @return the value, or the default
	 * @throws InvalidSettingException for text that names no constant
	 */
	public <E extends Enum<E>> E choice(String key, Class<E> type, E fallback, String reason) {
		if (!this.text) {
			return given(key, type);
		}
		String value = text(key, null);
		if (value == null) {
			return fallback;
		}
		try {
			return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw invalid(key, value, reason);
		}
	}

	/**
	 * Values by the name of what they apply to ({@code policy.listeners.<id>}), which only
	 * Spring Boot binds.
	 * @param <V> the values' type
	 * @param key the name of the group
	 * @param type the values' class
	 * @return the values by name, empty when none is given
	 * @throws InvalidSettingException for a text parameter of that name
	 */
	public <V> Map<String, V> map(String key, Class<V> type) {
		if (!this.text) {
			return given(key, Map.class);
		}
		String value = text(key, null);
		if (value != null) {
			throw invalid(key, value, "Must be given per name, as " + this.prefix + key + ".<name>.");
		}
		return Map.of();
	}

	/**
	 * Reject a setting nothing has read: a parameter the user misspelled, or a name an
	 * adapter binds that the core does not read.
	 * @throws InvalidSettingException naming the first, with the known ones
	 */
	public void failOnUnknown() {
		Set<String> unknown = new TreeSet<>(this.values.keySet());
		unknown.removeAll(this.read);
		if (!unknown.isEmpty()) {
			String key = unknown.iterator().next();
			throw invalid(key, this.values.get(key),
					"Unknown parameter. Known parameters: " + String.join(", ", new TreeSet<>(this.read)) + ".");
		}
	}

	/**
	 * A value Spring Boot bound, as it is: a name the adapter does not give is a mistake
	 * of the adapter's, not the user's.
	 */
	@SuppressWarnings("unchecked")
	private <T> T given(String key, Class<?> type) {
		this.read.add(key);
		if (!this.values.containsKey(key)) {
			throw new IllegalStateException("No bound value named " + this.prefix + key);
		}
		return (T) type.cast(this.values.get(key));
	}

	private InvalidSettingException invalid(String key, @Nullable Object value, String reason) {
		return new InvalidSettingException(this.prefix + key, value, reason);
	}

}
