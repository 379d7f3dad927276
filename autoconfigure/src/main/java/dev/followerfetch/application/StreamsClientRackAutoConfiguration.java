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
package dev.followerfetch.application;

import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientRackDecider;
import org.apache.kafka.streams.KafkaStreams;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * Auto-configuration that gives the consumers of every Kafka Streams application
 * ({@link StreamsBuilderFactoryBean} beans, Boot's and the application's own) the
 * {@code client.rack} of its fetch policy.
 *
 * @author follower-fetch authors
 */
@AutoConfiguration(after = ClientRackAutoConfiguration.class)
@ConditionalOnClass({ KafkaStreams.class, StreamsBuilderFactoryBean.class })
@ConditionalOnBooleanProperty(name = "follower-fetch.enabled", matchIfMissing = true)
public final class StreamsClientRackAutoConfiguration {

	@Bean
	static StreamsClientRackPostProcessor followerFetchStreamsClientRackPostProcessor(
			ObjectProvider<ClientRackDecider> decider, ObjectProvider<AppliedPlans> applied,
			ObjectProvider<StreamsApplications> applications) {
		return new StreamsClientRackPostProcessor(decider, applied, applications);
	}

	@Bean
	static StreamsApplications followerFetchStreamsApplications() {
		return new StreamsApplications();
	}

}
