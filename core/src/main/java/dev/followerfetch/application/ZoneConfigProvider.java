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
package dev.followerfetch.application;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import dev.followerfetch.detection.BrokerRackLookup;
import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.DetectionSettings;
import dev.followerfetch.detection.RackDetection;
import dev.followerfetch.detection.RackNotDetectedException;
import org.apache.kafka.common.config.ConfigData;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.provider.ConfigProvider;
import org.jspecify.annotations.Nullable;

/**
 * The zone this process runs in, for the configuration of any Kafka client: Kafka Connect
 * workers and their connectors' clients, MirrorMaker 2, plain Java applications.
 *
 * <pre class="code">
 * config.providers=zone
 * config.providers.zone.class=dev.followerfetch.application.ZoneConfigProvider
 * client.rack=${zone:rack}
 * </pre>
 *
 * The parameters ({@code config.providers.zone.param.<name>}) are the Spring Boot
 * starter's {@code follower-fetch.*} properties without {@code follower-fetch.}, for
 * example {@code param.detection.order=env,aws} or {@code param.detection.timeout=1s};
 * those starting with {@code admin.} configure the short-lived admin client that reads
 * the brokers' racks, so that an AWS process picks the AZ id or name the brokers use
 * ({@code param.admin.bootstrap.servers=...}). The zone is detected once per JVM and
 * settings, within the same budget as under Spring Boot; a process that finds none reads
 * from the leaders ({@code ${zone:rack}} is empty), or fails its client's configuration
 * when {@code param.detection.required=true}.
 *
 * @author follower-fetch authors
 */
public final class ZoneConfigProvider implements ConfigProvider {

	/**
	 * The key of the zone: {@code ${zone:rack}}.
	 */
	public static final String RACK = "rack";

	private static final String PREFIX = "param.";

	private static final String ADMIN = "admin.";

	/** A zone found stays for the JVM's life; nothing found is asked again after this long. */
	private static final Duration RETRY_NOT_FOUND = Duration.ofMinutes(1);

	private static final Map<Detection, Detected> detected = new ConcurrentHashMap<>();

	private @Nullable Detection detection;

	@Override
	public void configure(Map<String, ?> parameters) {
		Map<String, Object> admin = new HashMap<>();
		Map<String, Object> settings = new LinkedHashMap<>();
		parameters.forEach((name, value) -> {
			if (name.startsWith(ADMIN)) {
				admin.put(name.substring(ADMIN.length()), value);
			}
			else {
				settings.put(name, value);
			}
		});
		this.detection = new Detection(DetectionSettings.of(settings, PREFIX), Map.copyOf(admin));
	}

	@Override
	public ConfigData get(String path) {
		return get(path, Set.of(RACK));
	}

	@Override
	public ConfigData get(String path, Set<String> keys) {
		Set<String> unknown = new TreeSet<>(keys);
		unknown.remove(RACK);
		if (!path.isEmpty() || !unknown.isEmpty()) {
			throw new ConfigException("ZoneConfigProvider knows only ${<provider>:" + RACK + "}, not "
					+ (path.isEmpty() ? "" : "path '" + path + "' ") + (unknown.isEmpty() ? "" : "keys " + unknown));
		}
		Detection detection = this.detection;
		if (detection == null) {
			throw new IllegalStateException("ZoneConfigProvider was not configured");
		}
		DetectedRack rack;
		try {
			rack = detect(detection);
		}
		catch (RackNotDetectedException ex) {
			throw new ConfigException(ex.getMessage());
		}
		return new ConfigData(Map.of(RACK, rack.rack().orElse("")));
	}

	private static DetectedRack detect(Detection detection) {
		return detected.compute(detection, (key, previous) -> {
			if (previous != null && (previous.rack().rack().isPresent() || System.nanoTime() - previous.retryAt() < 0)) {
				return previous;
			}
			BrokerRackLookup brokers = (key.admin().isEmpty()) ? null : BrokerRackLookup.admin(key.admin());
			DetectedRack rack = RackDetection.matchingBrokers(key.settings(), brokers)
				.detect(key.settings().sources(System::getenv), null);
			return new Detected(rack, System.nanoTime() + RETRY_NOT_FOUND.toNanos());
		}).rack();
	}

	@Override
	public void close() {
	}

	private record Detection(DetectionSettings settings, Map<String, Object> admin) {
	}

	private record Detected(DetectedRack rack, long retryAt) {
	}

}
