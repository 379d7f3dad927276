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

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.followerfetch.observation.ProducerMetricsReader.ProducerClient;

/**
 * One producer factory, as the monitor sees it.
 *
 * @param name the factory's bean name, or its template's
 * @param rackAware whether its producers partition records without a key by rack
 * @param clients what each live producer reports
 * @author follower-fetch authors
 */
record ObservedProducer(String name, boolean rackAware, List<ProducerClient> clients) {

	/**
	 * The topics its producers have written to.
	 * @return the topics, sorted
	 */
	Set<String> topics() {
		Set<String> topics = new TreeSet<>();
		this.clients.forEach((client) -> topics.addAll(client.topics()));
		return topics;
	}

}
