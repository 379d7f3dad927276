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
package dev.followerfetch.sample;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.context.ApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Stops the sample once {@code demo.duration} has passed, the same way Ctrl-C does: by
 * closing the application context. Only in the first instance, which closes the other
 * instances as it stops.
 *
 * @author follower-fetch authors
 */
@Component
class DemoTimeLimit implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(DemoTimeLimit.class);

	private final ApplicationContext context;

	private final Duration duration;

	private volatile Thread timer;

	DemoTimeLimit(ApplicationContext context, DemoProperties properties) {
		this.context = context;
		this.duration = (properties.getInstance() == 1) ? properties.getDuration() : null;
	}

	@Override
	public void start() {
		if (this.duration != null) {
			Thread timer = new Thread(this::stopWhenTimeIsUp, "demo-time-limit");
			this.timer = timer;
			timer.start();
		}
	}

	@Override
	public void stop() {
		Thread timer = this.timer;
		this.timer = null;
		if (timer != null && timer != Thread.currentThread()) {
			timer.interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.timer != null;
	}

	private void stopWhenTimeIsUp() {
		try {
			Thread.sleep(this.duration.toMillis());
		}
		catch (InterruptedException ex) {
			return;
		}
		logger.info("Stopping after " + this.duration.toSeconds() + "s, as demo.duration says");
		SpringApplication.exit(this.context);
	}

}
