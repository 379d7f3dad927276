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
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Reads the rack from environment variables, in the configured order.
 *
 * @author follower-fetch authors
 */
public final class EnvironmentRackSource implements RackSource {

	private final List<String> variables;

	private final Function<String, @Nullable String> environment;

	private final String settingPrefix;

	EnvironmentRackSource(List<String> variables, Function<String, @Nullable String> environment) {
		this(variables, environment, DetectionSettings.SPRING_BOOT_PREFIX);
	}

	EnvironmentRackSource(List<String> variables, Function<String, @Nullable String> environment,
			String settingPrefix) {
		this.variables = List.copyOf(variables);
		this.environment = environment;
		this.settingPrefix = settingPrefix;
	}

	@Override
	public String name() {
		return "env";
	}

	@Override
	public boolean isRemote() {
		return false;
	}

	@Override
	public RackLookup lookup(Duration timeout) {
		List<RackCandidate> candidates = new ArrayList<>();
		for (String variable : this.variables) {
			String value = this.environment.apply(variable);
			if (value != null && !value.isBlank()) {
				candidates.add(new RackCandidate(value, variable));
			}
		}
		if (candidates.isEmpty()) {
			return RackLookup.notFound((this.variables.isEmpty())
					? this.settingPrefix + "detection.env.variables is empty"
					: String.join(", ", this.variables) + " not set");
		}
		return RackLookup.found(candidates);
	}

}
