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

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.TopicBuilder;

/**
 * The follower-fetch sample: a producer, two listeners with different fetch policies, and
 * a table of where each listener reads from. Without {@code spring.kafka.bootstrap-servers}
 * it runs against a local three-zone cluster and plays a process in zone az-b.
 *
 * @author follower-fetch authors
 */
@SpringBootApplication
@EnableConfigurationProperties(DemoProperties.class)
public class SampleApplication {

	public static void main(String[] args) {
		application().run(args);
	}

	/**
	 * The application as {@link #main(String[])} runs it.
	 * @return the application, ready to run
	 */
	static SpringApplication application() {
		SpringApplication application = new SpringApplication(SampleApplication.class);
		application.addInitializers(new LocalCloudInitializer());
		return application;
	}

	@Bean
	NewTopic demoTopic(DemoProperties properties) {
		return TopicBuilder.name(properties.getTopic())
			.partitions(properties.getPartitions())
			.replicas(properties.getReplicationFactor())
			.build();
	}

}
