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

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import dev.followerfetch.detection.MetadataHttpClient.Response;

import org.springframework.util.StringUtils;

/**
 * Reads the zone from the GCP metadata server, which answers
 * {@code projects/<number>/zones/<zone>} to requests carrying {@code Metadata-Flavor: Google}.
 * <p>
 * The default endpoint is a host name, and a name lookup cannot be bounded or
 * interrupted. On a machine whose firmware says it is not a Google Compute Engine VM
 * ({@code /sys/class/dmi/id/product_name}, as Google's own client libraries check), the
 * default endpoint is not asked at all. A configured endpoint or {@code GCE_METADATA_HOST}
 * always is.
 *
 * @author follower-fetch authors
 */
final class GcpMetadataRackSource extends MetadataRackSource {

	static final URI DEFAULT_ENDPOINT = URI.create("http://metadata.google.internal");

	static final Path PRODUCT_NAME = Path.of("/sys/class/dmi/id/product_name");

	private static final String HOST_VARIABLE = "GCE_METADATA_HOST";

	private static final String FLAVOR = "Metadata-Flavor";

	private static final Pattern ZONE = Pattern.compile("projects/[0-9]+/zones/([^/\\s]+)");

	private final URI endpoint;

	private final Function<String, String> environment;

	private final Path productName;

	private final URI defaultEndpoint;

	GcpMetadataRackSource(MetadataHttpClient client, boolean enabled, URI endpoint,
			Function<String, String> environment) {
		this(client, enabled, endpoint, environment, PRODUCT_NAME, DEFAULT_ENDPOINT);
	}

	GcpMetadataRackSource(MetadataHttpClient client, boolean enabled, URI endpoint,
			Function<String, String> environment, Path productName, URI defaultEndpoint) {
		super("gcp", client, enabled);
		this.endpoint = endpoint;
		this.environment = environment;
		this.productName = productName;
		this.defaultEndpoint = defaultEndpoint;
	}

	@Override
	RackLookup query(Duration timeout) throws MetadataException {
		URI base = MetadataEndpoints.resolve(this.endpoint, HOST_VARIABLE, this.environment, this.defaultEndpoint);
		boolean chosenByUser = this.endpoint != null
				|| StringUtils.hasText(MetadataEndpoints.variable(this.environment, HOST_VARIABLE));
		if (!chosenByUser) {
			String product = productName(this.productName);
			if (product != null && !product.contains("Google")) {
				return RackLookup.notFound("not a Google Compute Engine VM (" + this.productName + " is "
						+ RackValues.quote(product) + "), so " + this.defaultEndpoint + " was not asked");
			}
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
	 * The product name the machine's firmware reports.
	 * @param file the DMI product name file
	 * @return the product name, or {@code null} when the file cannot be read (not Linux, or
	 * a sandbox that hides it)
	 */
	static String productName(Path file) {
		try {
			if (!Files.isRegularFile(file) || Files.size(file) > 256) {
				return null;
			}
			return Files.readString(file, StandardCharsets.ISO_8859_1).strip();
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * The zone in the metadata server's answer.
	 * @param body the answer
	 * @return the zone, or {@code null} if the answer is not
	 * {@code projects/<number>/zones/<zone>}
	 */
	static String zoneOf(String body) {
		Matcher matcher = ZONE.matcher(body.strip());
		return matcher.matches() ? matcher.group(1) : null;
	}

}
