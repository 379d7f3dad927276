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
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.jspecify.annotations.Nullable;


/**
 * Reads the availability zone name from the ECS task metadata endpoint v4, which the ECS
 * agent announces in {@code ECS_CONTAINER_METADATA_URI_V4}. Works on Fargate, where EC2
 * instance metadata is out of reach.
 *
 * @author follower-fetch authors
 */
public final class EcsTaskMetadataRackSource extends MetadataRackSource {

	static final String VARIABLE = "ECS_CONTAINER_METADATA_URI_V4";

	private final Function<String, @Nullable String> environment;

	EcsTaskMetadataRackSource(MetadataHttpClient client, boolean enabled,
			Function<String, @Nullable String> environment) {
		super("ecs", client, enabled);
		this.environment = environment;
	}

	@Override
	RackLookup query(Duration timeout) throws MetadataException {
		String base = MetadataEndpoints.variable(this.environment, VARIABLE);
		if (base == null) {
			return RackLookup.notFound(VARIABLE + " not set");
		}
		URI uri = MetadataEndpoints.parse(base.replaceFirst("/+$", "") + "/task", VARIABLE);
		String body = this.client.fetch("GET", uri, Map.of(), timeout);
		String zone;
		try {
			zone = JsonFields.string(body, "AvailabilityZone");
		}
		catch (IllegalArgumentException ex) {
			throw new MetadataException(uri + " answered a body that is not a JSON object: " + ex.getMessage());
		}
		if (zone == null) {
			throw new MetadataException(uri + " answered a task document without AvailabilityZone");
		}
		return RackLookup.found("availability-zone", zone);
	}

}
