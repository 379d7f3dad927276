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

package dev.followerfetch.test;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link KafkaInternals}.
 *
 * @author follower-fetch authors
 */
class KafkaInternalsTests {

	@Test
	void testKitOfAnotherKafkaVersionFailsWithThePinToAdd() {
		assertThatIllegalStateException()
			.isThrownBy(() -> KafkaInternals.checkTestKitVersion(
					"/m2/org/apache/kafka/kafka-test-common-runtime/4.2.2/kafka-test-common-runtime-4.2.2.jar", "4.3.1"))
			.withMessageContaining("version 4.2.2 but Kafka is version 4.3.1")
			.withMessageContaining("kafka-test-common-runtime")
			.withMessageContaining("kafka-test-common-internal-api");
	}

	@Test
	void testKitOfTheKafkaVersionPasses() {
		assertThatNoException().isThrownBy(() -> KafkaInternals.checkTestKitVersion(
				"/m2/org/apache/kafka/kafka-test-common-runtime/4.3.1/kafka-test-common-runtime-4.3.1.jar", "4.3.1"));
	}

	@Test
	void testKitWithoutAVersionInItsLocationPasses() {
		assertThatNoException()
			.isThrownBy(() -> KafkaInternals.checkTestKitVersion("/work/kafka/test-common/build/classes/", "4.3.1"));
	}

	@Test
	void buildPassesTheVersionCheckOfThisClassPath() {
		assertThatNoException().isThrownBy(KafkaInternals::checkTestKitVersion);
	}

	@Test
	void kafkaVersionIsTheClientsVersion() {
		assertThat(KafkaInternals.kafkaVersion()).matches("4\\.\\d+\\.\\d+.*");
	}

}
