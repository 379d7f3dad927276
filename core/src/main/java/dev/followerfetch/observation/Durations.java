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
package dev.followerfetch.observation;

import java.time.Duration;

import dev.followerfetch.InvalidSettingException;
import org.jspecify.annotations.Nullable;

/**
 * The checks of the observation's durations, each naming the property at fault.
 *
 * @author follower-fetch authors
 */
final class Durations {

	private Durations() {
	}

	static void positive(String property, @Nullable Duration value, String example) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new InvalidSettingException(property, value, "Must be a positive duration, for example " + example + ".");
		}
	}

	static void notNegative(String property, @Nullable Duration value, String example) {
		if (value == null || value.isNegative()) {
			throw new InvalidSettingException(property, value,
					"Must be zero or a positive duration, for example " + example + ".");
		}
	}

}
