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

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Reads the demo topic for payments, where every millisecond counts. FRESHNESS keeps its
 * consumers on the partition leaders, which serve a record as soon as it is committed;
 * a follower serves it only once it has learnt the new high watermark.
 *
 * @author follower-fetch authors
 */
@Component
class PaymentsListener {

	static final String ID = "payments";

	private final EndToEndLatency latency;

	PaymentsListener(EndToEndLatency latency) {
		this.latency = latency;
	}

	@FetchPolicy(Policy.FRESHNESS)
	@KafkaListener(id = ID, topics = "${demo.topic}", groupId = "${demo.topic}-" + ID)
	void onPayment(ConsumerRecord<String, byte[]> payment) {
		this.latency.record(ID, payment);
	}

}
