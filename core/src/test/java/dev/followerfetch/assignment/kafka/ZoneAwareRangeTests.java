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
package dev.followerfetch.assignment.kafka;

import java.lang.reflect.Field;

import org.apache.kafka.clients.consumer.RangeAssignorTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kafka's {@code RangeAssignorTest}, on the zone-aware assignor as the starter puts it
 * before the range assignor (Kafka's default list starts with it).
 *
 * @author follower-fetch authors
 */
@ExtendWith(KafkaSuite.class)
class ZoneAwareRangeTests extends RangeAssignorTest {

	@BeforeEach
	void holdTheZoneAwareAssignor() throws ReflectiveOperationException {
		// the test's own "private final RangeAssignor assignor"
		Field assignor = RangeAssignorTest.class.getDeclaredField("assignor");
		assignor.setAccessible(true);
		assignor.set(this, new RangeAdapter());
	}

}
