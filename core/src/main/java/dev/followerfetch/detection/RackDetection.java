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
import java.util.Set;
import java.util.stream.Collectors;

import dev.followerfetch.InvalidSettingException;
import dev.followerfetch.detection.DetectedRack.Attempt;
import dev.followerfetch.detection.DetectedRack.Outcome;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns settings and sources into a {@link DetectedRack}: an explicit rack wins, otherwise
 * the sources are asked in the configured order. Logs the outcome once and enforces
 * {@code detection.required}.
 *
 * @author follower-fetch authors
 */
public final class RackDetection {

	private static final Logger logger = LoggerFactory.getLogger(RackDetection.class);

	private final DetectionSettings settings;

	private final CandidateSelector selector;

	RackDetection(DetectionSettings settings, CandidateSelector selector) {
		this.settings = settings;
		this.selector = selector;
	}

	/**
	 * Detection that checks the candidates of a source against the brokers' racks, so an
	 * AWS process picks the AZ id or name the brokers use.
	 * @param settings the settings
	 * @param brokers reads the brokers' racks, or {@code null} when no cluster is known
	 * @return the detection
	 */
	public static RackDetection matchingBrokers(DetectionSettings settings, @Nullable BrokerRackLookup brokers) {
		return new RackDetection(settings, (brokers != null) ? new BrokerMatchingCandidateSelector(brokers, settings)
				: CandidateSelector.FIRST);
	}

	/**
	 * Detect the rack.
	 * @param available the sources: the built-in ones and any of the application's own
	 * @param kafkaClientRack a {@code client.rack} the application sets in its Kafka
	 * configuration, which wins over everything, or {@code null}
	 * @return what was detected
	 * @throws InvalidSettingException if {@code detection.order} names a source that is not
	 * available, or one twice
	 * @throws RackNotDetectedException if nothing was found and {@code detection.required}
	 */
	public DetectedRack detect(List<RackSource> available, @Nullable KafkaClientRack kafkaClientRack) {
		List<RackSource> sources = arrange(available);
		DetectedRack detected = explicitRack(kafkaClientRack);
		if (detected == null) {
			detected = new RackDetector(sources, this.settings.timeout(), this.selector).detect();
		}
		report(detected);
		return detected;
	}

	private @Nullable DetectedRack explicitRack(@Nullable KafkaClientRack kafkaClientRack) {
		String configured = this.settings.rack();
		if (kafkaClientRack != null) {
			if (configured != null && !configured.equals(kafkaClientRack.rack())) {
				logger.warn(this.settings.name("rack") + "=" + configured + " is ignored: " + kafkaClientRack.setting()
						+ "=" + kafkaClientRack.rack() + " is set and an explicit client.rack is never overwritten");
			}
			return explicit(kafkaClientRack.rack(), "property:" + kafkaClientRack.setting());
		}
		return (configured != null) ? explicit(configured, "property:" + this.settings.name("rack")) : null;
	}

	private DetectedRack explicit(String rack, String source) {
		long start = System.nanoTime();
		RackCandidate candidate = new RackCandidate(rack, "explicit");
		CandidateSelector.Selection selection = (rack.isEmpty()) ? new CandidateSelector.Selection(candidate, null, null)
				: this.selector.select(source, List.of(candidate), this.settings.timeout());
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
		List<String> order = this.settings.order();
		String orderSetting = this.settings.name("detection.order");
		List<String> unknown = order.stream().filter((name) -> !byName.containsKey(name.strip())).toList();
		if (!unknown.isEmpty()) {
			throw new InvalidSettingException(orderSetting, String.join(",", order), "Unknown source "
					+ String.join(", ", unknown) + ". Known sources: " + String.join(", ", byName.keySet()) + ".");
		}
		List<String> listed = order.stream().map(String::strip).distinct().toList();
		if (listed.size() != order.size()) {
			String repeated = listed.stream()
				.filter((name) -> order.stream().filter((entry) -> entry.strip().equals(name)).count() > 1)
				.collect(Collectors.joining(", "));
			throw new InvalidSettingException(orderSetting, String.join(",", order),
					"Source " + repeated + " is listed more than once.");
		}
		if (order.isEmpty()) {
			logger.warn(orderSetting + " is empty: only an explicit rack and the application's own "
					+ "RackSource beans are used. Known sources: " + String.join(", ", byName.keySet()) + ".");
		}
		List<RackSource> arranged = new ArrayList<>();
		byName.forEach((name, source) -> {
			if (!DetectionSettings.SOURCES.contains(name) && !listed.contains(name)) {
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
						+ "matches a broker rack; set " + this.settings.name("rack") + " to this zone's broker rack, or fix the source "
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
		if (this.settings.required()) {
			throw new RackNotDetectedException(detected, this.settings.name("detection.required"));
		}
		logger.warn("No Kafka client.rack found in " + detected.elapsed().toMillis()
				+ " ms, so consumers keep reading from partition leaders. Sources tried: " + detected.describeAttempts()
				+ ". Set " + this.settings.name("rack") + " or KAFKA_CLIENT_RACK to choose one.");
	}

	/**
	 * A {@code client.rack} the application sets in its own Kafka configuration.
	 *
	 * @param setting where it is set, for example
	 * {@code spring.kafka.consumer.properties.client.rack}
	 * @param rack its value
	 */
	public record KafkaClientRack(String setting, String rack) {
	}

}
