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

import java.util.Collection;

/**
 * A source of consumers for the {@link ReadLocalityMonitor} to observe. Every bean of this
 * type is asked at each background refresh, never on a request thread: listener
 * containers, Kafka Streams applications and Spring Cloud Stream bindings each have one.
 *
 * @author follower-fetch authors
 */
@FunctionalInterface
public interface ObservedConsumers {

	/**
	 * The consumers this source knows of now.
	 * @return the consumers, each named group once
	 */
	Collection<ObservedConsumer> find();

}
