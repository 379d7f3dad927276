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
import java.util.TreeMap;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The bytes each Kafka consumer and admin client of this JVM has received and sent, from
 * its own metrics in JMX ({@code incoming-byte-total} and {@code outgoing-byte-total} of
 * {@code consumer-metrics} and {@code admin-client-metrics}), by client id.
 *
 * @author follower-fetch authors
 */
final class ClientByteMetrics {

	private static final Map<String, String> PATTERNS = Map.of("consumer",
			"kafka.consumer:type=consumer-metrics,client-id=*", "admin",
			"kafka.admin.client:type=admin-client-metrics,client-id=*");

	private ClientByteMetrics() {
	}

	/**
	 * Every consumer and admin client that reports to JMX now.
	 * @return per client id, its kind and bytes so far
	 */
	static Map<String, Bytes> all() {
		MBeanServer server = ManagementFactory.getPlatformMBeanServer();
		Map<String, Bytes> clients = new TreeMap<>();
		PATTERNS.forEach((kind, pattern) -> {
			try {
				for (ObjectName name : server.queryNames(new ObjectName(pattern), null)) {
					double received = ((Number) server.getAttribute(name, "incoming-byte-total")).doubleValue();
					double sent = ((Number) server.getAttribute(name, "outgoing-byte-total")).doubleValue();
					clients.put(name.getKeyProperty("client-id"), new Bytes(kind, (long) received, (long) sent));
				}
			}
			catch (JMException ex) {
				throw new IllegalStateException("Cannot read " + pattern, ex);
			}
		});
		return clients;
	}

	/**
	 * What one client has received and sent.
	 *
	 * @param kind {@code consumer} or {@code admin}
	 * @param received bytes received from the brokers
	 * @param sent bytes sent to the brokers
	 */
	record Bytes(String kind, long received, long sent) {

		Bytes minus(Bytes before) {
			return new Bytes(this.kind, this.received - before.received, this.sent - before.sent);
		}

	}

}
