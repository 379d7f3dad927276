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
package dev.followerfetch.benchmark.assignment;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports what the measured assignment achieves as secondary results of each iteration:
 * {@value #SHARE}, the fraction of the partitions handed out that go to a member in the
 * zone of their leader (absent when no member has a zone), and {@value #PENDING}, the
 * partitions not handed out (withheld under the cooperative protocol until their owner
 * revokes them). The assignment is the same at every call, so the trial's setup records
 * it once. Use it with
 * {@code -prof dev.followerfetch.benchmark.assignment.LeaderZoneProfiler}.
 *
 * @author follower-fetch authors
 */
public final class LeaderZoneProfiler implements InternalProfiler {

	static final String SHARE = "leader-zone.share";

	static final String PENDING = "partitions.pending";

	private static volatile AssignorGroup.@Nullable Outcome outcome;

	static void record(AssignorGroup.Outcome measured) {
		outcome = measured;
	}

	@Override
	public String getDescription() {
		return "Leader-zone share and pending partitions of the measured assignment";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
	}

	@Override
	public Collection<ScalarResult> afterIteration(BenchmarkParams benchmarkParams,
			IterationParams iterationParams, IterationResult result) {
		AssignorGroup.Outcome measured = outcome;
		List<ScalarResult> results = new ArrayList<>();
		if (measured != null) {
			if (!Double.isNaN(measured.share())) {
				results.add(new ScalarResult(SHARE, measured.share(), "share", AggregationPolicy.AVG));
			}
			results.add(new ScalarResult(PENDING, measured.pending(), "partitions", AggregationPolicy.AVG));
		}
		return results;
	}

}
