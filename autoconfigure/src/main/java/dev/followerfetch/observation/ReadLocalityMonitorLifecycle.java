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

import org.springframework.context.SmartLifecycle;

/**
 * Starts the {@link ReadLocalityMonitor} with the application context, after the listener
 * containers, and stops it before them.
 *
 * @author follower-fetch authors
 */
final class ReadLocalityMonitorLifecycle implements SmartLifecycle {

	private final ReadLocalityMonitor monitor;

	ReadLocalityMonitorLifecycle(ReadLocalityMonitor monitor) {
		this.monitor = monitor;
	}

	@Override
	public void start() {
		this.monitor.start();
	}

	@Override
	public void stop() {
		this.monitor.stop();
	}

	@Override
	public boolean isRunning() {
		return this.monitor.isRunning();
	}

	@Override
	public int getPhase() {
		return Integer.MAX_VALUE - 50;
	}

}
