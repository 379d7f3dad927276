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
package dev.followerfetch.e2e;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The requests the in-process brokers received, by request type, as they count them
 * ({@code kafka.network:type=RequestMetrics,name=RequestsPerSec}, every version, every
 * broker of this JVM together).
 *
 * @author follower-fetch authors
 */
public final class BrokerRequests {

	private static final String PATTERN = "kafka.network:type=RequestMetrics,name=RequestsPerSec,*";

	private BrokerRequests() {
	}

	/**
	 * The requests of each type received since the brokers started.
	 * @return the count, by request type
	 */
	public static Map<String, Long> count() {
		MBeanServer server = ManagementFactory.getPlatformMBeanServer();
		Map<String, Long> counts = new TreeMap<>();
		try {
			Set<ObjectName> names = server.queryNames(new ObjectName(PATTERN), null);
			if (names.isEmpty()) {
				throw new IllegalStateException("No MBean " + PATTERN + ": are the brokers running in this JVM?");
			}
			for (ObjectName name : names) {
				Object count = server.getAttribute(name, "Count");
				if (count instanceof Number number) {
					counts.merge(name.getKeyProperty("request"), number.longValue(), Long::sum);
				}
			}
		}
		catch (JMException ex) {
			throw new IllegalStateException("The brokers' request metrics cannot be read", ex);
		}
		return counts;
	}

	/**
	 * The requests of each type received since an earlier count.
	 * @param before the earlier count
	 * @return the difference, by request type, types with none left out
	 */
	public static Map<String, Long> since(Map<String, Long> before) {
		Map<String, Long> since = new TreeMap<>();
		count().forEach((type, count) -> {
			long difference = count - before.getOrDefault(type, 0L);
			if (difference > 0) {
				since.put(type, difference);
			}
		});
		return since;
	}

}
