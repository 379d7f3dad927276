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
package dev.followerfetch.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class or method only where Kafka broker containers can run: a Docker engine
 * that Testcontainers reaches, and the image, present or pulled within 30 s. Elsewhere it
 * is skipped with one line that says why; with the system property
 * {@code follower-fetch.test.containers=required} it fails instead.
 *
 * @author follower-fetch authors
 * @see MultiZoneKafkaContainers
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(KafkaContainersCondition.class)
public @interface EnabledIfKafkaContainers {

	/**
	 * The image the test runs, for example {@code apache/kafka:3.9.1}; empty for the
	 * {@code apache/kafka} image of the kafka-clients version on the class path.
	 * @return the image name
	 */
	String image() default "";

}
