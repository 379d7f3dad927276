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

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link BootLine}, run by both Boot lines: each adapter is built for the Spring
 * Boot it runs on here, and refuses another, naming the starter to use.
 *
 * @author follower-fetch authors
 */
class BootLineTests {

	@Test
	void theAdapterIsBuiltForTheSpringBootItRunsOn() {
		assertThat(SpringBootVersion.getVersion()).startsWith(BootLine.MAJOR + ".");
		assertThatNoException().isThrownBy(() -> BootLine.requireRunning(SpringBootVersion.getVersion()));
	}

	@Test
	void anotherSpringBootLineFailsNamingTheStarterToUse() {
		String other = (BootLine.MAJOR == 4) ? "3.5.7" : "4.0.7";
		assertThatIllegalStateException().isThrownBy(() -> BootLine.requireRunning(other))
			.withMessageStartingWith(BootLine.starter(BootLine.MAJOR) + " is built for Spring Boot " + BootLine.MAJOR
					+ ".x, and this application runs Spring Boot " + other + ": use "
					+ BootLine.starter((BootLine.MAJOR == 4) ? 3 : 4));
	}

	@Test
	void eachLineNamesItsOwnStarter() {
		assertThat(BootLine.starter(4)).isEqualTo("follower-fetch-spring-boot-starter");
		assertThat(BootLine.starter(3)).isEqualTo("follower-fetch-spring-boot3-starter");
	}

	@Test
	void anUnknownVersionIsNoReasonToFail() {
		assertThatNoException().isThrownBy(() -> BootLine.requireRunning(null));
		assertThatNoException().isThrownBy(() -> BootLine.requireRunning("snapshot"));
	}

}
