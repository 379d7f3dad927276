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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import dev.followerfetch.benchmark.LeaseRenewals.Renewal;
import dev.followerfetch.benchmark.BrokerRequestLog.Request;
import dev.followerfetch.e2e.BrokerRequests;
import dev.followerfetch.e2e.Listeners;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.LoggerFactory;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import static org.awaitility.Awaitility.await;

/**
 * What the replica lease ({@code follower-fetch.policy.replica-lease}, which the starter
 * sets as the consumer's {@code metadata.max.age.ms}) buys and what it costs, for each of
 * a list of leases, on a real three-zone cluster of its own per lease. An application in
 * {@code az-b} reads a three-partition RF=3 topic (one leader per zone) with one LOCALITY
 * listener while a producer sends it 50 records/s; its consumer reads the two partitions led
 * in other zones from broker 1 ({@code az-b}).
 * <ul>
 * <li>Cost: the Metadata requests the brokers answer over two whole leases, from one lease
 * renewal to the second after it, counted by the brokers' request meter (every client) and
 * by their request log (which names the client, and carries the responses, sized on the
 * wire); the producer asks once an hour and the cluster's own Admin client every 5
 * minutes.</li>
 * <li>Stall: right after the consumer renewed its leases on broker 1, broker 1 stops
 * replicating while it goes on answering ({@code replica.lag.time.max.ms} 3 s): the time
 * until the consumer reads both partitions from their leaders again (its
 * {@code preferred-read-replica} gauge), and the longest send-to-receive delay of the
 * records sent from 2 s before the stall until then.</li>
 * <li>Reassignment: once broker 1 is back in the ISRs and the consumer back on it (a fresh
 * lease), one of the two partitions is reassigned to its two replicas outside
 * {@code az-b}: the time until the consumer reads it from elsewhere.</li>
 * </ul>
 * Not a unit test; run it with
 * {@code ./mvnw -B -pl autoconfigure -am test-compile exec:exec@lease-benchmark}, the leases
 * given by {@code -Dbenchmark.leases=30s,60s,120s,300s} (the default). It takes about three
 * times the sum of the leases plus half a minute per lease.
 *
 * @author follower-fetch authors
 */
public final class ReplicaLeaseBenchmark {

	private static final String TOPIC = "lease";

	private static final int PARTITIONS = 3;

	private static final int RECORDS_PER_SECOND = 50;

	private static final Duration REPLICA_LAG_TIME_MAX = Duration.ofSeconds(3);

	private static final String LISTENER = "analytics";

	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final Duration BEFORE_FAULT = Duration.ofSeconds(2);

	private static final Duration POLL = Duration.ofMillis(20);

	private static final int CONTROLLER_BROKER = 0;

	private static final int INSTANCES = 1_000;

	private static final int CONSUMERS_PER_INSTANCE = 2;

	private ReplicaLeaseBenchmark() {
	}

	public static void main(String[] args) throws Exception {
		System.setProperty(LoggingSystem.SYSTEM_PROPERTY, LoggingSystem.NONE);
		List<Duration> leases = Arrays.stream(System.getProperty("benchmark.leases", "30s,60s,120s,300s").split(","))
			.map(String::trim)
			.map(DurationStyle::detectAndParse)
			.toList();
		((Logger) LoggerFactory.getLogger("org.springframework")).setLevel(Level.WARN);
		BrokerRequestLog requests = BrokerRequestLog.attach();
		LeaseRenewals renewals = LeaseRenewals.attach();
		double loadBefore = BenchmarkApplication.loadAverage();
		List<Result> results = new ArrayList<>();
		for (Duration lease : leases) {
			Result result = measure(lease, requests, renewals);
			result.printDetails();
			results.add(result);
		}
		print(results, loadBefore);
		if (!requests.errors().isEmpty()) {
			System.out.println("Request log entries not sized: " + requests.errors());
		}
	}

