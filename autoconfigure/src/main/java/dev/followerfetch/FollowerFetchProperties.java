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
package dev.followerfetch;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for follower-fetch.
 *
 * @author follower-fetch authors
 */
@ConfigurationProperties("follower-fetch")
public class FollowerFetchProperties {

	/**
	 * Whether to set client.rack on Kafka consumers. When false, every consumer is left
	 * untouched.
	 */
	private boolean enabled = true;

	/**
	 * Rack (zone) of this application, used as client.rack. Wins over detection.
	 */
	private @Nullable String rack;

	/**
	 * Zone tag added to the client.id of every client the starter configures, for brokers
	 * that route each client to a broker in its zone by client id rather than by
	 * client.rack: none, warpstream (warpstream_az=<zone>,), inkless (diskless_az=<zone>,),
	 * automq (automq_az=<zone>&), or a key of your own (<key>=<zone>,). The tag goes first;
	 * an application's own client.id follows it.
	 */
	private String clientIdZone = "none";

	private final Detection detection = new Detection();

	private final PolicyProperties policy = new PolicyProperties();

	private final Producer producer = new Producer();

	private final Assignment assignment = new Assignment();

	private final Observation observation = new Observation();

	private final Health health = new Health();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getRack() {
		return this.rack;
	}

	public void setRack(@Nullable String rack) {
		this.rack = rack;
	}

	public String getClientIdZone() {
		return this.clientIdZone;
	}

	public void setClientIdZone(String clientIdZone) {
		this.clientIdZone = clientIdZone;
	}

	public Detection getDetection() {
		return this.detection;
	}

	public PolicyProperties getPolicy() {
		return this.policy;
	}

	public Producer getProducer() {
		return this.producer;
	}

	public Assignment getAssignment() {
		return this.assignment;
	}

	public Observation getObservation() {
		return this.observation;
	}

	public Health getHealth() {
		return this.health;
	}

	public static class Detection {

		/**
		 * Rack sources to try, highest priority first; the first that answers wins.
		 * Sources of the application's own that are not listed are tried before these.
		 */
		private List<String> order = new ArrayList<>(List.of("env", "file", "ecs", "kubernetes", "aws", "gcp", "azure"));

		/**
		 * Wall-clock budget for detection as a whole: all network sources together, then
		 * the read of the brokers' racks with what is left.
		 */
		private Duration timeout = Duration.ofSeconds(1);

		/**
		 * Most time the read of the brokers' racks may take once a rack is found (to choose
		 * among several forms of the zone, or to check a single rack), within what is left
		 * of the detection timeout.
		 */
		private Duration brokerTimeout = Duration.ofSeconds(2);

		/**
		 * Whether to fail start-up when no rack is found.
		 */
		private boolean required;

		private final Env env = new Env();

		private final File file = new File();

		private final Ecs ecs = new Ecs();

		private final Kubernetes kubernetes = new Kubernetes();

		private final Aws aws = new Aws();

		private final Gcp gcp = new Gcp();

		private final Azure azure = new Azure();

		public List<String> getOrder() {
			return this.order;
		}

		public void setOrder(List<String> order) {
			this.order = order;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public Duration getBrokerTimeout() {
			return this.brokerTimeout;
		}

		public void setBrokerTimeout(Duration brokerTimeout) {
			this.brokerTimeout = brokerTimeout;
		}

		public boolean isRequired() {
			return this.required;
		}

		public void setRequired(boolean required) {
			this.required = required;
		}

		public Env getEnv() {
			return this.env;
		}

		public File getFile() {
			return this.file;
		}

		public Ecs getEcs() {
			return this.ecs;
		}

		public Kubernetes getKubernetes() {
			return this.kubernetes;
		}

		public Aws getAws() {
			return this.aws;
		}

		public Gcp getGcp() {
			return this.gcp;
		}

		public Azure getAzure() {
			return this.azure;
		}

	}

	public static class Env {

		/**
		 * Environment variables to read the rack from, in order.
		 */
		private List<String> variables = new ArrayList<>(List.of("KAFKA_CLIENT_RACK"));

		public List<String> getVariables() {
			return this.variables;
		}

		public void setVariables(List<String> variables) {
			this.variables = variables;
		}

	}

	public static class File {

