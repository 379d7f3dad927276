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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.followerfetch.InvalidSettingException;
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
 * starter's detection properties without {@code follower-fetch.} ({@code rack} and
 * {@code detection.*}), for example {@code param.detection.order=env,aws} or {@code param.detection.timeout=1s};
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

	private static final Duration AWAIT_MARGIN = Duration.ofSeconds(5);

	private static final ConcurrentMap<Detection, Attempt> attempts = new ConcurrentHashMap<>();

	private @Nullable Detection detection;

	@Override
	public void configure(Map<String, ?> parameters) {
		Map<String, Object> admin = new HashMap<>();
		Map<String, Object> settings = new LinkedHashMap<>();
		parameters.forEach((name, value) -> {
			if (String.valueOf(value).contains("${")) {
				throw new InvalidSettingException(PREFIX + name, value, "Kafka does not resolve variables in "
						+ "the parameters of a config provider: write the value itself.");
			}
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
	public ConfigData get(@Nullable String path) {
		return get(path, Set.of(RACK));
	}

	@Override
	public ConfigData get(@Nullable String path, Set<String> keys) {
		Set<String> unknown = new TreeSet<>(keys);
		unknown.remove(RACK);
		boolean noPath = path == null || path.isEmpty();
		if (!noPath || !unknown.isEmpty()) {
			throw new ConfigException("ZoneConfigProvider knows only ${<provider>:" + RACK + "}, not "
					+ (noPath ? "" : "path '" + path + "' ") + (unknown.isEmpty() ? "" : "keys " + unknown));
		}
		Detection detection = this.detection;
		if (detection == null) {
			throw new IllegalStateException("ZoneConfigProvider was not configured");
		}
		return new ConfigData(Map.of(RACK, detect(detection).rack().orElse("")));
	}

	/**
	 * Detects once for every client configured with the same settings: the first runs the
	 * detection, the others wait for its result, so none waits longer than one detection.
	 */
	private static DetectedRack detect(Detection detection) {
		while (true) {
			Attempt attempt = new Attempt();
			Attempt running = attempts.putIfAbsent(detection, attempt);
			if (running == null) {
				return attempt.run(detection);
			}
			if (running.expired()) {
				attempts.remove(detection, running);
				continue;
			}
			return running.await(detection.settings());
		}
	}

	@Override
	public void close() {
	}

	private record Detection(DetectionSettings settings, Map<String, Object> admin) {
	}

	/**
	 * One detection, for every client configured with its settings.
	 */
	private static final class Attempt {

		private final CompletableFuture<DetectedRack> result = new CompletableFuture<>();

		private volatile long retryAt;

		private volatile boolean permanent;

		DetectedRack run(Detection detection) {
			try {
				BrokerRackLookup brokers = (detection.admin().isEmpty()) ? null
						: BrokerRackLookup.admin(detection.admin());
				DetectedRack rack = RackDetection.matchingBrokers(detection.settings(), brokers)
					.detect(detection.settings().sources(System::getenv), null);
				settle(rack.rack().isPresent());
				this.result.complete(rack);
				return rack;
			}
			catch (RuntimeException | Error ex) {
				settle(false);
				this.result.completeExceptionally(ex);
				if (ex instanceof RuntimeException runtime) {
					throw failure(runtime);
				}
				throw ex;
			}
		}

		/**
		 * Wait for the detection another client runs: at most its budget and the brokers'
		 * time, and a little more.
		 */
		DetectedRack await(DetectionSettings settings) {
			Duration limit = settings.timeout().plus(settings.brokerTimeout()).plus(AWAIT_MARGIN);
			try {
				return this.result.get(limit.toNanos(), TimeUnit.NANOSECONDS);
			}
			catch (ExecutionException ex) {
				Throwable cause = ex.getCause();
				if (cause instanceof Error error) {
					throw error;
				}
				throw failure((cause instanceof RuntimeException runtime) ? runtime
						: new IllegalStateException(cause));
			}
			catch (TimeoutException ex) {
				throw new ConfigException("The zone detection that another client started did not end within "
						+ limit.toMillis() + " ms");
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new ConfigException("Interrupted while waiting for the zone detection");
			}
		}

		boolean expired() {
			return this.result.isDone() && !this.permanent && System.nanoTime() - this.retryAt >= 0;
		}

		private void settle(boolean found) {
			this.retryAt = System.nanoTime() + RETRY_NOT_FOUND.toNanos();
			this.permanent = found;
		}

		private static RuntimeException failure(RuntimeException ex) {
			return (ex instanceof RackNotDetectedException) ? new ConfigException(ex.getMessage()) : ex;
		}

	}

}
