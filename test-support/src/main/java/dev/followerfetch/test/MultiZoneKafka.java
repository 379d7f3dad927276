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
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a multi-zone Kafka cluster for a Spring test class, as spring-kafka's
 * {@code @EmbeddedKafka} runs one broker: the cluster starts with the test's application
 * context, before any of its beans, is a bean of it ({@link ZonedKafkaCluster}, so
 * {@code @Autowired} reaches it), gives its bootstrap servers to
 * {@code spring.kafka.bootstrap-servers}, and stops when the context closes, after every
 * client of the application has. Contexts with the same annotation share one cluster
 * through Spring's context cache.
 * <pre class="code">
 * &#064;SpringBootTest(properties = "follower-fetch.rack=az-b")
 * &#064;MultiZoneKafka(topics = "orders")
 * class OrdersTests {
 * </pre>
 * The brokers run in the test JVM ({@link MultiZoneKafkaCluster}), or, with
 * {@code containers = true}, as processes in {@code apache/kafka} containers
 * ({@link MultiZoneKafkaContainers}); a class that asks for containers is skipped, with
 * the reason, where they cannot run. Works the same on Spring Boot 3.5 and 4.
 *
 * @author follower-fetch authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KafkaContainersCondition.class)
public @interface MultiZoneKafka {

	/**
	 * The zones, one broker in each, in broker id order.
	 * @return distinct zone names
	 */
	String[] zones() default { "az-a", "az-b", "az-c" };

	/**
	 * Whether the brokers run as processes in containers rather than in the test JVM.
	 * @return {@code true} for containers
	 */
	boolean containers() default false;

	/**
	 * The image of the containers, for example {@code apache/kafka:3.9.1}; empty for the
	 * {@code apache/kafka} image of the kafka-clients version on the class path.
	 * @return the image name
	 */
	String image() default "";

	/**
	 * Whether the brokers use the rack-aware replica selector, which lets consumers with
	 * {@code client.rack} read from a follower.
	 * @return {@code false} for brokers that serve every read from the leader
	 */
	boolean replicaSelector() default true;

	/**
	 * Properties of every broker, as {@code name=value}.
	 * @return the properties
	 */
	String[] brokerProperties() default {};

	/**
	 * Topics to create before the application starts, each led by every zone in turn
	 * ({@link ZonedKafkaCluster#createTopicLedByEveryZone(String, int, int)}).
	 * @return the topic names
	 */
	String[] topics() default {};

	/**
	 * The number of partitions of each of {@link #topics()}.
	 * @return the partition count
	 */
	int partitions() default 6;

	/**
	 * The replication factor of each of {@link #topics()}: at most the number of zones.
	 * @return the replication factor
	 */
	int replicationFactor() default 3;

	/**
	 * The properties that get the cluster's bootstrap servers.
	 * @return the property names
	 */
	String[] bootstrapServersProperty() default { "spring.kafka.bootstrap-servers" };

}