	private static Result measure(Duration lease, BrokerRequestLog requests, LeaseRenewals renewals)
			throws Exception {
		requests.clear();
		renewals.clear();
		System.out.printf("%nReplica lease %s: starting%n", seconds(lease));
		try (MultiZoneKafkaCluster cluster = MultiZoneKafkaCluster.builder()
			.brokerProperty("replica.lag.time.max.ms", String.valueOf(REPLICA_LAG_TIME_MAX.toMillis()))
			.start(); TimedStream stream = new TimedStream(TOPIC, PARTITIONS)) {
			Map<Integer, List<Integer>> replicas = cluster.createTopicLedByEveryZone(TOPIC, PARTITIONS, 3);
			int inZone = cluster.brokerId(BenchmarkApplication.ZONE);
			List<TopicPartition> followed = replicas.entrySet()
				.stream()
				.filter((entry) -> entry.getValue().get(0) != inZone)
				.map((entry) -> new TopicPartition(TOPIC, entry.getKey()))
				.toList();
			stream.start(cluster.bootstrapServers(), RECORDS_PER_SECOND);
			requests.listen(true);
			long startedAt = System.nanoTime();
			try (ConfigurableApplicationContext application = BenchmarkApplication.STARTER.start(cluster,
					LeaseListener.class, stream, "benchmark.topic=" + TOPIC,
					"follower-fetch.policy.replica-lease=" + lease.toMillis() + "ms")) {
				Result result = new Result(lease, clientId(application));
				Renewal last = measureCost(result, requests, renewals, followed, inZone, startedAt);
				requests.listen(false);
				long rehomed = measureStall(result, cluster, application, stream, renewals, followed, inZone, last);
				try (Admin admin = Admin
					.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
					measureReassignment(result, cluster, admin, application, stream, renewals, followed, inZone,
							replicas, rehomed);
				}
				stream.stopAndAwaitReceived(TIMEOUT);
				result.records(stream.acknowledgedCount(), stream.lost(), stream.redelivered(), stream.failures());
				return result;
			}
		}
		finally {
			requests.listen(false);
		}
	}

	/**
	 * Count the Metadata requests from one lease renewal to the second after it, and
	 * return the last renewal.
	 */
	private static Renewal measureCost(Result result, BrokerRequestLog requests, LeaseRenewals renewals,
			List<TopicPartition> followed, int inZone, long startedAt) {
		Duration renewalTimeout = result.lease.plus(TIMEOUT);
		Renewal first = renewals.awaitRenewed(followed, inZone, startedAt, renewalTimeout);
		long meterFrom = metadataRequests();
		Map<String, Long> countsFrom = requests.counts().getOrDefault(result.clientId, Map.of());
		Renewal second = renewals.awaitRenewed(followed, inZone, first.nanos(), renewalTimeout);
		Renewal third = renewals.awaitRenewed(followed, inZone, second.nanos(), renewalTimeout);
		long meterTo = metadataRequests();
		Map<String, Long> consumerRequests = new TreeMap<>(
				requests.counts().getOrDefault(result.clientId, Map.of()));
		countsFrom.forEach((api, count) -> consumerRequests.merge(api, -count, Long::sum));
		consumerRequests.values().removeIf((count) -> count == 0);
		List<Request> inWindow = requests.requests()
			.stream()
			.filter((request) -> request.completedAt() >= first.takenAt() && request.completedAt() <= third.takenAt())
			.toList();
		result.cost(third.nanos() - first.nanos(), meterTo - meterFrom, inWindow, consumerRequests);
		return third;
	}

