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
package dev.followerfetch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.followerfetch.test.MultiZoneKafkaExtension;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every metric and label the Grafana dashboard in {@code docs/} queries is one a Prometheus
 * registry really exposes for an application reading from a real three-zone cluster.
 *
 * @author follower-fetch authors
 */
class GrafanaDashboardEndToEndTests {

	private static final Path DASHBOARD = Path.of("..", "docs", "grafana-dashboard.json");

	private static final Pattern METRIC = Pattern.compile("\\bfollower_fetch_[a-z_]+");

	private static final Pattern MATCHER = Pattern.compile("([a-z_]+)\\s*(?:=~|!~|!=|=)\\s*\"");

	private static final Pattern GROUPING = Pattern.compile("\\bby\\s*\\(([^)]*)\\)");

	private static final Set<String> ADDED_BY_PROMETHEUS = Set.of("instance", "job");

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("az-a", "az-b", "az-c");

	@Test
	void everyMetricAndLabelTheDashboardQueriesIsExposed() throws IOException {
		kafka.cluster().createTopicLedByEveryZone("dashboard", 6, 3);
		kafka.cluster().produce("dashboard", 60, 256);
		String group = "dashboard-" + UUID.randomUUID();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(HealthApplication.class,
				PrometheusRegistry.class)
			.properties("spring.kafka.bootstrap-servers=" + kafka.cluster().bootstrapServers(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"spring.kafka.consumer.key-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.kafka.consumer.value-deserializer=" + ByteArrayDeserializer.class.getName(),
					"spring.main.web-application-type=none",
					"test.topic=dashboard", "test.group=" + group, "follower-fetch.rack=az-b",
					"follower-fetch.observation.refresh-interval=200ms",
					"management.metrics.tags.application=dashboard-test")
			.run()) {
			PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
			await().atMost(Duration.ofSeconds(60))
				.untilAsserted(() -> assertThat(registry.scrape())
					.contains("follower_fetch_bytes_total{application=\"dashboard-test\"")
					.containsPattern("follower_fetch_bytes_total\\{[^}]*listener=\"analytics\"[^}]*zone=\"local\"[^}]*} [1-9]"));
			String scrape = registry.scrape();
			List<String> queries = queries();
			assertThat(queries).isNotEmpty();
			for (String query : queries) {
				Set<String> metrics = matches(METRIC, query);
				assertThat(metrics).as("metrics in %s", query).isNotEmpty();
				for (String metric : metrics) {
					Set<String> labels = labelsOf(scrape, metric);
					assertThat(labels).as("labels %s exposes", metric).contains("application");
					Set<String> queried = new LinkedHashSet<>(matches(MATCHER, query));
					Matcher grouping = GROUPING.matcher(query);
					while (grouping.find()) {
						for (String label : grouping.group(1).split(",")) {
							queried.add(label.strip());
						}
					}
					queried.removeAll(ADDED_BY_PROMETHEUS);
					assertThat(labels).as("labels of %s queried by %s", metric, query).containsAll(queried);
				}
			}
			assertThat(scrape).containsPattern(
					"follower_fetch_bytes_total\\{[^}]*policy=\"locality\"[^}]*zone=\"local\"[^}]*}");
			assertThat(scrape).containsPattern("follower_fetch_state\\{[^}]*degraded=\"false\"[^}]*state=\"ACTIVE\"");
		}
	}

	@SuppressWarnings("unchecked")
	private static List<String> queries() throws IOException {
		Map<String, Object> dashboard = JsonParserFactory.getJsonParser().parseMap(Files.readString(DASHBOARD));
		List<String> queries = new ArrayList<>();
		Map<String, Object> templating = (Map<String, Object>) dashboard.get("templating");
		for (Map<String, Object> variable : (List<Map<String, Object>>) templating.get("list")) {
			if ("query".equals(variable.get("type"))) {
				queries.add((String) variable.get("query"));
			}
		}
		for (Map<String, Object> panel : (List<Map<String, Object>>) dashboard.get("panels")) {
			for (Map<String, Object> target : (List<Map<String, Object>>) panel.getOrDefault("targets", List.of())) {
				queries.add((String) target.get("expr"));
			}
		}
		return queries;
	}

	private static Set<String> labelsOf(String scrape, String metric) {
		Set<String> labels = new LinkedHashSet<>();
		Matcher series = Pattern.compile("(?m)^" + metric + "\\{([^}]*)}").matcher(scrape);
		while (series.find()) {
			for (String pair : series.group(1).split(",")) {
				if (pair.contains("=")) {
					labels.add(pair.substring(0, pair.indexOf('=')).strip());
				}
			}
		}
		return labels;
	}

	private static Set<String> matches(Pattern pattern, String text) {
		Set<String> found = new LinkedHashSet<>();
		Matcher matcher = pattern.matcher(text);
		while (matcher.find()) {
			found.add((matcher.groupCount() > 0) ? matcher.group(1) : matcher.group());
		}
		return found;
	}

	@Configuration(proxyBeanMethods = false)
	static class PrometheusRegistry {

		@Bean
		PrometheusMeterRegistry prometheusMeterRegistry() {
			return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		}

	}

}