		/**
		 * File holding the rack, either as a single value or as Kubernetes downward-API
		 * label lines key="value".
		 */
		private @Nullable Path path;

		/**
		 * Label to take the rack from when the file holds key="value" lines.
		 */
		private String key = "topology.kubernetes.io/zone";

		public @Nullable Path getPath() {
			return this.path;
		}

		public void setPath(@Nullable Path path) {
			this.path = path;
		}

		public String getKey() {
			return this.key;
		}

		public void setKey(String key) {
			this.key = key;
		}

	}

	public static class Ecs {

		/**
		 * Whether to read the availability zone from ECS task metadata (v4) when
		 * ECS_CONTAINER_METADATA_URI_V4 is set.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	public static class Kubernetes {

		/**
		 * Whether to read the zone label of this pod's node from the Kubernetes API server,
		 * inside a pod with a service account token. The service account needs get on
		 * nodes.
		 */
		private boolean enabled = true;

		/**
		 * Environment variable holding the node's name, given to the pod by the downward
		 * API (fieldRef spec.nodeName).
		 */
		private String nodeNameVariable = "NODE_NAME";

		/**
		 * Directory of the pod's service account token and the API server's CA
		 * certificate (token and ca.crt).
		 */
		private Path serviceAccount = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getNodeNameVariable() {
			return this.nodeNameVariable;
		}

		public void setNodeNameVariable(String nodeNameVariable) {
			this.nodeNameVariable = nodeNameVariable;
		}

		public Path getServiceAccount() {
			return this.serviceAccount;
		}

		public void setServiceAccount(Path serviceAccount) {
			this.serviceAccount = serviceAccount;
		}

	}

	public static class Aws {

		/**
		 * Whether to read the availability zone from EC2 instance metadata (IMDSv2, with an
		 * IMDSv1 fallback). AWS_EC2_METADATA_DISABLED=true also turns it off.
		 */
		private boolean enabled = true;

		/**
		 * EC2 instance metadata endpoint. Defaults to AWS_EC2_METADATA_SERVICE_ENDPOINT
		 * when set, else http://169.254.169.254 (http://[fd00:ec2::254] when
		 * AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE=IPv6).
		 */
		private @Nullable URI endpoint;

		/**
		 * Form of the availability zone to use as the rack: the AZ id, the AZ name, or
		 * whichever the brokers' racks use.
		 */
		private ZoneFormat zoneFormat = ZoneFormat.AUTO;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable URI getEndpoint() {
			return this.endpoint;
		}

		public void setEndpoint(@Nullable URI endpoint) {
			this.endpoint = endpoint;
		}

		public ZoneFormat getZoneFormat() {
			return this.zoneFormat;
		}

		public void setZoneFormat(ZoneFormat zoneFormat) {
			this.zoneFormat = zoneFormat;
		}

	}

	public static class Gcp {

		/**
		 * Whether to read the zone from the GCP metadata server.
		 */
		private boolean enabled = true;

		/**
		 * GCP metadata server endpoint. Defaults to GCE_METADATA_HOST when set, else
		 * http://metadata.google.internal.
		 */
		private @Nullable URI endpoint;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable URI getEndpoint() {
			return this.endpoint;
		}

		public void setEndpoint(@Nullable URI endpoint) {
			this.endpoint = endpoint;
		}

	}

	public static class Azure {

		/**
		 * Whether to read the location and zone from Azure instance metadata.
		 */
		private boolean enabled = true;

		/**
		 * Azure instance metadata endpoint. Defaults to http://169.254.169.254.
		 */
		private @Nullable URI endpoint;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable URI getEndpoint() {
			return this.endpoint;
		}

		public void setEndpoint(@Nullable URI endpoint) {
			this.endpoint = endpoint;
		}

	}

	public static class PolicyProperties {

		/**
		 * Fetch policy of listeners that do not choose one, and of consumers created
		 * outside listeners. Empty means locality.
		 */
		private Policy defaultPolicy = Policy.LOCALITY;

		/**
		 * Fetch policy per listener id. Overrides @FetchPolicy.
		 */
		private Map<String, Policy> listeners = new LinkedHashMap<>();

		/**
		 * Fetch policy per Kafka Streams application id. Freshness keeps the application's
		 * main consumer on the partition leaders; its restore and global consumers still
		 * read in this zone.
		 */
		private Map<String, Policy> streams = new LinkedHashMap<>();

