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

import java.util.function.Supplier;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Reports whether follower fetching works, from the last {@link FollowerFetchSnapshot}
 * ({@link HealthDetails}). Never calls Kafka: a request only reads the snapshot the
 * background refresher keeps. Spring Boot 4's health API.
 *
 * @author follower-fetch authors
 */
final class FollowerFetchHealthIndicator extends AbstractHealthIndicator {

	private final Supplier<FollowerFetchSnapshot> snapshot;

	private final Status degradedStatus;

	FollowerFetchHealthIndicator(Supplier<FollowerFetchSnapshot> snapshot, String degradedStatus) {
		super("follower-fetch health check failed");
		this.snapshot = snapshot;
		this.degradedStatus = new Status(degradedStatus);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		FollowerFetchSnapshot snapshot = this.snapshot.get();
		builder.status(snapshot.state().isDegraded() ? this.degradedStatus : Status.UP)
			.withDetails(HealthDetails.of(snapshot));
	}

}
