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
package dev.followerfetch;

import java.util.Map;
import java.util.function.Predicate;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.kafka.KafkaAutoConfiguration;
import org.springframework.boot.autoconfigure.kafka.KafkaProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;

/**
 * What the shared tests need from Spring Boot where Boot 4 and Boot 3 name it differently:
 * this is Boot 3's, and {@code autoconfigure/src/test-boot4/java} has Boot 4's, so the
 * tests themselves are one source for both lines.
 *
 * @author follower-fetch authors
 */
public final class BootApis {

	/**
	 * Spring Boot's Kafka auto-configuration.
	 */
	public static final Class<?> KAFKA_AUTO_CONFIG = KafkaAutoConfiguration.class;

	/**
	 * The type of a health indicator, for a class loader that hides Actuator.
	 */
	public static final Class<?> HEALTH_INDICATOR = HealthIndicator.class;

	private BootApis() {
	}

	/**
	 * What the {@code followerFetch} health contributor of an application says now.
	 * @param context the application
	 * @return its status and details
	 */
	public static HealthReading health(ApplicationContext context) {
		HealthIndicator indicator = context.getBean("followerFetchHealthIndicator", HealthIndicator.class);
		Health health = indicator.getHealth(true);
		return new HealthReading(health.getStatus().getCode(), health.getDetails());
	}

	/**
	 * A health indicator bean of the application's own, up with the given details.
	 * @param runner the runner to add it to
	 * @param name its bean name
	 * @param details its details
	 * @return the runner with the bean
	 */
	public static ApplicationContextRunner withHealthIndicator(ApplicationContextRunner runner, String name,
			Map<String, Object> details) {
		return runner.withBean(name, HealthIndicator.class, () -> () -> Health.up().withDetails(details).build());
	}

	/**
	 * The consumer properties of {@code spring.kafka.*}, before any post-processor.
	 * @param context the application
	 * @return a mutable copy
	 */
	public static Map<String, Object> consumerProperties(ApplicationContext context) {
		return kafkaProperties(context).buildConsumerProperties();
	}

	/**
	 * Spring Boot's {@code KafkaProperties} of an application, as a test that builds a
	 * consumer the documented way uses them.
	 * @param context the application
	 * @return its consumer properties, built on each call
	 */
	public static ConsumerProperties kafkaProperties(ApplicationContext context) {
		KafkaProperties properties = context.getBean(KafkaProperties.class);
		return properties::buildConsumerProperties;
	}

	/**
	 * The port of an application's web server.
	 * @param context the application
	 * @return the port
	 */
	public static int port(ApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	/**
	 * Whether runtime hints allow reading and writing a field by reflection.
	 * @param type the declaring class
	 * @param field the field's name
	 * @return the predicate
	 */
	public static Predicate<RuntimeHints> fieldAccess(Class<?> type, String field) {
		return RuntimeHintsPredicates.reflection().onField(type, field);
	}

	/**
	 * Whether runtime hints allow invoking a method by reflection.
	 * @param type the declaring class
	 * @param method the method's name
	 * @return the predicate
	 */
	public static Predicate<RuntimeHints> methodInvocation(Class<?> type, String method) {
		return RuntimeHintsPredicates.reflection().onMethod(type, method);
	}

	/**
	 * What {@code KafkaProperties} builds for a consumer.
	 */
	@FunctionalInterface
	public interface ConsumerProperties {

		/**
		 * The consumer properties of {@code spring.kafka.*}.
		 * @return a mutable map
		 */
		Map<String, Object> buildConsumerProperties();

	}

	/**
	 * A health contributor's answer.
	 *
	 * @param status its status code
	 * @param details its details
	 */
	public record HealthReading(String status, Map<String, Object> details) {

	}

}
