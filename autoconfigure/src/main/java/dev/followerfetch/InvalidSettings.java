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

import java.util.function.Supplier;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Reports a setting the core cannot use as Spring Boot reports its own invalid
 * properties: the failure analysis then quotes the value where it was written.
 *
 * @author follower-fetch authors
 */
public final class InvalidSettings {

	private InvalidSettings() {
	}

	/**
	 * Build something from {@code follower-fetch.*} properties.
	 * @param <T> what is built
	 * @param builder builds it, throwing {@link InvalidSettingException} for a property
	 * it cannot use
	 * @return what was built
	 * @throws InvalidConfigurationPropertyValueException naming that property
	 */
	public static <T> T checked(Supplier<T> builder) {
		try {
			return builder.get();
		}
		catch (InvalidSettingException ex) {
			throw new InvalidConfigurationPropertyValueException(ex.setting(), ex.value(), ex.reason());
		}
	}

}