	/**
	 * Stall broker 1's replication right after the consumer renewed its leases on it, and
	 * return when the consumer read every partition it had read there from the leaders.
	 */
	private static long measureStall(Result result, MultiZoneKafkaCluster cluster,
			ConfigurableApplicationContext application, TimedStream stream, LeaseRenewals renewals,
			List<TopicPartition> followed, int inZone, Renewal renewal) {
		long stallAt = System.nanoTime();
		cluster.stallReplication(inZone);
		Map<TopicPartition, Long> outOfIsrAt = new ConcurrentHashMap<>();
		Map<TopicPartition, Long> rehomedAt = new ConcurrentHashMap<>();
		await("reads of " + followed + " back on their leaders").atMost(result.lease.plus(TIMEOUT))
			.pollInterval(POLL)
			.until(() -> {
				long now = System.nanoTime();
				Map<Integer, List<Integer>> isr = cluster.leaderAndIsrSeenBy(CONTROLLER_BROKER, TOPIC);
				Map<TopicPartition, Integer> reads = readReplicas(application);
				for (TopicPartition partition : followed) {
					if (!isr.get(partition.partition()).contains(inZone)) {
						outOfIsrAt.putIfAbsent(partition, now);
					}
					if (outOfIsrAt.containsKey(partition)
							&& Integer.valueOf(ConsumerReadStats.LEADER).equals(reads.get(partition))) {
						rehomedAt.putIfAbsent(partition, now);
					}
				}
				return rehomedAt.size() == followed.size();
			});
		long rehomed = Collections.max(rehomedAt.values());
		cluster.resumeReplication(inZone);
		cluster.awaitInSync(TOPIC);
		awaitReceivedMore(stream);
		result.stall(millis(stallAt - renewal.nanos()), millis(Collections.max(outOfIsrAt.values()) - stallAt),
				millis(rehomed - stallAt), renewal.expiresAt() - renewal.takenAt() - millis(stallAt - renewal.nanos()),
				stream.longestDelayMillis(stallAt - BEFORE_FAULT.toNanos(), rehomed));
		return rehomed;
	}

	/**
	 * Once the consumer is back on broker 1, reassign one of its partitions away from the
	 * zone and measure how soon the consumer reads it elsewhere.
	 */
	private static void measureReassignment(Result result, MultiZoneKafkaCluster cluster, Admin admin,
			ConfigurableApplicationContext application, TimedStream stream, LeaseRenewals renewals,
			List<TopicPartition> followed, int inZone, Map<Integer, List<Integer>> replicas, long rehomed)
			throws Exception {
		renewals.awaitRenewed(followed, inZone, rehomed, TIMEOUT);
		await("reads of " + followed + " back on broker " + inZone).atMost(TIMEOUT)
			.pollInterval(POLL)
			.until(() -> followed.stream()
				.allMatch((partition) -> Integer.valueOf(inZone).equals(readReplicas(application).get(partition))));
		TopicPartition moved = followed.get(0);
		List<Integer> outOfZone = replicas.get(moved.partition()).stream().filter((id) -> id != inZone).toList();
		long reassignAt = System.nanoTime();
		long leaseAge = millis(reassignAt - renewals.last(moved).orElseThrow().nanos());
		admin.alterPartitionReassignments(Map.of(moved, Optional.of(new NewPartitionReassignment(outOfZone))))
			.all()
			.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		await("reassignment of " + moved + " done").atMost(TIMEOUT)
			.pollInterval(POLL)
			.until(() -> replicas(cluster, moved).equals(outOfZone) && admin.listPartitionReassignments()
				.reassignments()
				.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
				.isEmpty());
		long reassignedAt = System.nanoTime();
		await("reads of " + moved + " off broker " + inZone).atMost(result.lease.plus(TIMEOUT))
			.pollInterval(POLL)
			.until(() -> {
				Integer replica = readReplicas(application).get(moved);
				return replica != null && replica != inZone;
			});
		long movedAt = System.nanoTime();
		awaitReceivedMore(stream);
		result.reassignment(leaseAge, millis(reassignedAt - reassignAt), millis(movedAt - reassignedAt),
				stream.longestDelayMillis(reassignAt - BEFORE_FAULT.toNanos(), movedAt));
	}

	private static void awaitReceivedMore(TimedStream stream) {
		int received = stream.receivedCount();
		await("more records received").atMost(TIMEOUT)
			.pollInterval(POLL)
			.until(() -> stream.receivedCount() >= received + RECORDS_PER_SECOND);
	}

