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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.policy.ConfiguredConsumer;

/**
 * The consumers the application built itself and configured through the
 * {@code ClientRackDecider}, which the monitor attributes by client id and judges under
 * their declared policy: the last configuration of each name, at most the last 1000
 * names, so that an application that configures a consumer per request holds no more.
 *
 * @author follower-fetch authors
 */
public final class ConfiguredConsumers implements ConfiguredConsumer.Observer {

	private static final int MAX_CONSUMERS = 1000;

	private final Map<String, ConfiguredConsumer> consumers = new LinkedHashMap<>() {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, ConfiguredConsumer> eldest) {
			return size() > MAX_CONSUMERS;
		}

	};

	@Override
	public void configured(ConfiguredConsumer consumer) {
		String name = String.valueOf(consumer.policy().name());
		synchronized (this.consumers) {
			this.consumers.remove(name);
			this.consumers.put(name, consumer);
		}
	}

	/**
	 * The configured consumers.
	 * @return the last configuration of each name, oldest first
	 */
	public List<ConfiguredConsumer> list() {
		synchronized (this.consumers) {
			return new ArrayList<>(this.consumers.values());
		}
	}

}
