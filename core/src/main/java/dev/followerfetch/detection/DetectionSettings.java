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
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.jspecify.annotations.Nullable;

/**
 * How the zone is detected: an explicit rack, the sources to ask and in which order, the
 * budget, and each source's own settings. Spring Boot binds them from
 * {@code follower-fetch.*}; the zone config provider from its parameters, under the same
 * names. Checked when created, so a value the detection cannot use is reported naming the
 * setting as the user wrote it ({@link #name(String)}).
 *
 * @param prefix what the user writes before a setting's name: {@code follower-fetch.}, or
 * {@code param.} for the zone config provider's parameters
 * @param rack {@code rack}: the zone, explicitly, or {@code null}
 * @param order {@code detection.order}: the built-in sources to ask, highest priority first
 * @param timeout {@code detection.timeout}: the budget for every network source together
 * @param brokerTimeout {@code detection.broker-timeout}: at most this long to read the
 * brokers' racks
 * @param required {@code detection.required}: whether finding no zone is an error
 * @param envVariables {@code detection.env.variables}
 * @param file {@code detection.file.*}
 * @param ecsEnabled {@code detection.ecs.enabled}
 * @param kubernetes {@code detection.kubernetes.*}
 * @param aws {@code detection.aws.*}
 * @param awsZoneFormat {@code detection.aws.zone-format}
 * @param gcp {@code detection.gcp.*}
 * @param azure {@code detection.azure.*}
 * @author follower-fetch authors
 */
