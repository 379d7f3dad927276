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

import java.time.Duration;

import org.apache.kafka.common.config.ConfigException;
import org.jspecify.annotations.Nullable;

/**
 * A follower-fetch setting with a value it cannot use, named as the user wrote it: a
 * {@code follower-fetch.*} property under Spring Boot, a parameter of the zone config
 * provider elsewhere. A Kafka {@link ConfigException}, so Kafka clients and Connect
 * report it as they report their own.
 *
 * @author follower-fetch authors
 */
public class InvalidSettingException extends ConfigException {

	private static final long serialVersionUID = 1L;

	private final String setting;

	private final transient @Nullable Object value;

	private final String reason;

	/**
	 * Create an exception for one setting.
	 * @param setting the setting's name, for example {@code follower-fetch.client-id-zone}
	 * @param value the value it has
	 * @param reason what a value must be
	 */
	public InvalidSettingException(String setting, @Nullable Object value, String reason) {
		super(setting, value, reason);
		this.setting = setting;
		this.value = value;
		this.reason = reason;
	}

	/**
	 * Check a duration that must be more than zero.
	 * @param setting the setting's name
	 * @param value the value it has
	 * @param reason what a value must be
	 * @throws InvalidSettingException for zero, a negative duration or none
	 */
	public static void requirePositive(String setting, @Nullable Duration value, String reason) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new InvalidSettingException(setting, value, reason);
		}
	}

	/**
	 * Check a duration that may be zero but not negative.
	 * @param setting the setting's name
	 * @param value the value it has
	 * @param reason what a value must be
	 * @throws InvalidSettingException for a negative duration or none
	 */
	public static void requireNotNegative(String setting, @Nullable Duration value, String reason) {
		if (value == null || value.isNegative()) {
			throw new InvalidSettingException(setting, value, reason);
		}
	}

	/**
	 * The setting at fault.
	 * @return its name
	 */
	public String setting() {
		return this.setting;
	}

	/**
	 * The value it has.
	 * @return the value, or {@code null}
	 */
	public @Nullable Object value() {
		return this.value;
	}

	/**
	 * What a value must be.
	 * @return one or two sentences
	 */
	public String reason() {
		return this.reason;
	}

}
