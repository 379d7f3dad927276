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

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Sends the steady stream of records both listeners read: one record per call, keyed so
 * that the records spread over all partitions. Failures are logged by the template's
 * producer listener.
 *
 * @author follower-fetch authors
 */
@Component
class DemoEventProducer {

	private final KafkaTemplate<String, byte[]> kafkaTemplate;

	private final String topic;

	private final byte[] value;

	private final AtomicLong sent = new AtomicLong();

	DemoEventProducer(KafkaTemplate<String, byte[]> kafkaTemplate, DemoProperties properties) {
		this.kafkaTemplate = kafkaTemplate;
		this.topic = properties.getTopic();
		this.value = new byte[Math.toIntExact(properties.getRecordSize().toBytes())];
	}

	/**
	 * Send one record.
	 */
	void send() {
		this.kafkaTemplate.send(this.topic, "event-" + this.sent.incrementAndGet(), this.value);
	}

}