	private static List<Integer> replicas(MultiZoneKafkaCluster cluster, TopicPartition partition) {
		return cluster.describeTopic(partition.topic())
			.partitions()
			.get(partition.partition())
			.replicas()
			.stream()
			.map(Node::id)
			.toList();
	}

	private static Map<TopicPartition, Integer> readReplicas(ConfigurableApplicationContext application) {
		return Listeners.readStats(application, LISTENER).preferredReadReplicas();
	}

	private static String clientId(ConfigurableApplicationContext application) {
		MessageListenerContainer container = application.getBean(KafkaListenerEndpointRegistry.class)
			.getListenerContainer(LISTENER);
		if (container == null || container.metrics().size() != 1) {
			throw new IllegalStateException("Expected one consumer for listener " + LISTENER);
		}
		return container.metrics().keySet().iterator().next();
	}

	private static void print(List<Result> results, double loadBefore) {
		System.out.println();
		System.out.println(BenchmarkApplication.machine());
		System.out.printf("Topic of %d partitions led by every zone, RF=3, %d records/s; one LOCALITY consumer in %s; "
				+ "replica.lag.time.max.ms=%d; faults start right after the consumer renewed its read leases%n%n",
				PARTITIONS, RECORDS_PER_SECOND, BenchmarkApplication.ZONE, REPLICA_LAG_TIME_MAX.toMillis());
		System.out.println("| replica lease | re-home after stall (ms) | longest delay (ms) | Metadata req/consumer/hour "
				+ "(measured) | at 1,000 instances x 2 consumers (req/s) | re-home after reassignment (ms) | "
				+ "Metadata response (bytes) | Metadata KiB/consumer/hour |");
		System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
		for (Result result : results) {
			double perHour = result.requestsPerHour();
			System.out.printf("| %s | %,d | %,d | %.1f | %.2f | %,d | %s | %.1f |%n", seconds(result.lease),
					result.rehomeAfterStall, result.stallLongestDelay, perHour,
					perHour * INSTANCES * CONSUMERS_PER_INSTANCE / 3600, result.rehomeAfterReassignment,
					(result.responseBytes() > 0) ? String.format("%,.0f", result.responseBytes()) : "-",
					perHour * result.responseBytes() / 1024);
		}
		System.out.printf("%nSystem load average (1 min) before %.2f, after %.2f%n", loadBefore,
				BenchmarkApplication.loadAverage());
	}

	private static String seconds(Duration lease) {
		return lease.toMillis() % 1000 == 0 ? lease.toSeconds() + " s" : lease.toMillis() + " ms";
	}

