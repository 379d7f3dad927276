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
import java.util.List;
import java.util.Map;

import dev.followerfetch.detection.Firmware.Cloud;
import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.jspecify.annotations.Nullable;

/**
 * Reads the location and logical zone from Azure instance metadata. The rack offered
 * first is {@code <location>-<zone>}, as Kubernetes on Azure labels its nodes; the bare
 * zone number follows. The well-known address is not asked on a machine whose
 * {@link Firmware} says it is not an Azure VM; an endpoint set by property always is.
 *
 * @author follower-fetch authors
 */
public final class AzureMetadataRackSource extends MetadataRackSource {

	static final URI DEFAULT_ENDPOINT = URI.create("http://169.254.169.254");

	private static final String QUERY = "?api-version=2021-02-01&format=text";

	private final URI endpoint;

	private final boolean chosenByUser;

	private final Firmware firmware;

	AzureMetadataRackSource(MetadataHttpClient client, boolean enabled, @Nullable URI endpoint) {
		this(client, enabled, endpoint, Firmware.SYSTEM, DEFAULT_ENDPOINT);
	}

	AzureMetadataRackSource(MetadataHttpClient client, boolean enabled, @Nullable URI endpoint, Firmware firmware,
			URI defaultEndpoint) {
		super("azure", client, enabled);
		this.endpoint = (endpoint != null) ? endpoint : defaultEndpoint;
		this.chosenByUser = endpoint != null;
		this.firmware = firmware;
	}

	@Override
	RackLookup query(Duration timeout) throws MetadataException {
		String notAzure = (this.chosenByUser) ? null : this.firmware.rulesOut(Cloud.AZURE);
		if (notAzure != null) {
			return notAsked(notAzure, this.endpoint);
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		String zone = get("zone", timeout).strip();
		if (zone.isEmpty()) {
			return RackLookup.notFound("the VM is not in an availability zone (empty zone)");
		}
		String location = get("location", remaining(deadline)).strip();
		if (location.isEmpty()) {
			return RackLookup.found("zone", zone);
		}
		return RackLookup.found(List.of(new RackCandidate(location + "-" + zone, "location-zone"),
				new RackCandidate(zone, "zone")));
	}

	private String get(String field, Duration timeout) throws MetadataException {
		URI uri = this.endpoint.resolve("/metadata/instance/compute/" + field + QUERY);
		return this.client.fetch("GET", uri, Map.of("Metadata", "true"), timeout);
	}

}
