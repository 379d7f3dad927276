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
import java.util.Set;
import java.util.stream.Collectors;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The client ids Kafka clients of this JVM register in JMX, as the clients report them
 * (Kafka quotes a client id with {@code ,} or {@code =} in an MBean name).
 *
 * @author follower-fetch authors
 */
final class JmxClientIds {

	private JmxClientIds() {
	}

	static Set<String> producers() throws MalformedObjectNameException {
		return of("kafka.producer:type=producer-metrics,*", "client-id");
	}

	static Set<String> adminClients() throws MalformedObjectNameException {
		return of("kafka.admin.client:type=admin-client-metrics,*", "client-id");
	}

	private static Set<String> of(String pattern, String key) throws MalformedObjectNameException {
		return ManagementFactory.getPlatformMBeanServer()
			.queryNames(new ObjectName(pattern), null)
			.stream()
			.map((name) -> name.getKeyProperty(key))
			.filter((value) -> value != null)
			.map((value) -> value.startsWith("\"") ? ObjectName.unquote(value) : value)
			.collect(Collectors.toSet());
	}

}
