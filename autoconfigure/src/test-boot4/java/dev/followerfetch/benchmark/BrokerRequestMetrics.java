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
package dev.followerfetch.benchmark;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The brokers' own request counts, as an operator scrapes them:
 * {@code kafka.network:type=RequestMetrics,name=RequestsPerSec,request=<type>,version=<v>},
 * attribute {@code Count}. The brokers of the in-process cluster share the JVM's Yammer
 * registry, so each of these meters counts the requests of every broker (and of the
 * controller) together.
 *
 * @author follower-fetch authors
 */
final class BrokerRequestMetrics {

	private static final String PATTERN = "kafka.network:type=RequestMetrics,name=RequestsPerSec,*";

	private BrokerRequestMetrics() {
	}

	/**
	 * The requests completed so far, per request type, every version together.
	 * @return the counts by the brokers' {@code request} tag ({@code Fetch},
	 * {@code FetchConsumer}, {@code FetchFollower}, {@code DescribeGroups}...)
	 */
	static Map<String, Long> counts() {
		MBeanServer server = ManagementFactory.getPlatformMBeanServer();
		try {
			Set<ObjectName> names = server.queryNames(new ObjectName(PATTERN), null);
			if (names.isEmpty()) {
				throw new IllegalStateException("No MBean " + PATTERN + ": are the brokers running in this JVM?");
			}
			Map<String, Long> counts = new TreeMap<>();
			for (ObjectName name : names) {
				long count = ((Number) server.getAttribute(name, "Count")).longValue();
				counts.merge(name.getKeyProperty("request"), count, Long::sum);
			}
			return counts;
		}
		catch (JMException ex) {
			throw new IllegalStateException("Cannot read " + PATTERN, ex);
		}
	}

}
