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

import java.time.Duration;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedRateTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Runs the producer and the report on Spring's task scheduler, at the intervals set in
 * {@link DemoProperties}, in the first instance only: it sends the records for all
 * instances and prints the table of all of them.
 *
 * @author follower-fetch authors
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
class DemoSchedule implements SchedulingConfigurer {

	private final DemoProperties properties;

	private final DemoEventProducer producer;

	private final ReadLocalityReporter reporter;

	DemoSchedule(DemoProperties properties, DemoEventProducer producer, ReadLocalityReporter reporter) {
		this.properties = properties;
		this.producer = producer;
		this.reporter = reporter;
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar tasks) {
		if (this.properties.getInstance() != 1) {
			return;
		}
		tasks.addFixedRateTask(this.producer::send, this.properties.getSendInterval());
		Duration reportInterval = this.properties.getReportInterval();
		tasks.addFixedRateTask(new FixedRateTask(this.reporter::print, reportInterval, reportInterval));
	}

}