		/**
		 * Fetch policy per Spring Cloud Stream binding name, for example process-in-0.
		 */
		private Map<String, Policy> bindings = new LinkedHashMap<>();

		/**
		 * Fetch policy per consumer the application or a library builds itself, by client
		 * id. Applied by ClientRackDecider.configure(ConsumerKind.OTHER, clientId, config);
		 * for a consumer the starter cannot configure it is the policy it is judged under
		 * (freshness: reading from the leaders is intended, not UNCOVERED).
		 */
		private Map<String, Policy> consumers = new LinkedHashMap<>();

		/**
		 * Longest time a consumer keeps reading from the follower a leader chose for it
		 * before it asks the leader again, applied as the consumer's metadata.max.age.ms
		 * where the application sets none. Bounds how long a consumer stays on a follower
		 * that stopped replicating while it still answers; costs one metadata request per
		 * consumer per lease. Zero leaves Kafka's own default of 5 minutes.
		 */
		private Duration replicaLease = Duration.ofSeconds(30);

		/**
		 * Longest time a consumer that reads from followers waits for a broker's answer
		 * before it gives up on that broker, applied as the consumer's request.timeout.ms
		 * where the application sets none. Bounds how long a consumer stays silent when the
		 * in-zone broker it reads from dies without closing its connections. Zero leaves
		 * Kafka's own default of 30 seconds.
		 */
		private Duration replicaRequestTimeout = Duration.ofSeconds(15);

		public Policy getDefault() {
			return this.defaultPolicy;
		}

		public void setDefault(@Nullable Policy defaultPolicy) {
			this.defaultPolicy = (defaultPolicy != null) ? defaultPolicy : Policy.LOCALITY;
		}

		public Map<String, Policy> getListeners() {
			return this.listeners;
		}

		public void setListeners(Map<String, Policy> listeners) {
			this.listeners = listeners;
		}

		public Map<String, Policy> getStreams() {
			return this.streams;
		}

		public void setStreams(Map<String, Policy> streams) {
			this.streams = streams;
		}

		public Map<String, Policy> getBindings() {
			return this.bindings;
		}

		public Map<String, Policy> getConsumers() {
			return this.consumers;
		}

		public void setConsumers(Map<String, Policy> consumers) {
			this.consumers = consumers;
		}

		public void setBindings(Map<String, Policy> bindings) {
			this.bindings = bindings;
		}

		public Duration getReplicaLease() {
			return this.replicaLease;
		}

		public void setReplicaLease(Duration replicaLease) {
			this.replicaLease = replicaLease;
		}

		public Duration getReplicaRequestTimeout() {
			return this.replicaRequestTimeout;
		}

		public void setReplicaRequestTimeout(Duration replicaRequestTimeout) {
			this.replicaRequestTimeout = replicaRequestTimeout;
		}

	}

	public static class Observation {

		/**
		 * Time between two refreshes of the read-locality snapshot that health and metrics
		 * report. Each refresh reads the consumers' own metrics and asks the brokers for
		 * their racks, selectors and partition placement. The first refresh comes a random
		 * part of it after start-up; a snapshot no refresh replaced for two intervals and
		 * the timeout reads STALE.
		 */
		private Duration refreshInterval = Duration.ofSeconds(30);

		/**
		 * How long a partition that has an in-sync replica in this zone may be read across
		 * zones before the state turns to FALLBACK (UNCOVERED for a consumer the starter
		 * did not configure), and how long its in-zone in-sync replicas may stay
		 * unreachable from this application before it turns to UNREACHABLE. Covers leader
		 * elections, lease renewals and broker restarts.
		 */
		private Duration fallbackGrace = Duration.ofMinutes(2);

		/**
		 * Bound of every call to the brokers during a refresh.
		 */
		private Duration timeout = Duration.ofSeconds(5);

		/**
		 * Most partitions listed per listener in health details (placement gaps,
		 * fallbacks).
		 */
		private int maxListedPartitions = 20;

		/**
		 * Most topics listed per producer factory in health details, and described at the
		 * brokers at each refresh: the most recently written. A producer's metrics keep
		 * every topic it has ever written to.
		 */
		private int maxListedTopics = 20;

