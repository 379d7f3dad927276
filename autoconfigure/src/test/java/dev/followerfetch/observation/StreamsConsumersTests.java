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

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import dev.followerfetch.application.StreamsApplications;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StreamsConsumers}.
 *
 * @author follower-fetch authors
 */
class StreamsConsumersTests {

	@Test
	void aFactoryThatHasNotStartedShowsNothing() {
		StreamsBuilderFactoryBean factory = new StreamsBuilderFactoryBean(
				new KafkaStreamsConfiguration(Map.of(StreamsConfig.APPLICATION_ID_CONFIG, "idle",
						StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9")));
		factory.setAutoStartup(false);
		StaticListableBeanFactory beanFactory = new StaticListableBeanFactory(Map.of("&idle", factory));
		assertThat(new StreamsConsumers(beanFactory, beanFactory.getBeanProvider(StreamsApplications.class)).find())
			.isEmpty();
	}

	@Test
	void anApplicationThatIsCreatedOrClosedHasNoMetrics() {
		Properties config = new Properties();
		config.put(StreamsConfig.APPLICATION_ID_CONFIG, "created");
		config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
		StreamsBuilder builder = new StreamsBuilder();
		builder.stream("input");
		KafkaStreams streams = new KafkaStreams(builder.build(), config);
		try {
			assertThat(streams.state()).isEqualTo(KafkaStreams.State.CREATED);
			assertThat(StreamsConsumers.metrics(streams)).isEmpty();
		}
		finally {
			streams.close(Duration.ofSeconds(5));
		}
		assertThat(streams.state()).isEqualTo(KafkaStreams.State.NOT_RUNNING);
		assertThat(StreamsConsumers.metrics(streams)).isEmpty();
	}

}