public record DetectionSettings(String prefix, @Nullable String rack, List<String> order, Duration timeout,
		Duration brokerTimeout, boolean required, List<String> envVariables, File file, boolean ecsEnabled,
		Kubernetes kubernetes, Metadata aws, ZoneFormat awsZoneFormat, Metadata gcp, Metadata azure) {

	/**
	 * The built-in sources, in their default order.
	 */
	public static final List<String> SOURCES = List.of("env", "file", "ecs", "kubernetes", "aws", "gcp", "azure");

	/**
	 * The prefix of the Spring Boot properties.
	 */
	public static final String SPRING_BOOT_PREFIX = "follower-fetch.";

	private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d{1,12})(ms|s|m)?");

	/**
	 * Check every value.
	 * @throws InvalidSettingException naming the first setting with a value the
	 * detection cannot use
	 */
	public DetectionSettings {
		order = List.copyOf(order);
		envVariables = List.copyOf(envVariables);
		InvalidSettingException.requirePositive(prefix + "detection.timeout", timeout,
				"The budget for network sources must be a positive duration, for example 1s.");
		InvalidSettingException.requirePositive(prefix + "detection.broker-timeout", brokerTimeout,
				"The time allowed to read the brokers' racks must be a positive duration, for example 2s.");
		if (rack != null && !rack.isBlank()) {
			try {
				rack = RackValues.validate(rack);
			}
			catch (IllegalArgumentException ex) {
				String problem = Objects.requireNonNullElse(ex.getMessage(), "").replace(RackValues.RULE_NOTE, "");
				throw new InvalidSettingException(prefix + "rack", rack,
						"A rack is " + RackValues.RULE + ", but " + problem + ".");
			}
		}
		else {
			rack = null;
		}
		aws = aws.checked(prefix + "detection.aws.endpoint");
		gcp = gcp.checked(prefix + "detection.gcp.endpoint");
		azure = azure.checked(prefix + "detection.azure.endpoint");
	}

	/**
	 * The defaults, under a prefix.
	 * @param prefix what the user writes before a setting's name
	 * @return every source in the default order, a 1 s budget, at most 2 s for the brokers
	 */
	public static DetectionSettings defaults(String prefix) {
		return new DetectionSettings(prefix, null, SOURCES, Duration.ofSeconds(1), Duration.ofSeconds(2), false,
				List.of("KAFKA_CLIENT_RACK"), new File(null, "topology.kubernetes.io/zone"), true,
				new Kubernetes(true, "NODE_NAME", Path.of("/var/run/secrets/kubernetes.io/serviceaccount")),
				Metadata.DEFAULT, ZoneFormat.AUTO, Metadata.DEFAULT, Metadata.DEFAULT);
	}

	/**
	 * Settings from text parameters named as the Spring Boot properties are, without
	 * {@code follower-fetch.}: {@code rack}, {@code detection.order},
	 * {@code detection.aws.zone-format} and so on. Durations are written {@code 500ms},
	 * {@code 1s}, {@code 2m} or ISO-8601 ({@code PT1S}); lists are comma-separated.
	 * @param parameters the parameters; a missing one keeps its default
	 * @param prefix what the user writes before a parameter's name
	 * @return the settings
	 * @throws InvalidSettingException naming the first parameter that is unknown or has a
	 * value the detection cannot use
	 */
	public static DetectionSettings of(Map<String, ?> parameters, String prefix) {
		Parameters given = new Parameters(parameters, prefix);
		DetectionSettings d = defaults(prefix);
		DetectionSettings settings = new DetectionSettings(prefix, given.text("rack", d.rack()),
				given.list("detection.order", d.order()), given.duration("detection.timeout", d.timeout()),
				given.duration("detection.broker-timeout", d.brokerTimeout()),
				given.bool("detection.required", d.required()),
				given.list("detection.env.variables", d.envVariables()),
				new File(given.path("detection.file.path", d.file().path()),
						given.word("detection.file.key", d.file().key())),
				given.bool("detection.ecs.enabled", d.ecsEnabled()),
				new Kubernetes(given.bool("detection.kubernetes.enabled", d.kubernetes().enabled()),
						given.word("detection.kubernetes.node-name-variable", d.kubernetes().nodeNameVariable()),
						given.pathOr("detection.kubernetes.service-account", d.kubernetes().serviceAccount())),
				given.metadata("detection.aws", d.aws()), given.zoneFormat("detection.aws.zone-format"),
				given.metadata("detection.gcp", d.gcp()), given.metadata("detection.azure", d.azure()));
		given.failOnUnknown();
		return settings;
	}

	/**
	 * A setting's name as the user writes it.
	 * @param key the name without the prefix, for example {@code detection.order}
	 * @return the full name, for example {@code follower-fetch.detection.order}
	 */
	public String name(String key) {
		return this.prefix + key;
	}

	/**
	 * The built-in sources, in their default order.
	 * @param environment looks up environment variables (and, under Spring Boot, properties
	 * of the same name)
	 * @return one source of each name in {@link #SOURCES}
	 */
	public List<RackSource> sources(Function<String, @Nullable String> environment) {
		return List.of(envSource(environment), fileSource(), ecsSource(environment), kubernetesSource(environment),
				awsSource(environment), gcpSource(environment), azureSource());
	}

	EnvironmentRackSource envSource(Function<String, @Nullable String> environment) {
		return new EnvironmentRackSource(this.envVariables, environment, this.prefix);
	}

	FileRackSource fileSource() {
		return new FileRackSource(this.file.path(), this.file.key(), this.prefix);
	}

	EcsTaskMetadataRackSource ecsSource(Function<String, @Nullable String> environment) {
		return named(new EcsTaskMetadataRackSource(MetadataHttpClient.INSTANCE, this.ecsEnabled, environment));
	}

	KubernetesNodeRackSource kubernetesSource(Function<String, @Nullable String> environment) {
		return named(new KubernetesNodeRackSource(this.kubernetes.enabled(), this.kubernetes.nodeNameVariable(),
				this.kubernetes.serviceAccount(), environment));
	}

	Ec2MetadataRackSource awsSource(Function<String, @Nullable String> environment) {
		return named(new Ec2MetadataRackSource(MetadataHttpClient.INSTANCE, this.aws.enabled(), this.aws.endpoint(),
				this.awsZoneFormat, environment));
	}

	GcpMetadataRackSource gcpSource(Function<String, @Nullable String> environment) {
		return named(new GcpMetadataRackSource(MetadataHttpClient.INSTANCE, this.gcp.enabled(), this.gcp.endpoint(),
				environment));
	}

	AzureMetadataRackSource azureSource() {
		return named(
				new AzureMetadataRackSource(MetadataHttpClient.INSTANCE, this.azure.enabled(), this.azure.endpoint()));
	}

	private <S extends MetadataRackSource> S named(S source) {
		source.settingPrefix(this.prefix);
		return source;
	}

	/**
	 * Text parameters, read once each; what is left unread is unknown.
	 */
	private static final class Parameters {

		private final Map<String, ?> values;

		private final String prefix;

		private final Set<String> read = new HashSet<>();

		Parameters(Map<String, ?> values, String prefix) {
			this.values = values;
			this.prefix = prefix;
		}

		@Nullable String text(String key, @Nullable String fallback) {
			this.read.add(key);
			Object value = this.values.get(key);
			return (value != null) ? value.toString().strip() : fallback;
		}

		String word(String key, String fallback) {
			String value = text(key, fallback);
			return (value == null || value.isEmpty()) ? fallback : value;
		}

		List<String> list(String key, List<String> fallback) {
			String value = text(key, null);
			if (value == null) {
				return fallback;
			}
			return Arrays.stream(value.split(",")).map(String::strip).filter((entry) -> !entry.isEmpty()).toList();
		}

		boolean bool(String key, boolean fallback) {
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

		Duration duration(String key, Duration fallback) {
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

		@Nullable Path path(String key, @Nullable Path fallback) {
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

		Path pathOr(String key, Path fallback) {
			Path value = path(key, fallback);
			return (value != null) ? value : fallback;
		}

		Metadata metadata(String source, Metadata fallback) {
			String endpoint = text(source + ".endpoint", null);
			URI uri = null;
			if (endpoint != null && !endpoint.isEmpty()) {
				try {
					uri = new URI(endpoint);
				}
				catch (URISyntaxException ex) {
					throw invalid(source + ".endpoint", endpoint, Metadata.ENDPOINT_RULE);
				}
			}
			boolean enabled = bool(source + ".enabled", fallback.enabled());
			return new Metadata(enabled, (uri != null) ? uri : fallback.endpoint());
		}

		ZoneFormat zoneFormat(String key) {
			String value = text(key, null);
			if (value == null) {
				return ZoneFormat.AUTO;
			}
			try {
				return ZoneFormat.valueOf(value.toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				throw invalid(key, value, "Must be auto, id or name.");
			}
		}

		void failOnUnknown() {
			Set<String> unknown = new TreeSet<>(this.values.keySet());
			unknown.removeAll(this.read);
			if (!unknown.isEmpty()) {
				String key = unknown.iterator().next();
				throw invalid(key, this.values.get(key), "Unknown parameter. Known parameters: "
						+ String.join(", ", new TreeSet<>(this.read)) + ".");
			}
		}

		private InvalidSettingException invalid(String key, @Nullable Object value, String reason) {
			return new InvalidSettingException(this.prefix + key, value, reason);
		}

	}

	/**
	 * The file source's settings.
	 *
	 * @param path {@code detection.file.path}: a properties file (Kubernetes downward API
	 * labels, for example), or {@code null}
	 * @param key {@code detection.file.key}: the key whose value is the zone
	 */
	public record File(@Nullable Path path, String key) {
	}

	/**
	 * The Kubernetes node source's settings.
	 *
	 * @param enabled {@code detection.kubernetes.enabled}
	 * @param nodeNameVariable {@code detection.kubernetes.node-name-variable}
	 * @param serviceAccount {@code detection.kubernetes.service-account}
	 */
	public record Kubernetes(boolean enabled, String nodeNameVariable, Path serviceAccount) {
	}

	/**
	 * A cloud metadata source's settings.
	 *
	 * @param enabled whether the source is asked
	 * @param endpoint the address to ask instead of the well-known one, or {@code null}
	 */
	public record Metadata(boolean enabled, @Nullable URI endpoint) {

		static final Metadata DEFAULT = new Metadata(true, null);

		static final String ENDPOINT_RULE = "Must be an http(s) URL with a host and no path, such as "
				+ "http://169.254.169.254, or a host[:port].";

		/**
		 * The endpoint as the sources need it: an http(s) URL with a host and no path (each
		 * source adds its own), or a bare {@code host[:port]} as the environment variables
		 * allow.
		 */
		Metadata checked(String setting) {
			URI configured = this.endpoint;
			if (configured == null) {
				return this;
			}
			URI parsed;
			try {
				parsed = MetadataEndpoints.parse(configured.toString(), setting);
			}
			catch (MetadataException ex) {
				parsed = null;
			}
			String path = (parsed != null) ? parsed.getRawPath() : null;
			boolean hasPath = path != null && !path.isEmpty() && !path.equals("/");
			if (parsed == null || hasPath || parsed.getRawQuery() != null) {
				throw new InvalidSettingException(setting, configured, ENDPOINT_RULE);
			}
			return new Metadata(this.enabled, parsed);
		}

	}

}