	private static long millis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos);
	}

	/**
	 * What one lease bought and cost.
	 */
	private static final class Result {

		private final Duration lease;

		private final String clientId;

		private long windowNanos;

		private long meterRequests;

		private List<Request> consumerRequests = List.of();

		private Map<String, Long> otherClients = Map.of();

		private Map<String, Long> consumerRequestsByApi = Map.of();

		private long leaseAgeAtStall;

		private long outOfIsrAfterStall;

		private long rehomeAfterStall;

		private long leaseLeftAtStall;

		private long stallLongestDelay;

		private long leaseAgeAtReassignment;

		private long reassignmentTook;

		private long rehomeAfterReassignment;

		private long reassignmentLongestDelay;

		private String records = "";

		Result(Duration lease, String clientId) {
			this.lease = lease;
			this.clientId = clientId;
		}

		void cost(long windowNanos, long meterRequests, List<Request> inWindow, Map<String, Long> byApi) {
			this.windowNanos = windowNanos;
			this.consumerRequestsByApi = byApi;
			this.meterRequests = meterRequests;
			this.consumerRequests = inWindow.stream()
				.filter((request) -> request.clientId().equals(this.clientId))
				.toList();
			this.otherClients = inWindow.stream()
				.filter((request) -> !request.clientId().equals(this.clientId))
				.collect(Collectors.groupingBy(Request::clientId, TreeMap::new, Collectors.counting()));
		}

		void stall(long leaseAge, long outOfIsr, long rehome, long leaseLeft, long longestDelay) {
			this.leaseAgeAtStall = leaseAge;
			this.outOfIsrAfterStall = outOfIsr;
			this.rehomeAfterStall = rehome;
			this.leaseLeftAtStall = leaseLeft;
			this.stallLongestDelay = longestDelay;
		}

		void reassignment(long leaseAge, long took, long rehome, long longestDelay) {
			this.leaseAgeAtReassignment = leaseAge;
			this.reassignmentTook = took;
			this.rehomeAfterReassignment = rehome;
			this.reassignmentLongestDelay = longestDelay;
		}

		void records(int acknowledged, long lost, int redelivered, List<String> failures) {
			this.records = String.format("%,d records acknowledged, %d lost, %d redelivered, %d failed sends%s",
					acknowledged, lost, redelivered, failures.size(), failures.isEmpty() ? "" : " " + failures);
		}

		double requestsPerHour() {
			return this.consumerRequests.size() * (double) TimeUnit.HOURS.toNanos(1) / this.windowNanos;
		}

		double metadataShare() {
			long all = this.consumerRequestsByApi.values().stream().mapToLong(Long::longValue).sum();
			return (all > 0) ? 100.0 * this.consumerRequestsByApi.getOrDefault("METADATA", 0L) / all : 0;
		}

		double responseBytes() {
			return this.consumerRequests.stream()
				.mapToInt(Request::responseBytes)
				.filter((bytes) -> bytes > 0)
				.average()
				.orElse(-1);
		}

		void printDetails() {
			List<Long> intervals = new ArrayList<>();
			for (int i = 1; i < this.consumerRequests.size(); i++) {
				intervals.add(this.consumerRequests.get(i).completedAt() - this.consumerRequests.get(i - 1).completedAt());
			}
			System.out.printf("Replica lease %s (consumer %s):%n", seconds(this.lease), this.clientId);
			System.out.printf("  cost: %d Metadata requests from the consumer in %.1f s (two leases), %.1f/hour, "
					+ "intervals %s ms, responses %s bytes; all clients at the brokers' meter %d, others in the "
					+ "request log %s; all the consumer's requests in the window by API %s (Metadata %.2f%%)%n",
					this.consumerRequests.size(), this.windowNanos / 1e9, requestsPerHour(), intervals,
					this.consumerRequests.stream().map(Request::responseBytes).toList(), this.meterRequests,
					this.otherClients, this.consumerRequestsByApi, metadataShare());
			System.out.printf("  stall %d ms after the lease renewal: follower out of every ISR after %d ms, reads "
					+ "on the leaders after %d ms (lease due to expire %d ms after the stall); longest "
					+ "send-to-receive delay from 2 s before %d ms%n", this.leaseAgeAtStall, this.outOfIsrAfterStall,
					this.rehomeAfterStall, this.leaseLeftAtStall, this.stallLongestDelay);
			System.out.printf("  reassignment %d ms after the lease renewal, done in %d ms: reads off the removed "
					+ "replica %d ms after that (%s); longest send-to-receive delay from 2 s before %d ms%n",
					this.leaseAgeAtReassignment, this.reassignmentTook, this.rehomeAfterReassignment,
					(this.rehomeAfterReassignment < this.lease.toMillis() / 2) ? "the lease ended at once"
							: "the lease ran out",
					this.reassignmentLongestDelay);
			System.out.printf("  %s%n", this.records);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LeaseListener {

		private final TimedStream stream;

		LeaseListener(TimedStream stream) {
			this.stream = stream;
		}

		@FetchPolicy(Policy.LOCALITY)
		@KafkaListener(id = LISTENER, topics = "${benchmark.topic}", groupId = "${benchmark.group}")
		void receive(ConsumerRecord<byte[], byte[]> record) {
			this.stream.received(record);
		}

	}

	private static long metadataRequests() {
		return BrokerRequests.count().getOrDefault("Metadata", 0L);
	}

}
