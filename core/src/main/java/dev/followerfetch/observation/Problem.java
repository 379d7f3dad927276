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

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Something that went wrong reading the facts of a refresh, as facts: what happened,
 * where, and why. Health details, the sample's table and the state log read these
 * fields; {@link #message()} is the one place that puts them into words.
 *
 * @param kind what went wrong
 * @param cluster which cluster: the name of a binder's or named cluster,
 * {@value #KAFKA_ADMIN} for the application's own when it reads several, {@code null}
 * when it reads only the application's own
 * @param broker the broker it concerns, or {@code null} when it concerns a whole cluster
 * or none
 * @param subject what else names it: the topic not found, the consumer source that
 * failed, the rack of the broker; {@code null} when nothing does
 * @param cause why, as the failure described it; {@code null} when the kind says it all
 * @author follower-fetch authors
 */
public record Problem(Kind kind, @Nullable String cluster, @Nullable Integer broker, @Nullable String subject,
		@Nullable String cause) {

	/**
	 * The {@link #cluster()} of the application's own {@code KafkaAdmin} when the
	 * application reads several clusters.
	 */
	public static final String KAFKA_ADMIN = "KafkaAdmin";

	public Problem {
		Objects.requireNonNull(kind, "kind");
	}

	static Problem of(Kind kind) {
		return new Problem(kind, null, null, null, null);
	}

	static Problem consumersNotListed(String source, String cause) {
		return new Problem(Kind.CONSUMERS_NOT_LISTED, null, null, source, cause);
	}

	static Problem jmxUnreadable(String cause) {
		return new Problem(Kind.JMX_UNREADABLE, null, null, null, cause);
	}

	static Problem brokersUnreachable(@Nullable String cluster, String cause) {
		return new Problem(Kind.BROKERS_UNREACHABLE, cluster, null, null, cause);
	}

	static Problem brokerUnreachable(@Nullable String cluster, int broker, @Nullable String rack, String cause) {
		return new Problem(Kind.BROKER_UNREACHABLE, cluster, broker, rack, cause);
	}

	static Problem selectorUnknown(@Nullable String cluster, String cause) {
		return new Problem(Kind.SELECTOR_UNKNOWN, cluster, null, null, cause);
	}

	static Problem topicNotFound(@Nullable String cluster, String topic, String cause) {
		return new Problem(Kind.TOPIC_NOT_FOUND, cluster, null, topic, cause);
	}

	/**
	 * Whether this problem means brokers this application reads from did not answer: a
	 * whole cluster, or one broker asked directly.
	 * @return {@code true} for an unreachable cluster or broker
	 */
	public boolean unreachable() {
		return this.kind == Kind.BROKERS_UNREACHABLE || this.kind == Kind.BROKER_UNREACHABLE;
	}

	/**
	 * The same problem whatever its cause, to tell one from another over time.
	 * @return this problem without its cause
	 */
	public Problem withoutCause() {
		return new Problem(this.kind, this.cluster, this.broker, this.subject, null);
	}

	/**
	 * What did not answer, in words: {@code brokers of orders}, or
	 * {@code broker 2 (rack az-c)}.
	 * @return the brokers or broker, with the cluster when there are several
	 */
	public String where() {
		return ((this.broker != null) ? "broker " + this.broker + " (rack " + this.subject + ")" : "brokers")
				+ ofCluster();
	}

	private String ofCluster() {
		if (this.cluster == null) {
			return "";
		}
		return " of " + (KAFKA_ADMIN.equals(this.cluster) ? "the application's KafkaAdmin" : this.cluster);
	}

	/**
	 * This problem in words, as the health details show it.
	 * @return one sentence
	 */
	public String message() {
		return switch (this.kind) {
			case NOT_REFRESHED -> "not refreshed yet";
			case NO_CONSUMER -> "no consumer to observe: only the rack and the brokers are checked";
			case CONSUMERS_NOT_LISTED -> "could not list the consumers of " + this.subject + ": " + this.cause;
			case JMX_UNREADABLE -> "consumer metrics cannot be read from JMX (" + this.cause
					+ "): consumers the application builds itself are not observed";
			case NOT_IN_JMX -> "consumer metrics are not in JMX (metric.reporters without "
					+ "org.apache.kafka.common.metrics.JmxReporter?): consumers the application builds itself with "
					+ "such a configuration cannot be observed";
			case BROKERS_UNREACHABLE -> where() + " not reachable: " + this.cause;
			case BROKER_UNREACHABLE -> where()
					+ " not reachable from this application, asked for its configuration directly: " + this.cause;
			case SELECTOR_UNKNOWN -> "replica.selector.class" + ofCluster() + " unknown: " + this.cause;
			case TOPIC_NOT_FOUND -> "topic " + this.subject + " not found by the " + where()
					+ ", so its partitions are not counted: " + this.cause;
		};
	}

	/**
	 * What can go wrong reading the facts of a refresh.
	 */
	public enum Kind {

		/**
		 * The monitor has not refreshed yet.
		 */
		NOT_REFRESHED,

		/**
		 * The application has no consumer: only the rack and the brokers are checked.
		 */
		NO_CONSUMER,

		/**
		 * A source of consumers (listeners, Streams, bindings) failed to list them.
		 */
		CONSUMERS_NOT_LISTED,

		/**
		 * JMX cannot be read, so consumers the application builds itself are not
		 * observed.
		 */
		JMX_UNREADABLE,

		/**
		 * None of the known consumers is in JMX: consumers built with the same
		 * configuration cannot be observed.
		 */
		NOT_IN_JMX,

		/**
		 * A cluster's brokers did not answer; its last facts are used.
		 */
		BROKERS_UNREACHABLE,

		/**
		 * One broker did not answer when asked for its configuration directly.
		 */
		BROKER_UNREACHABLE,

		/**
		 * The replica selector of a cluster's brokers could not be read.
		 */
		SELECTOR_UNKNOWN,

		/**
		 * A topic the application reads or writes was not found.
		 */
		TOPIC_NOT_FOUND

	}

}
