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

import java.util.LinkedHashMap;
import java.util.Map;

import dev.followerfetch.detection.DetectedRack;
import dev.followerfetch.detection.DetectionSettings;
import dev.followerfetch.observation.ReadLocalityMonitor;
import dev.followerfetch.policy.ClientSettings;
import dev.followerfetch.policy.PolicySettings;
import dev.followerfetch.policy.ProducerRackSupport;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link BoundSettings}: the names it gives the bound properties are the names
 * the core reads.
 *
 * @author follower-fetch authors
 */
class BoundSettingsTests {

	@Test
	void everyNameIsOneTheCoreReadsAndTheCoreReadsNoOther() {
		NamedSettings named = BoundSettings.of(new FollowerFetchProperties());
		DetectionSettings.of(named);
		PolicySettings.of(named);
		ClientSettings.of(named, ProducerRackSupport.ofClasspath());
		ReadLocalityMonitor.builder(named, () -> DetectedRack.of("az-a", "test"), Map::of).build();
		assertThatNoException().isThrownBy(named::failOnUnknown);
	}

	@Test
	void theDetectionPropertiesReachTheCoreAsTheConfigProvidersParametersOfTheSameNamesDo() {
		Map<String, String> values = new LinkedHashMap<>();
		values.put("rack", "az-9");
		values.put("detection.order", "aws,env");
		values.put("detection.timeout", "3s");
		values.put("detection.broker-timeout", "4s");
		values.put("detection.required", "true");
		values.put("detection.env.variables", "ZONE,RACK");
		values.put("detection.file.path", "zone.properties");
		values.put("detection.file.key", "zone");
		values.put("detection.ecs.enabled", "false");
		values.put("detection.kubernetes.enabled", "false");
		values.put("detection.kubernetes.node-name-variable", "MY_NODE");
		values.put("detection.kubernetes.service-account", "account");
		values.put("detection.aws.enabled", "false");
		values.put("detection.aws.endpoint", "http://127.0.0.1:1");
		values.put("detection.aws.zone-format", "name");
		values.put("detection.gcp.enabled", "false");
		values.put("detection.gcp.endpoint", "http://127.0.0.1:2");
		values.put("detection.azure.enabled", "false");
		values.put("detection.azure.endpoint", "http://127.0.0.1:3");
		Map<String, String> properties = new LinkedHashMap<>();
		values.forEach((name, value) -> properties.put(NamedSettings.SPRING_BOOT_PREFIX + name, value));
		FollowerFetchProperties bound = new Binder(new MapConfigurationPropertySource(properties))
			.bind("follower-fetch", Bindable.ofInstance(new FollowerFetchProperties()))
			.get();
		DetectionSettings fromParameters = DetectionSettings.of(values, NamedSettings.SPRING_BOOT_PREFIX);
		assertThat(fromParameters).isNotEqualTo(DetectionSettings.defaults(NamedSettings.SPRING_BOOT_PREFIX));
		assertThat(DetectionSettings.of(BoundSettings.of(bound))).isEqualTo(fromParameters);
	}

}
