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
package dev.followerfetch.assignment.kafka;

import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.List;

import com.sun.management.OperatingSystemMXBean;

/**
 * How long one run of {@link LargeGroupTimings} took: the CPU time of the whole process
 * (its garbage collection and compilation included), which other work on a shared machine
 * changes far less than the wall time, and the wall time.
 *
 * @param cpu the process's CPU seconds
 * @param wall the wall-clock seconds
 * @author follower-fetch authors
 */
record Timing(double cpu, double wall) {

	private static final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory
		.getOperatingSystemMXBean();

	/**
	 * Time a piece of work, after a collection of what the work before it left.
	 * @param work the work
	 * @return its timing
	 */
	static Timing of(Runnable work) {
		System.gc();
		long cpu = os.getProcessCpuTime();
		long start = System.nanoTime();
		work.run();
		return new Timing((os.getProcessCpuTime() - cpu) / 1e9, (System.nanoTime() - start) / 1e9);
	}

	/**
	 * The timing of median CPU time.
	 * @param timings the timings
	 * @return the median, or zero for none
	 */
	static Timing median(List<Timing> timings) {
		if (timings.isEmpty()) {
			return new Timing(0, 0);
		}
		return timings.stream().sorted(Comparator.comparingDouble(Timing::cpu)).toList().get(timings.size() / 2);
	}

	/**
	 * This timing against another, CPU and wall.
	 * @param base the other
	 * @return the ratios, as {@code cpu/wall}
	 */
	String ratio(Timing base) {
		return String.format("%.2f/%.2f", (base.cpu > 0) ? this.cpu / base.cpu : 0,
				(base.wall > 0) ? this.wall / base.wall : 0);
	}

	@Override
	public String toString() {
		return String.format("%.2f/%.2f", this.cpu, this.wall);
	}

}
