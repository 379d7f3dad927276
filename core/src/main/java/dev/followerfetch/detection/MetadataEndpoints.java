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
import java.net.URISyntaxException;
import java.util.function.Function;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.jspecify.annotations.Nullable;


/**
 * Resolves metadata endpoints: an explicit property first, then the variable the
 * provider's own SDKs honour, then the provider's well-known address.
 *
 * @author follower-fetch authors
 */
final class MetadataEndpoints {

	private MetadataEndpoints() {
	}

	/**
	 * The endpoint to use.
	 * @param configured the endpoint from a property, or {@code null}
	 * @param variable the environment variable to consult next
	 * @param environment environment lookup
	 * @param fallback the well-known address
	 * @return the endpoint
	 * @throws MetadataException if the variable does not hold a valid URL or host
	 */
	static URI resolve(@Nullable URI configured, String variable, Function<String, @Nullable String> environment,
			URI fallback)
			throws MetadataException {
		if (configured != null) {
			return configured;
		}
		String value = variable(environment, variable);
		return (value != null) ? parse(value, variable) : fallback;
	}

	/**
	 * Read an environment variable.
	 * @param environment environment lookup
	 * @param name the variable
	 * @return its value without surrounding whitespace, or {@code null} if it is not set or blank
	 */
	static @Nullable String variable(Function<String, @Nullable String> environment, String name) {
		String value = environment.apply(name);
		String stripped = (value != null) ? value.strip() : "";
		return stripped.isEmpty() ? null : stripped;
	}

	/**
	 * Parse an endpoint given as a URL or as a bare {@code host[:port]}.
	 * @param value the value
	 * @param origin what the value came from, for the error message
	 * @return the endpoint
	 * @throws MetadataException if the value is not an HTTP URL or host
	 */
	static URI parse(String value, String origin) throws MetadataException {
		String url = value.contains("://") ? value : "http://" + value;
		try {
			URI uri = new URI(url);
			if (!("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
					|| uri.getHost() == null) {
				throw new URISyntaxException(url, "not an http(s) URL with a host");
			}
			return uri;
		}
		catch (URISyntaxException ex) {
			throw new MetadataException(origin + " holds " + RackValues.quote(value) + ", which is not an http(s) URL");
		}
	}

}
