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
package dev.followerfetch.e2e;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;

/**
 * A web application with the starter, Actuator and two listeners on one topic: analytics
 * follows the default policy, payments keeps to the leaders; with {@code test.misrouted} a
 * third listener reads as if it were in az-a; with {@code test.other-cluster} a listener
 * reads {@code test.other-topic} from that other cluster.
 *
 * @author follower-fetch authors
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class HealthApplication {

	@Bean
	Listeners listeners() {
		return new Listeners();
	}

	@Bean
	Revocations revocations() {
		return new Revocations();
	}

	@Bean
	PolicyListeners policyListeners(Listeners listeners) {
		return new PolicyListeners(listeners);
	}

	@Bean
	@ConditionalOnBooleanProperty("test.misrouted")
	MisroutedListener misroutedListener(Listeners listeners) {
		return new MisroutedListener(listeners);
	}

	@Bean
	@ConditionalOnProperty("test.other-cluster")
	OtherClusterListener otherClusterListener(Listeners listeners) {
		return new OtherClusterListener(listeners);
	}

	static class OtherClusterListener {

		private final Listeners listeners;

		OtherClusterListener(Listeners listeners) {
			this.listeners = listeners;
		}

		@KafkaListener(id = "elsewhere", topics = "${test.other-topic}", groupId = "${test.group}-elsewhere",
				properties = "bootstrap.servers=${test.other-cluster}")
		void elsewhere(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received("elsewhere", record);
		}

	}

	static class MisroutedListener {

		private final Listeners listeners;

		MisroutedListener(Listeners listeners) {
			this.listeners = listeners;
		}

		@KafkaListener(id = "misrouted", topics = "${test.topic}", groupId = "${test.group}-misrouted",
				properties = "client.rack=az-a")
		void misrouted(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received("misrouted", record);
		}

	}

	static class PolicyListeners {

		private final Listeners listeners;

		PolicyListeners(Listeners listeners) {
			this.listeners = listeners;
		}

		@KafkaListener(id = "analytics", topics = "${test.topic}", groupId = "${test.group}-analytics")
		void analytics(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received("analytics", record);
		}

		@FetchPolicy(Policy.FRESHNESS)
		@KafkaListener(id = "payments", topics = "${test.topic}", groupId = "${test.group}-payments")
		void payments(ConsumerRecord<byte[], byte[]> record) {
			this.listeners.received("payments", record);
		}

	}

}
