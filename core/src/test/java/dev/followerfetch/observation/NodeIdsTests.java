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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link NodeIds}.
 *
 * @author follower-fetch authors
 */
class NodeIdsTests {

	@Test
	void aPlainNodeNumberIsABroker() {
		assertThat(NodeIds.brokerId("node-0")).hasValue(0);
		assertThat(NodeIds.brokerId("node-12")).hasValue(12);
	}

	@Test
	void bootstrapAndCoordinatorConnectionsAreNoBrokers() {
		assertThat(NodeIds.brokerId("node--1")).isEmpty();
		assertThat(NodeIds.brokerId("node-+0")).isEmpty();
		assertThat(NodeIds.brokerId("node-2147483647")).isEmpty();
		assertThat(NodeIds.brokerId("node-")).isEmpty();
		assertThat(NodeIds.brokerId(null)).isEmpty();
	}

}
