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

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.LoggerFactory;

import static org.awaitility.Awaitility.await;

/**
 * Every time a consumer of this JVM takes a read lease: the leader named a preferred read
 * replica and the consumer will fetch from it until the lease expires
 * ({@code metadata.max.age.ms} later), as the consumer's own DEBUG log line says ("Updating
 * preferred read replica for partition ..., set to expire at ..."). A benchmark can start a
 * fault right after a lease was taken, so that what the fault costs does not depend on
 * where in its lease the consumer happened to be.
 *
 * @author follower-fetch authors
 */
final class LeaseRenewals {

	private static final String FETCH_LOGGER = "org.apache.kafka.clients.consumer.internals.FetchCollector";

	/**
	 * The line, after the consumer's own prefix ("[Consumer clientId=...]"); Kafka's
	 * logger formats it before it reaches the logging framework.
	 */
	private static final Pattern RENEWAL = Pattern
		.compile("Updating preferred read replica for partition (.+)-(\\d+) to (-?\\d+), set to expire at (\\d+)");

	private final List<Renewal> renewals = new CopyOnWriteArrayList<>();

	private LeaseRenewals() {
	}

	/**
	 * Listen to the consumers' log of read leases.
	 * @return the renewals, empty so far
	 */
	static LeaseRenewals attach() {
		Logger logger = (Logger) LoggerFactory.getLogger(FETCH_LOGGER);
		LeaseRenewals renewals = new LeaseRenewals();
		AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {

			@Override
			protected void append(ILoggingEvent event) {
				renewals.add(event);
			}

		};
		appender.setContext(logger.getLoggerContext());
		appender.setName("lease-renewals");
		appender.start();
		logger.addAppender(appender);
		logger.setAdditive(false);
		logger.setLevel(Level.DEBUG);
		return renewals;
	}

	/**
	 * Forget the renewals seen so far.
	 */
	void clear() {
		this.renewals.clear();
	}

	/**
	 * Wait until every one of the partitions has had its lease on a replica taken after a
	 * given moment.
	 * @param partitions the partitions
	 * @param replica the broker the leases must name
	 * @param afterNanos the moment ({@link System#nanoTime()})
	 * @param timeout how long to wait
	 * @return the latest of the first such renewal of each partition
	 */
	Renewal awaitRenewed(Collection<TopicPartition> partitions, int replica, long afterNanos, Duration timeout) {
		return await("read leases of " + partitions + " on broker " + replica + " renewed").atMost(timeout)
			.pollInterval(Duration.ofMillis(2))
			.until(() -> latestOfFirst(partitions, replica, afterNanos), Optional::isPresent)
			.orElseThrow();
	}

	/**
	 * The last lease a partition took.
	 * @param partition the partition
	 * @return its last renewal, if any
	 */
	Optional<Renewal> last(TopicPartition partition) {
		List<Renewal> all = List.copyOf(this.renewals);
		for (int i = all.size() - 1; i >= 0; i--) {
			if (all.get(i).partition().equals(partition)) {
				return Optional.of(all.get(i));
			}
		}
		return Optional.empty();
	}

	private Optional<Renewal> latestOfFirst(Collection<TopicPartition> partitions, int replica, long afterNanos) {
		Renewal latest = null;
		for (TopicPartition partition : partitions) {
			Optional<Renewal> first = this.renewals.stream()
				.filter((renewal) -> renewal.partition().equals(partition) && renewal.replica() == replica
						&& renewal.nanos() > afterNanos)
				.findFirst();
			if (first.isEmpty()) {
				return Optional.empty();
			}
			if (latest == null || first.get().nanos() > latest.nanos()) {
				latest = first.get();
			}
		}
		return Optional.ofNullable(latest);
	}

	private void add(ILoggingEvent event) {
		Matcher renewal = RENEWAL.matcher(event.getFormattedMessage());
		if (renewal.find()) {
			this.renewals.add(new Renewal(new TopicPartition(renewal.group(1), Integer.parseInt(renewal.group(2))),
					Integer.parseInt(renewal.group(3)), System.nanoTime(), event.getTimeStamp(),
					Long.parseLong(renewal.group(4))));
		}
	}

	/**
	 * One read lease a consumer took.
	 *
	 * @param partition the partition
	 * @param replica the broker the consumer reads it from until the lease expires
	 * @param nanos when it was taken ({@link System#nanoTime()})
	 * @param takenAt when it was taken (epoch milliseconds)
	 * @param expiresAt when it expires (epoch milliseconds)
	 */
	record Renewal(TopicPartition partition, int replica, long nanos, long takenAt, long expiresAt) {

	}

}
