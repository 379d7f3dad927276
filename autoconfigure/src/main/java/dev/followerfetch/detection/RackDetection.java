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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import dev.followerfetch.FollowerFetchProperties;
import dev.followerfetch.detection.DetectedRack.Attempt;
import dev.followerfetch.detection.DetectedRack.Outcome;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Turns configuration and sources into the application's {@link DetectedRack}: an explicit
 * rack wins, otherwise the sources are asked in the configured order. Logs the outcome
 * once and enforces {@code follower-fetch.detection.required}.
 *
 * @author follower-fetch authors
 */
final class RackDetection {

	/**
	 * The names of the built-in sources: the default order lists every one of them.
	 */
	private static final Set<String> BUILT_IN_SOURCES = Set
		.copyOf(new FollowerFetchProperties.Detection().getOrder());

	private static final List<String> KAFKA_CLIENT_RACK_PREFIXES = List.of("spring.kafka.consumer.properties",
			"spring.kafka.properties");

	private static final Log logger = LogFactory.getLog(RackDetection.class);

	private final FollowerFetchProperties properties;

	private final Environment environment;

	private final CandidateSelector selector;

	RackDetection(FollowerFetchProperties properties, Environment environment, CandidateSelector selector) {
		this.properties = properties;
		this.environment = environment;
		this.selector = selector;
	}

