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

/**
 * Where a Kafka listener reads from: freshness versus locality.
 *
 * @author follower-fetch authors
 * @see FetchPolicy
 */
public enum Policy {

	/**
	 * Read from an in-sync replica in the consumer's own zone: no cross-zone transfer,
	 * but records arrive up to {@code replica.fetch.wait.max.ms} (500 ms by default) later
	 * than from the leader.
	 */
	LOCALITY,

	/**
	 * Read from the partition leader, wherever it is: the freshest records, paid for in
	 * cross-zone transfer.
	 */
	FRESHNESS

}
