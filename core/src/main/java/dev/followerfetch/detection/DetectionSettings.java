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
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.NamedSettings;
import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.jspecify.annotations.Nullable;

/**
 * How the zone is detected: an explicit rack, the sources to ask and in which order, the
 * budget, and each source's own settings. Built by name ({@link #of(NamedSettings)}) from
 * what Spring Boot binds from {@code follower-fetch.*} and from the zone config
 * provider's parameters, under the same names. Checked when created, so a value the
 * detection cannot use is reported naming the setting as the user wrote it
 * ({@link #name(String)}).
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
	public static final String SPRING_BOOT_PREFIX = NamedSettings.SPRING_BOOT_PREFIX;

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
		return of(NamedSettings.defaults(prefix));
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
		NamedSettings given = NamedSettings.parameters(prefix, parameters);
		DetectionSettings settings = of(given);
		given.failOnUnknown();
		return settings;
	}

	/**
	 * Settings by name, the one place that names each detection setting and gives its
	 * default: {@code rack} and {@code detection.*}.
	 * @param given the settings by name, bound by Spring Boot or given as text
	 * @return the settings
	 * @throws InvalidSettingException naming the first setting with a value the
	 * detection cannot use
	 */
	public static DetectionSettings of(NamedSettings given) {
		return new DetectionSettings(given.prefix(), given.text("rack", null), given.list("detection.order", SOURCES),
				given.duration("detection.timeout", Duration.ofSeconds(1)),
				given.duration("detection.broker-timeout", Duration.ofSeconds(2)),
				given.bool("detection.required", false),
				given.list("detection.env.variables", List.of("KAFKA_CLIENT_RACK")),
				new File(given.path("detection.file.path", null),
						given.word("detection.file.key", "topology.kubernetes.io/zone")),
				given.bool("detection.ecs.enabled", true),
				new Kubernetes(given.bool("detection.kubernetes.enabled", true),
						given.word("detection.kubernetes.node-name-variable", "NODE_NAME"),
						given.pathOr("detection.kubernetes.service-account",
								Path.of("/var/run/secrets/kubernetes.io/serviceaccount"))),
				metadata(given, "detection.aws"),
				given.choice("detection.aws.zone-format", ZoneFormat.class, ZoneFormat.AUTO, "Must be auto, id or name."),
				metadata(given, "detection.gcp"), metadata(given, "detection.azure"));
	}

	private static Metadata metadata(NamedSettings given, String source) {
		URI endpoint = given.uri(source + ".endpoint", null, Metadata.ENDPOINT_RULE);
		return new Metadata(given.bool(source + ".enabled", true), endpoint);
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

	/**
	 * The {@code env} source.
	 * @param environment looks up environment variables
	 * @return the source, with these settings
	 */
	public EnvironmentRackSource envSource(Function<String, @Nullable String> environment) {
		return new EnvironmentRackSource(this.envVariables, environment, this.prefix);
	}

	/**
	 * The {@code file} source.
	 * @return the source, with these settings
	 */
	public FileRackSource fileSource() {
		return new FileRackSource(this.file.path(), this.file.key(), this.prefix);
	}

	/**
	 * The {@code ecs} source.
	 * @param environment looks up environment variables
	 * @return the source, with these settings
	 */
	public EcsTaskMetadataRackSource ecsSource(Function<String, @Nullable String> environment) {
		return named(new EcsTaskMetadataRackSource(MetadataHttpClient.INSTANCE, this.ecsEnabled, environment));
	}

	/**
	 * The {@code kubernetes} source.
	 * @param environment looks up environment variables
	 * @return the source, with these settings
	 */
	public KubernetesNodeRackSource kubernetesSource(Function<String, @Nullable String> environment) {
		return named(new KubernetesNodeRackSource(this.kubernetes.enabled(), this.kubernetes.nodeNameVariable(),
				this.kubernetes.serviceAccount(), environment));
	}

	/**
	 * The {@code aws} source.
	 * @param environment looks up environment variables
	 * @return the source, with these settings
	 */
	public Ec2MetadataRackSource awsSource(Function<String, @Nullable String> environment) {
		return named(new Ec2MetadataRackSource(MetadataHttpClient.INSTANCE, this.aws.enabled(), this.aws.endpoint(),
				this.awsZoneFormat, environment));
	}

	/**
	 * The {@code gcp} source.
	 * @param environment looks up environment variables
	 * @return the source, with these settings
	 */
	public GcpMetadataRackSource gcpSource(Function<String, @Nullable String> environment) {
		return named(new GcpMetadataRackSource(MetadataHttpClient.INSTANCE, this.gcp.enabled(), this.gcp.endpoint(),
				environment));
	}

	/**
	 * The {@code azure} source.
	 * @return the source, with these settings
	 */
	public AzureMetadataRackSource azureSource() {
		return named(
				new AzureMetadataRackSource(MetadataHttpClient.INSTANCE, this.azure.enabled(), this.azure.endpoint()));
	}

	private <S extends MetadataRackSource> S named(S source) {
		source.settingPrefix(this.prefix);
		return source;
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
