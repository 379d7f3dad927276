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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.Firmware.Cloud;
import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.jspecify.annotations.Nullable;


/**
 * Reads the availability zone id and name from EC2 instance metadata: IMDSv2 with a
 * session token, falling back to IMDSv1 when the token call fails (as it does in a
 * container when the hop limit is 1). The well-known address is not asked on a machine
 * whose {@link Firmware} says it is not an EC2 instance; an endpoint set by property or
 * {@code AWS_EC2_METADATA_SERVICE_ENDPOINT} always is.
 *
 * @author follower-fetch authors
 */
public final class Ec2MetadataRackSource extends MetadataRackSource {

	static final URI DEFAULT_ENDPOINT = URI.create("http://169.254.169.254");

	static final URI DEFAULT_IPV6_ENDPOINT = URI.create("http://[fd00:ec2::254]");

	static final String TOKEN_TTL_SECONDS = "60";

	private static final String ENDPOINT_VARIABLE = "AWS_EC2_METADATA_SERVICE_ENDPOINT";

	static final int MAX_TOKEN_LENGTH = 1024;

	private static final Pattern TOKEN = Pattern.compile("[\\x21-\\x7e]{1," + MAX_TOKEN_LENGTH + "}");

	private final @Nullable URI endpoint;

	private final ZoneFormat zoneFormat;

	private final Function<String, @Nullable String> environment;

	private final Firmware firmware;

	private final URI defaultEndpoint;

	private final URI defaultIpv6Endpoint;

	Ec2MetadataRackSource(MetadataHttpClient client, boolean enabled, @Nullable URI endpoint, ZoneFormat zoneFormat,
			Function<String, @Nullable String> environment) {
		this(client, enabled, endpoint, zoneFormat, environment, Firmware.SYSTEM, DEFAULT_ENDPOINT,
				DEFAULT_IPV6_ENDPOINT);
	}

	Ec2MetadataRackSource(MetadataHttpClient client, boolean enabled, @Nullable URI endpoint, ZoneFormat zoneFormat,
			Function<String, @Nullable String> environment, Firmware firmware, URI defaultEndpoint, URI defaultIpv6Endpoint) {
		super("aws", client, enabled);
		this.endpoint = endpoint;
		this.zoneFormat = zoneFormat;
		this.environment = environment;
		this.firmware = firmware;
		this.defaultEndpoint = defaultEndpoint;
		this.defaultIpv6Endpoint = defaultIpv6Endpoint;
	}

	@Override
	RackLookup query(Duration timeout) throws MetadataException {
		if ("true".equalsIgnoreCase(MetadataEndpoints.variable(this.environment, "AWS_EC2_METADATA_DISABLED"))) {
			return RackLookup.notFound("disabled by AWS_EC2_METADATA_DISABLED=true");
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		URI base = endpoint();
		boolean chosenByUser = this.endpoint != null
				|| MetadataEndpoints.variable(this.environment, ENDPOINT_VARIABLE) != null;
		String notEc2 = (chosenByUser) ? null : this.firmware.rulesOut(Cloud.AWS);
		if (notEc2 != null) {
			return notAsked(notEc2, base);
		}
		Map<String, String> headers = Map.of();
		String tokenFailure = null;
		try {
			URI tokenUri = base.resolve("/latest/api/token");
			String token = this.client.fetch("PUT", tokenUri,
					Map.of("X-aws-ec2-metadata-token-ttl-seconds", TOKEN_TTL_SECONDS), timeout.dividedBy(2)).strip();
			if (!TOKEN.matcher(token).matches()) {
				throw new MetadataException(tokenUri + " answered a token that is not 1 to " + MAX_TOKEN_LENGTH
						+ " printable ASCII characters");
			}
			headers = Map.of("X-aws-ec2-metadata-token", token);
		}
		catch (MetadataException ex) {
			tokenFailure = ex.getMessage();
		}
		List<RackCandidate> candidates = new ArrayList<>();
		MetadataException failure = null;
		for (String attribute : attributes()) {
			try {
				String value = this.client.fetch("GET", base.resolve("/latest/meta-data/placement/" + attribute),
						headers, remaining(deadline));
				candidates.add(new RackCandidate(value, attribute));
			}
			catch (MetadataException ex) {
				failure = (failure != null) ? failure : ex;
			}
		}
		if (candidates.isEmpty()) {
			String only = (this.zoneFormat != ZoneFormat.AUTO) ? " (" + setting("detection.aws.zone-format") + "="
					+ this.zoneFormat.name().toLowerCase(Locale.ROOT) + " asks for this form only)" : "";
			throw (tokenFailure != null)
					? new MetadataException(
							"IMDSv2 token: " + tokenFailure + "; IMDSv1: " + reason(failure) + only)
					: new MetadataException(reason(failure) + only);
		}
		return RackLookup.found(candidates);
	}


	private static String reason(@Nullable MetadataException failure) {
		return (failure != null) ? String.valueOf(failure.getMessage()) : "no placement attribute was asked";
	}

	/**
	 * The placement attributes to read, the preferred first: both for {@code auto}, so
	 * that the brokers' racks can decide, only the one asked for otherwise.
	 */
	private List<String> attributes() {
		return switch (this.zoneFormat) {
			case ID -> List.of("availability-zone-id");
			case NAME -> List.of("availability-zone");
			case AUTO -> List.of("availability-zone-id", "availability-zone");
		};
	}

	URI endpoint() throws MetadataException {
		String mode = MetadataEndpoints.variable(this.environment, "AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE");
		URI fallback = ("IPv6".equalsIgnoreCase(mode)) ? this.defaultIpv6Endpoint : this.defaultEndpoint;
		return MetadataEndpoints.resolve(this.endpoint, ENDPOINT_VARIABLE, this.environment, fallback);
	}

}
