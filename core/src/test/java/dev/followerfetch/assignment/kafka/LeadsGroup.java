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

/**
 * An adapter a Kafka test holds as its assignor, and the group it leads.
 *
 * @author follower-fetch authors
 */
interface LeadsGroup {

	/**
	 * The group this adapter leads.
	 * @return the group
	 */
	StarterGroup group();

}
