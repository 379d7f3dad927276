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

/**
 * Where one producer factory's producers write: bytes sent to partition leaders in this
 * zone and in others, and how many partitions a record without a key may go to.
 *
 * @param name the producer factory's bean name, or its template's
 * @param clientIds the client ids of its live producers
 * @param rackAware whether its producers send records without a key only to partitions
 * led in this zone ({@code partitioner.rack.aware} in effect)
 * @param localBytes bytes sent to brokers in this zone since start-up
 * @param remoteBytes bytes sent to brokers in other zones since start-up
 * @param topics topics its producers have sent records to, sorted; when there are more
 * than the bound, the most recently written of them
 * @param partitions partitions of those topics
 * @param keylessPartitions partitions a record without a key may go to: those led in this
 * zone when rack-aware, else all
 * @param topicsNotListed how many more topics its producers have sent records to, left
 * out of {@code topics} (and of the partition counts) to keep the list bounded
 * @author follower-fetch authors
 */
public record ProducerWrites(String name, List<String> clientIds, boolean rackAware, long localBytes,
		long remoteBytes, List<String> topics, int partitions, int keylessPartitions, int topicsNotListed) {

	public ProducerWrites {
		clientIds = List.copyOf(clientIds);
		topics = List.copyOf(topics);
	}

	/**
	 * Where one producer factory's producers write, every topic listed.
	 * @param name the producer factory's bean name, or its template's
	 * @param clientIds the client ids of its live producers
	 * @param rackAware whether its producers send records without a key only to
	 * partitions led in this zone
	 * @param localBytes bytes sent to brokers in this zone since start-up
	 * @param remoteBytes bytes sent to brokers in other zones since start-up
	 * @param topics topics its producers have sent records to
	 * @param partitions partitions of those topics
	 * @param keylessPartitions partitions a record without a key may go to
	 */
	public ProducerWrites(String name, List<String> clientIds, boolean rackAware, long localBytes, long remoteBytes,
			List<String> topics, int partitions, int keylessPartitions) {
		this(name, clientIds, rackAware, localBytes, remoteBytes, topics, partitions, keylessPartitions, 0);
	}

	/**
	 * Share of the partitions of the topics written that records without a key go to: 1
	 * spreads them over all, a third concentrates them on the partitions led in this
	 * zone, which skews partitions unless producers are spread evenly over the zones.
	 * @return a share between 0 and 1, or 1 when nothing was written
	 */
	public double keylessPartitionShare() {
		return (this.partitions > 0) ? (double) this.keylessPartitions / this.partitions : 1;
	}

}
