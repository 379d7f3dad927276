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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.followerfetch.detection.Firmware.Cloud;
import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import dev.followerfetch.detection.MetadataHttpClient.Response;
import org.jspecify.annotations.Nullable;


/**
 * Reads the zone from the GCP metadata server, which answers
 * {@code projects/<number>/zones/<zone>} to requests carrying {@code Metadata-Flavor: Google}.
 * <p>
 * The default endpoint is a host name, and a name lookup cannot be bounded or
 * interrupted. On a machine whose {@link Firmware} says it is not a Google Compute Engine
 * VM, the default endpoint is not asked at all. A configured endpoint or {@code GCE_METADATA_HOST}
 * always is.
 *
 * @author follower-fetch authors
 */
public final class GcpMetadataRackSource extends MetadataRackSource {

	static final URI DEFAULT_ENDPOINT = URI.create("http://metadata.google.internal");

	private static final String HOST_VARIABLE = "GCE_METADATA_HOST";

	private static final String FLAVOR = "Metadata-Flavor";

	private static final Pattern ZONE = Pattern.compile("projects/[0-9]+/zones/([^/\\s]+)");

	private final @Nullable URI endpoint;

	private final Function<String, @Nullable String> environment;

	private final Firmware firmware;

	private final URI defaultEndpoint;

	GcpMetadataRackSource(MetadataHttpClient client, boolean enabled, @Nullable URI endpoint,
			Function<String, @Nullable String> environment) {
		this(client, enabled, endpoint, environment, Firmware.SYSTEM, DEFAULT_ENDPOINT);
	}

	GcpMetadataRackSource(MetadataHttpClient client, boolean enabled, @Nullable URI endpoint,
			Function<String, @Nullable String> environment, Firmware firmware, URI defaultEndpoint) {
		super("gcp", client, enabled);
		this.endpoint = endpoint;
		this.environment = environment;
		this.firmware = firmware;
		this.defaultEndpoint = defaultEndpoint;
	}

	@Override
	RackLookup query(Duration timeout) throws MetadataException {
		URI base = MetadataEndpoints.resolve(this.endpoint, HOST_VARIABLE, this.environment, this.defaultEndpoint);
		boolean chosenByUser = this.endpoint != null
				|| MetadataEndpoints.variable(this.environment, HOST_VARIABLE) != null;
		String notGoogle = (chosenByUser) ? null : this.firmware.rulesOut(Cloud.GCP);
		if (notGoogle != null) {
			return notAsked(notGoogle, base);
		}
		URI uri = base.resolve("/computeMetadata/v1/instance/zone");
		Response response = this.client.send("GET", uri, Map.of(FLAVOR, "Google"), timeout);
		if (!response.isOk()) {
			throw new MetadataException(response.describeStatus(uri));
		}
		if (!"Google".equals(response.header(FLAVOR))) {
			throw new MetadataException(uri + " answered without the Metadata-Flavor: Google header");
		}
		String zone = zoneOf(response.body());
		if (zone == null) {
			throw new MetadataException(uri + " answered " + RackValues.quote(response.body())
					+ ", not projects/<number>/zones/<zone>");
		}
		return RackLookup.found("zone", zone);
	}

	/**
	 * The zone in the metadata server's answer.
	 * @param body the answer
	 * @return the zone, or {@code null} if the answer is not
	 * {@code projects/<number>/zones/<zone>}
	 */
	static @Nullable String zoneOf(String body) {
		Matcher matcher = ZONE.matcher(body.strip());
		return matcher.matches() ? matcher.group(1) : null;
	}

}
