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
package dev.followerfetch.sample;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Reads the demo topic for analytics, where a record a few hundred milliseconds old is as
 * good as a new one. It names no fetch policy, so the default, LOCALITY, applies: its
 * consumers read from an in-sync replica in their own zone.
 *
 * @author follower-fetch authors
 */
@Component
class AnalyticsListener {

	static final String ID = "analytics";

	private final EndToEndLatency latency;

	AnalyticsListener(EndToEndLatency latency) {
		this.latency = latency;
	}

	@KafkaListener(id = ID, topics = "${demo.topic}", groupId = "${demo.topic}-" + ID)
	void onEvent(ConsumerRecord<String, byte[]> event) {
		this.latency.record(ID, event);
	}

}