	DetectedRack detect(List<RackSource> available) {
		Duration timeout = this.properties.getDetection().getTimeout();
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new InvalidConfigurationPropertyValueException("follower-fetch.detection.timeout", timeout,
					"The budget for network sources must be a positive duration, for example 1s.");
		}
		Duration brokerTimeout = this.properties.getDetection().getBrokerTimeout();
		if (brokerTimeout == null || brokerTimeout.isNegative() || brokerTimeout.isZero()) {
			throw new InvalidConfigurationPropertyValueException("follower-fetch.detection.broker-timeout",
					brokerTimeout, "The time allowed to read the brokers' racks must be a positive duration, for example 2s.");
		}
		List<RackSource> sources = arrange(available);
		DetectedRack detected = explicitRack(timeout);
		if (detected == null) {
			detected = new RackDetector(sources, timeout, this.selector).detect();
		}
		report(detected);
		return detected;
	}

	private @Nullable DetectedRack explicitRack(Duration timeout) {
		String configured = this.properties.getRack();
		for (String prefix : KAFKA_CLIENT_RACK_PREFIXES) {
			String kafkaRack = Binder.get(this.environment)
				.bind(prefix, Bindable.mapOf(String.class, String.class))
				.map((map) -> map.get("client.rack"))
				.orElse(null);
			if (kafkaRack != null) {
				String source = "property:" + prefix + ".client.rack";
				if (StringUtils.hasText(configured) && !configured.strip().equals(kafkaRack)) {
					logger.warn("follower-fetch.rack=" + configured + " is ignored: " + prefix
							+ ".client.rack=" + kafkaRack + " is set and an explicit client.rack is never overwritten");
				}
				return explicit(kafkaRack, source, timeout);
			}
		}
		if (!StringUtils.hasText(configured)) {
			return null;
		}
		try {
			return explicit(RackValues.validate(configured), "property:follower-fetch.rack", timeout);
		}
		catch (IllegalArgumentException ex) {
			String problem = Objects.requireNonNullElse(ex.getMessage(), "").replace(RackValues.RULE_NOTE, "");
			throw new InvalidConfigurationPropertyValueException("follower-fetch.rack", configured,
					"A rack is " + RackValues.RULE + ", but " + problem + ".");
		}
	}

	private DetectedRack explicit(String rack, String source, Duration timeout) {
		long start = System.nanoTime();
		RackCandidate candidate = new RackCandidate(rack, "explicit");
		CandidateSelector.Selection selection = (rack.isEmpty()) ? new CandidateSelector.Selection(candidate, null, null)
				: this.selector.select(source, List.of(candidate), timeout);
		return new DetectedRack(rack, source, selection.reason(), selection.brokerRacks(),
				List.of(new Attempt(source, Outcome.FOUND, null, List.of(candidate))),
				Duration.ofNanos(System.nanoTime() - start));
	}

	List<RackSource> arrange(List<RackSource> available) {
		Map<String, RackSource> byName = new LinkedHashMap<>();
		for (RackSource source : available) {
			RackSource previous = byName.putIfAbsent(source.name(), source);
			if (previous != null) {
				throw new IllegalStateException("Two RackSource beans share the name '" + source.name() + "' ("
						+ previous.getClass().getName() + " and " + source.getClass().getName()
						+ "); give each source a distinct name()");
			}
		}
		List<String> order = this.properties.getDetection().getOrder();
		List<String> unknown = order.stream().filter((name) -> !byName.containsKey(name.strip())).toList();
		if (!unknown.isEmpty()) {
			throw new InvalidConfigurationPropertyValueException("follower-fetch.detection.order",
					String.join(",", order), "Unknown source " + String.join(", ", unknown)
							+ ". Known sources: " + String.join(", ", byName.keySet()) + ".");
		}
		List<String> listed = order.stream().map(String::strip).distinct().toList();
		if (listed.size() != order.size()) {
			String repeated = listed.stream()
				.filter((name) -> order.stream().filter((entry) -> entry.strip().equals(name)).count() > 1)
				.collect(Collectors.joining(", "));
			throw new InvalidConfigurationPropertyValueException("follower-fetch.detection.order",
					String.join(",", order), "Source " + repeated + " is listed more than once.");
		}
		if (order.isEmpty()) {
			logger.warn("follower-fetch.detection.order is empty: only an explicit rack and the application's own "
					+ "RackSource beans are used. Known sources: " + String.join(", ", byName.keySet()) + ".");
		}
		List<RackSource> arranged = new ArrayList<>();
		byName.forEach((name, source) -> {
			if (!BUILT_IN_SOURCES.contains(name) && !listed.contains(name)) {
				arranged.add(source);
			}
		});
		listed.forEach((name) -> arranged.add(byName.get(name)));
		return arranged;
	}

	private void report(DetectedRack detected) {
		if (detected.rack().filter(String::isEmpty).isPresent()) {
			logger.info("Kafka client.rack is empty (from " + detected.source().orElse("?")
					+ "), so consumers read from partition leaders and no rack is detected");
			return;
		}
		if (detected.rack().isPresent()) {
			String rack = detected.rack().get();
			Set<String> brokerRacks = detected.brokerRacks().orElse(null);
			if (brokerRacks != null && brokerRacks.isEmpty()) {
				logger.warn("Kafka client.rack is " + rack + " (from " + detected.source().get() + "), but none of the "
						+ "brokers has a broker.rack, so no consumer can read from a follower in its zone. Set broker.rack "
						+ "on every broker (see rollout.md).");
			}
			else if (brokerRacks != null && !brokerRacks.contains(rack)) {
				logger.warn("Rack mismatch: Kafka client.rack is " + rack + " (from " + detected.source().get()
						+ detected.reason().map((reason) -> ", " + reason).orElse("") + "), but the brokers' racks are "
						+ brokerRacks + ". Consumers will read from partition leaders across zones until client.rack "
						+ "matches a broker rack; set follower-fetch.rack to this zone's broker rack, or fix the source "
						+ "or broker.rack.");
			}
			else if (logger.isInfoEnabled()) {
				String consulted = detected.attempts()
					.stream()
					.filter((attempt) -> attempt.outcome() != Outcome.SKIPPED
							&& !attempt.source().startsWith("property:"))
					.map(Attempt::toString)
					.collect(Collectors.joining("; "));
				logger.info("Kafka client.rack is " + rack + " (from " + detected.source().get()
						+ detected.reason().map((reason) -> ", " + reason).orElse("")
						+ ((consulted.isEmpty()) ? "" : ", found in " + detected.elapsed().toMillis() + " ms; " + consulted)
						+ ")");
			}
			return;
		}
		if (this.properties.getDetection().isRequired()) {
			throw new RackNotDetectedException(detected);
		}
		logger.warn("No Kafka client.rack found in " + detected.elapsed().toMillis()
				+ " ms, so consumers keep reading from partition leaders. Sources tried: " + detected.describeAttempts()
				+ ". Set follower-fetch.rack or KAFKA_CLIENT_RACK to choose one.");
	}

}
