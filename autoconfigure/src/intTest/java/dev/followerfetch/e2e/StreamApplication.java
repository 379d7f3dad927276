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

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.followerfetch.test.ConsumerReadStats;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.cloud.stream.binder.kafka.config.ClientFactoryCustomizer;
import org.springframework.cloud.stream.binder.kafka.support.ConsumerConfigCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.ConsumerFactory;

import static org.awaitility.Awaitility.await;

/**
 * A Spring Cloud Stream application with two functional consumers, {@code process} and
 * {@code audit} (bindings {@code process-in-0} and {@code audit-in-0}), and customizers of
 * its own: one that sets a consumer property and records which bindings it saw, one that
 * follows each consumer group's consumers, so that tests read the Kafka client's own
 * metrics without going through follower-fetch.
 *
 * @author follower-fetch authors
 */
@SpringBootConfiguration
@EnableAutoConfiguration
class StreamApplication {

	static final String USER_MAX_POLL_RECORDS = "77";

	@Bean
	Received received() {
		return new Received();
	}

	@Bean
	Consumer<String> process(Received received) {
		return (payload) -> received.add("process-in-0");
	}

	@Bean
	Consumer<String> audit(Received received) {
		return (payload) -> received.add("audit-in-0");
	}

	@Bean
	ConsumerConfigCustomizer userConsumerConfigCustomizer(Received received) {
		return (config, bindingName, destination) -> {
			config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, USER_MAX_POLL_RECORDS);
			received.customized.add(bindingName);
		};
	}

	@Bean
	ClientFactoryCustomizer userClientFactoryCustomizer(Received received) {
		return new ClientFactoryCustomizer() {

			@Override
			@SuppressWarnings("unchecked")
			public void configure(ConsumerFactory<?, ?> consumerFactory) {
				String group = (String) consumerFactory.getConfigurationProperties().get(ConsumerConfig.GROUP_ID_CONFIG);
				received.factories.put(group, consumerFactory);
				((ConsumerFactory<Object, Object>) consumerFactory).addListener(new ConsumerFactory.Listener<>() {

					@Override
					public void consumerAdded(String id, org.apache.kafka.clients.consumer.Consumer<Object, Object> consumer) {
						received.consumers.put(group, consumer);
					}

				});
			}

		};
	}

	/**
	 * What the application's functions and customizers saw.
	 */
	static final class Received {

		private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

		final Set<String> customized = ConcurrentHashMap.newKeySet();

		final Map<String, ConsumerFactory<?, ?>> factories = new ConcurrentHashMap<>();

		private final Map<String, org.apache.kafka.clients.consumer.Consumer<?, ?>> consumers = new ConcurrentHashMap<>();

		void add(String binding) {
			this.counts.computeIfAbsent(binding, (name) -> new AtomicInteger()).incrementAndGet();
		}

		int count(String binding) {
			AtomicInteger count = this.counts.get(binding);
			return (count != null) ? count.get() : 0;
		}

		void awaitReceived(String binding, int records) {
			await(binding + " receives " + records + " records").atMost(Duration.ofSeconds(60))
				.until(() -> count(binding) >= records);
		}

		/**
		 * Where the last consumer of a consumer group read from, as its own metrics say.
		 */
		ConsumerReadStats readStats(String group) {
			return ConsumerReadStats.of(this.consumers.get(group).metrics());
		}

	}

}
