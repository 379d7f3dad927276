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

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;


import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseDataJsonConverter;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * The requests the in-process brokers answer, as their request log
 * ({@code kafka.request.logger} at DEBUG) reports each one: every request counted by
 * client and API, and each Metadata request with its client and its response, sized on
 * the wire with Kafka's own serializer (length prefix, response header and body); the
 * brokers' own count of them is {@code BrokerRequests}. Logback must not be reset by
 * Spring Boot while it listens (the benchmark turns Boot's logging system off).
 *
 * @author follower-fetch authors
 */
final class BrokerRequestLog {

	private static final String REQUEST_LOGGER = "kafka.request.logger";

	private static final String COMPLETED = "Completed request:";

	private static final String METADATA = "\"requestApiKeyName\":\"METADATA\"";

	private final ObjectMapper json = new ObjectMapper();

	private final Logger logger;

	private final List<Request> requests = new CopyOnWriteArrayList<>();

	private final Map<String, Map<String, LongAdder>> counts = new ConcurrentHashMap<>();

	private final List<String> errors = new CopyOnWriteArrayList<>();

	private BrokerRequestLog(Logger logger) {
		this.logger = logger;
	}

	/**
	 * Listen to the brokers' request log, switched off until {@link #listen(boolean)}.
	 * @return the log
	 */
	static BrokerRequestLog attach() {
		Logger logger = (Logger) LoggerFactory.getLogger(REQUEST_LOGGER);
		BrokerRequestLog log = new BrokerRequestLog(logger);
		AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {

			@Override
			protected void append(ILoggingEvent event) {
				log.add(event);
			}

		};
		appender.setContext(logger.getLoggerContext());
		appender.setName("metadata-requests");
		appender.start();
		logger.addAppender(appender);
		logger.setAdditive(false);
		log.listen(false);
		return log;
	}

	/**
	 * Switch the brokers' request log on or off: on, every broker turns every request
	 * it completes into JSON, which costs CPU a latency measurement should not pay.
	 * @param on whether to listen
	 */
	void listen(boolean on) {
		this.logger.setLevel(on ? Level.DEBUG : Level.WARN);
	}

	/**
	 * Forget what was logged.
	 */
	void clear() {
		this.requests.clear();
		this.counts.clear();
		this.errors.clear();
	}

	/**
	 * The requests logged so far, by client and API.
	 * @return the count of requests by API name by {@code client.id}
	 */
	Map<String, Map<String, Long>> counts() {
		Map<String, Map<String, Long>> counts = new TreeMap<>();
		this.counts.forEach((clientId, byApi) -> {
			Map<String, Long> copy = new TreeMap<>();
			byApi.forEach((api, count) -> copy.put(api, count.sum()));
			counts.put(clientId, copy);
		});
		return counts;
	}

	/**
	 * The Metadata requests logged so far.
	 * @return the requests, in the order their responses completed
	 */
	List<Request> requests() {
		return List.copyOf(this.requests);
	}

	/**
	 * What could not be read from the log.
	 * @return the errors
	 */
	List<String> errors() {
		return List.copyOf(this.errors);
	}

	private void add(ILoggingEvent event) {
		JsonNode description = description(event);
		if (description == null) {
			return;
		}
		JsonNode header = description.path("requestHeader");
		String clientId = header.path("clientId").asText();
		this.counts.computeIfAbsent(clientId, (id) -> new ConcurrentHashMap<>())
			.computeIfAbsent(header.path("requestApiKeyName").asText(), (api) -> new LongAdder())
			.increment();
		if (header.path("requestApiKey").asInt(-1) != ApiKeys.METADATA.id) {
			return;
		}
		short version = (short) header.path("requestApiVersion").asInt();
		int bytes = -1;
		try {
			bytes = wireSize(description.get("response"), version);
		}
		catch (RuntimeException ex) {
			this.errors.add("Metadata v" + version + " response of " + clientId + ": " + ex);
		}
		this.requests.add(new Request(event.getTimeStamp(), clientId, version, bytes));
	}

	private @Nullable JsonNode description(ILoggingEvent event) {
		Object[] arguments = event.getArgumentArray();
		if (arguments != null && arguments.length == 1 && arguments[0] instanceof JsonNode description) {
			return description;
		}
		String message = event.getFormattedMessage();
		if (message == null || !message.startsWith(COMPLETED) || !message.contains(METADATA)) {
			return null;
		}
		try {
			return this.json.readTree(message.substring(COMPLETED.length()));
		}
		catch (JsonProcessingException ex) {
			this.errors.add("Unreadable request log line: " + ex);
			return null;
		}
	}

	private static int wireSize(JsonNode response, short version) {
		MetadataResponseData data = MetadataResponseDataJsonConverter.read(response, version);
		ObjectSerializationCache cache = new ObjectSerializationCache();
		short headerVersion = ApiKeys.METADATA.responseHeaderVersion(version);
		return Integer.BYTES + new ResponseHeaderData().setCorrelationId(0).size(cache, headerVersion)
				+ data.size(cache, version);
	}

	/**
	 * One Metadata request a broker answered.
	 *
	 * @param completedAt when the broker completed it (epoch milliseconds)
	 * @param clientId the {@code client.id} of the client that asked
	 * @param version the request's version
	 * @param responseBytes the response's size on the wire, or -1 when the log did not
	 * carry it
	 */
	record Request(long completedAt, String clientId, short version, int responseBytes) {

	}

}
