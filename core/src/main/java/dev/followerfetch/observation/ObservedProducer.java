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
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.followerfetch.observation.ProducerMetricsReader.ProducerClient;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * One producer factory, as the monitor sees it: what each of its live producers reports
 * about its writes, read from its metrics.
 *
 * @author follower-fetch authors
 */
public final class ObservedProducer {

	private final String name;

	private final boolean rackAware;

	private final List<ProducerClient> clients;

	private final Set<String> topics;

	private final int topicsNotListed;

	/**
	 * A producer factory with some of its producers' topics listed.
	 * @param name the factory's bean name, or its template's
	 * @param rackAware whether its producers partition records without a key by rack
	 * @param clients what each live producer reports
	 * @param topics the topics its producers have written to that are listed, and
	 * described at the brokers
	 * @param topicsNotListed how many topics its producers have written to are not listed
	 */
	ObservedProducer(String name, boolean rackAware, List<ProducerClient> clients, Set<String> topics,
			int topicsNotListed) {
		this.name = name;
		this.rackAware = rackAware;
		this.clients = clients;
		this.topics = Collections.unmodifiableSet(new TreeSet<>(topics));
		this.topicsNotListed = topicsNotListed;
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
	 * A producer factory, from what its live producers report.
	 * @param name the factory's bean name, or its template's
	 * @param rackAware whether its producers partition records without a key by rack
	 * @param producerMetrics the metrics of each live producer
	 * @return the producer factory, every topic its producers have written to listed
	 */
	public static ObservedProducer of(String name, boolean rackAware,
			List<Map<MetricName, ? extends Metric>> producerMetrics) {
		return new ObservedProducer(name, rackAware, producerMetrics.stream().map(ProducerMetricsReader::read).toList());
	}

	/**
	 * The producer factory's name.
	 * @return its bean name, or its template's
	 */
	public String name() {
		return this.name;
	}

	/**
	 * Whether its producers partition records without a key by rack.
	 * @return whether they do
	 */
	public boolean rackAware() {
		return this.rackAware;
	}

	List<ProducerClient> clients() {
		return this.clients;
	}

	/**
	 * The topics listed.
	 * @return the topics its producers have written to that are listed, and described at
	 * the brokers, sorted
	 */
	public Set<String> topics() {
		return this.topics;
	}

	/**
	 * How many topics are not listed.
	 * @return how many topics its producers have written to are not listed
	 */
	public int topicsNotListed() {
		return this.topicsNotListed;
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
