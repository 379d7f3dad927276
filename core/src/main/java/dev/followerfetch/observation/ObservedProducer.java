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

import java.util.Collections;
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
 * @param topics the topics its producers have written to that are listed, and described
 * at the brokers
 * @param topicsNotListed how many topics its producers have written to are not listed
 * @author follower-fetch authors
 */
record ObservedProducer(String name, boolean rackAware, List<ProducerClient> clients, Set<String> topics,
		int topicsNotListed) {

	ObservedProducer {
		topics = Collections.unmodifiableSet(new TreeSet<>(topics));
	}

	/**
	 * A producer factory with every topic its producers have written to listed.
	 * @param name the factory's bean name, or its template's
	 * @param rackAware whether its producers partition records without a key by rack
	 * @param clients what each live producer reports
	 */
	ObservedProducer(String name, boolean rackAware, List<ProducerClient> clients) {
		this(name, rackAware, clients, written(clients), 0);
	}

	/**
	 * This producer factory with only some of the topics its producers have written to
	 * listed.
	 * @param listed the topics listed
	 * @return the producer factory with those topics
	 */
	ObservedProducer listing(Set<String> listed) {
		Set<String> written = written(this.clients);
		written.retainAll(listed);
		return new ObservedProducer(this.name, this.rackAware, this.clients, written,
				written(this.clients).size() - written.size());
	}

	private static Set<String> written(List<ProducerClient> clients) {
		Set<String> topics = new TreeSet<>();
		clients.forEach((client) -> topics.addAll(client.topics()));
		return topics;
	}

}