		/**
		 * Whether consumers found in JMX that no listener, Kafka Streams application or
		 * binding accounts for (built by the application or a library) are observed and
		 * reported under otherConsumers, and share consumers under shareConsumers. JMX is
		 * process-wide: with several application contexts in one JVM, each reports the
		 * others' consumers too.
		 */
		private boolean otherConsumers = true;

		public Duration getRefreshInterval() {
			return this.refreshInterval;
		}

		public void setRefreshInterval(Duration refreshInterval) {
			this.refreshInterval = refreshInterval;
		}

		public Duration getFallbackGrace() {
			return this.fallbackGrace;
		}

		public void setFallbackGrace(Duration fallbackGrace) {
			this.fallbackGrace = fallbackGrace;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public int getMaxListedPartitions() {
			return this.maxListedPartitions;
		}

		public void setMaxListedPartitions(int maxListedPartitions) {
			this.maxListedPartitions = maxListedPartitions;
		}

		public int getMaxListedTopics() {
			return this.maxListedTopics;
		}

		public void setMaxListedTopics(int maxListedTopics) {
			this.maxListedTopics = maxListedTopics;
		}

		public boolean isOtherConsumers() {
			return this.otherConsumers;
		}

		public void setOtherConsumers(boolean otherConsumers) {
			this.otherConsumers = otherConsumers;
		}

	}

	public static class Producer {

		/**
		 * Whether producers send records without a key only to partitions whose leader is
		 * in this zone (partitioner.rack.aware, KIP-1123, Kafka clients 4.4 and later).
		 * Skews partitions when producers are not spread evenly over the zones. A producer
		 * factory's own partitioner.rack.aware wins.
		 */
		private boolean rackAware;

		public boolean isRackAware() {
			return this.rackAware;
		}

		public void setRackAware(boolean rackAware) {
			this.rackAware = rackAware;
		}

	}

	public static class Assignment {

		/**
		 * Whether consumers of the classic group protocol get the zone-aware assignor first
		 * in partition.assignment.strategy, followed by the strategies they had: with
		 * instances in every zone, each partition goes to an instance in its leader's zone
		 * where the balance allows. A consumer that names an assignor other than Kafka's
		 * own keeps its list as it is.
		 */
		private boolean enabled = true;

		/**
		 * Whether a group whose partitions are read from fewer in-zone leaders than the
		 * current leaders allow (after a broker restart or a reassignment moved them) is
		 * rebalanced by the listener container that led its last rebalance.
		 */
		private boolean realign = true;

		/**
		 * How long a group's assignment may stay below what the current leaders allow
		 * before it is rebalanced, and at least the leading consumer's metadata.max.age.ms,
		 * the age of the leaders its assignor goes by, lengthened by a random jitter of up
		 * to a quarter of it. Covers leader elections and broker restarts, after which
		 * leaders often return by themselves.
		 */
		private Duration realignGrace = Duration.ofMinutes(2);

		/**
		 * Least time between two rebalances of one group that realign its assignment,
		 * lengthened by a random jitter of up to a quarter of it, and doubled for that
		 * group (up to 16 times) by each further realignment that does not raise its
		 * partitions read from an in-zone leader.
		 */
		private Duration realignInterval = Duration.ofMinutes(10);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isRealign() {
			return this.realign;
		}

		public void setRealign(boolean realign) {
			this.realign = realign;
		}

		public Duration getRealignGrace() {
			return this.realignGrace;
		}

		public void setRealignGrace(Duration realignGrace) {
			this.realignGrace = realignGrace;
		}

		public Duration getRealignInterval() {
			return this.realignInterval;
		}

		public void setRealignInterval(Duration realignInterval) {
			this.realignInterval = realignInterval;
		}

	}

	public static class Health {

		/**
		 * Health status reported for a degraded state (STALE, NO_RACK, RACK_MISMATCH,
		 * SELECTOR_DISABLED, UNREACHABLE, LAGGING, FALLBACK, UNCOVERED). UNKNOWN leaves
		 * the application's overall status, liveness and readiness alone. A status code,
		 * as in management.endpoint.health.status.order, so that a custom status works.
		 */
		private String degradedStatus = "UNKNOWN";

		public String getDegradedStatus() {
			return this.degradedStatus;
		}

		public void setDegradedStatus(String degradedStatus) {
			this.degradedStatus = degradedStatus;
		}

	}

}
