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

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.common.protocol.ApiKeys;
import org.slf4j.LoggerFactory;

/**
 * The requests the in-process brokers completed, per client id and request type, counted
 * from the brokers' own request log ({@code kafka.request.logger} at DEBUG: one
 * "Completed request" line per request, with the request header as JSON). The brokers'
 * request metrics ({@code RequestsPerSec}) count every client together; this tells whose
 * requests they were.
 * <p>
 * Spring Boot's logging system resets Logback when an application starts: run with
 * {@code org.springframework.boot.logging.LoggingSystem=none} so that the appender stays.
 *
 * @author follower-fetch authors
 */
final class BrokerRequestsByClient extends UnsynchronizedAppenderBase<ILoggingEvent> {

	private static final String LOGGER = "kafka.request.logger";

	private final Map<String, Map<String, LongAdder>> counts = new ConcurrentHashMap<>();

	private final LongAdder unreadable = new LongAdder();

	private BrokerRequestsByClient() {
	}

	/**
	 * Start counting: the request logger at DEBUG into this appender only.
	 * @return the counter
	 */
	static BrokerRequestsByClient install() {
		LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
		BrokerRequestsByClient log = new BrokerRequestsByClient();
		log.setContext(context);
		log.setName("requests-by-client");
		log.start();
		Logger logger = context.getLogger(LOGGER);
		logger.setLevel(Level.DEBUG);
		logger.setAdditive(false);
		logger.addAppender(log);
		return log;
	}

	@Override
	protected void append(ILoggingEvent event) {
		Object[] arguments = event.getArgumentArray();
		if (arguments == null || arguments.length == 0 || !(arguments[0] instanceof JsonNode description)) {
			this.unreadable.increment();
			return;
		}
		JsonNode header = description.path("requestHeader");
		JsonNode apiKey = header.path("requestApiKey");
		if (!apiKey.isIntegralNumber() || !ApiKeys.hasId(apiKey.asInt())) {
			this.unreadable.increment();
			return;
		}
		String clientId = header.path("clientId").asText("");
		ApiKeys type = ApiKeys.forId(apiKey.asInt());
		Map<String, LongAdder> perType = this.counts.computeIfAbsent(clientId, (id) -> new ConcurrentHashMap<>());
		perType.computeIfAbsent(type.name, (key) -> new LongAdder()).increment();
		if (type == ApiKeys.FETCH) {
			String fetch = fromFollower(description.path("request")) ? "FetchFollower" : "FetchConsumer";
			perType.computeIfAbsent(fetch, (key) -> new LongAdder()).increment();
		}
	}

	/**
	 * Whether a fetch request comes from a broker, as the brokers' metrics tell
	 * {@code FetchFollower} from {@code FetchConsumer}: a replica id of 0 or more, in the
	 * request (before version 15) or in its replica state.
	 */
	private static boolean fromFollower(JsonNode request) {
		JsonNode replicaId = request.path("replicaState").path("replicaId");
		if (replicaId.isMissingNode()) {
			replicaId = request.path("replicaId");
		}
		return replicaId.asInt(-1) >= 0;
	}

	/**
	 * The counts so far.
	 * @return per client id, the requests per request type (Kafka's names, as in the
	 * brokers' {@code request} metric tag; a fetch counts as {@code Fetch} and as
	 * {@code FetchConsumer} or {@code FetchFollower}, as the brokers count it)
	 */
	Map<String, Map<String, Long>> counts() {
		Map<String, Map<String, Long>> copy = new TreeMap<>();
		this.counts.forEach((client, types) -> {
			Map<String, Long> perType = new TreeMap<>();
			types.forEach((type, count) -> perType.put(type, count.sum()));
			copy.put(client, perType);
		});
		return copy;
	}

	/**
	 * Lines of the request logger that were not a completed request this class can read.
	 * @return how many
	 */
	long unreadable() {
		return this.unreadable.sum();
	}

}
