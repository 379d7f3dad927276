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

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;

/**
 * A rack source that asks a metadata endpoint through the shared
 * {@link MetadataHttpClient}, and that {@code follower-fetch.detection.<name>.enabled}
 * switches off.
 *
 * @author follower-fetch authors
 */
abstract class MetadataRackSource implements RackSource {

	final MetadataHttpClient client;

	private final String name;

	private final boolean enabled;

	private String settingPrefix = DetectionSettings.SPRING_BOOT_PREFIX;

	MetadataRackSource(String name, MetadataHttpClient client, boolean enabled) {
		this.name = name;
		this.client = client;
		this.enabled = enabled;
	}

	/**
	 * Name settings in messages as the user writes them; called once, before the source is
	 * used.
	 * @param prefix what the user writes before a setting's name
	 */
	void settingPrefix(String prefix) {
		this.settingPrefix = prefix;
	}

	/**
	 * A setting's name as the user writes it.
	 * @param key the name without the prefix, for example {@code detection.aws.endpoint}
	 * @return the full name
	 */
	final String setting(String key) {
		return this.settingPrefix + key;
	}

	@Override
	public final String name() {
		return this.name;
	}

	@Override
	public final RackLookup lookup(Duration timeout) throws MetadataException {
		if (!this.enabled) {
			return RackLookup.notFound("disabled by " + setting("detection." + this.name + ".enabled") + "=false");
		}
		return query(timeout);
	}

	/**
	 * Ask the endpoint.
	 * @param timeout the time left in the detection budget
	 * @return the candidates found, or the reason there are none
	 * @throws MetadataException on any failure to get a usable answer
	 */
	abstract RackLookup query(Duration timeout) throws MetadataException;

	/**
	 * The answer of a source that did not ask its provider's well-known address because
	 * the firmware rules that provider out.
	 * @param reason what the firmware says, from {@link Firmware#rulesOut}
	 * @param endpoint the address not asked
	 * @return the lookup
	 */
	static RackLookup notAsked(String reason, URI endpoint) {
		return RackLookup.notFound(reason + ", so " + endpoint + " was not asked");
	}

	/**
	 * The time left before a deadline, never negative.
	 * @param deadline a {@link System#nanoTime()} deadline
	 * @return the time left
	 */
	static Duration remaining(long deadline) {
		return Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0));
	}

}
