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
package dev.followerfetch.detection;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Starts rack detection the way an application does: a context with
 * {@link RackDetectionAutoConfiguration}, one network source first in the order and the
 * {@code env} source after it, which always answers {@link #NEXT_RACK}. Every other
 * metadata endpoint points at a loopback port where nothing listens, so nothing leaves
 * 127.0.0.1. Shared by the hostile-metadata and request-hygiene tests and the hostile
 * metadata benchmark.
 *
 * @author follower-fetch authors
 */
final class DetectionStartups {

	/**
	 * The rack the source after the one under test answers.
	 */
	static final String NEXT_RACK = "az-next";

	private static final String NEXT_RACK_VARIABLE = "FOLLOWER_FETCH_NEXT_RACK";

	private DetectionStartups() {
	}

	/**
	 * A runner for a context whose detection asks {@code source} at {@code endpoint}
	 * first, then {@code env}.
	 * @param source the network source under test
	 * @param endpoint where it is pointed
	 * @param timeout {@code follower-fetch.detection.timeout}
	 * @return the runner
	 * @throws IOException if no free loopback port can be found for the other sources
	 */
	static ApplicationContextRunner runner(NetworkSource source, URI endpoint, Duration timeout) throws IOException {
		URI refusing = RawLoopbackServer.refusingUri();
		List<String> properties = new ArrayList<>();
		properties.add("follower-fetch.detection.timeout=" + timeout.toMillis() + "ms");
		properties.add("follower-fetch.detection.order=" + source.sourceName() + ",env");
		properties.add("follower-fetch.detection.env.variables=" + NEXT_RACK_VARIABLE);
		properties.add(NEXT_RACK_VARIABLE + "=" + NEXT_RACK);
		for (NetworkSource other : NetworkSource.values()) {
			properties.add(other.pointAt((other != source) ? refusing : endpoint));
		}
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RackDetectionAutoConfiguration.class))
			.withPropertyValues(properties.toArray(String[]::new));
	}

	/**
	 * Heap in use after a full GC.
	 * @return the bytes in use
	 */
	static long heapUsedAfterGc() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		memory.gc();
		memory.gc();
		return memory.getHeapMemoryUsage().getUsed();
	}

	/**
	 * The threads alive at one moment, to tell which ones were started after it. The
	 * loopback stubs' own threads ({@code metadata-stub}, {@code raw-loopback-*}) are left
	 * out: they serve the requests, they are not the application's.
	 */
	static final class ThreadSnapshot {

		private static final List<String> STUB_THREADS = List.of("metadata-stub", "raw-loopback-");

		private final Set<Long> ids;

		private ThreadSnapshot(Set<Long> ids) {
			this.ids = ids;
		}

		/**
		 * Record the threads alive now.
		 * @return the snapshot
		 */
		static ThreadSnapshot take() {
			return new ThreadSnapshot(alive().map(Thread::getId).collect(Collectors.toSet()));
		}

		/**
		 * The threads alive now that were not alive at the snapshot, stubs' threads left
		 * out.
		 * @return their names, sorted
		 */
		List<String> startedSince() {
			return alive().filter((thread) -> !this.ids.contains(thread.getId()))
				.map(Thread::getName)
				.filter((name) -> STUB_THREADS.stream().noneMatch(name::startsWith))
				.sorted()
				.toList();
		}

		private static Stream<Thread> alive() {
			return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive);
		}

	}

}
