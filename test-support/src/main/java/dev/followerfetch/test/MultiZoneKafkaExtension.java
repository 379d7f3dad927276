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

package dev.followerfetch.test;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;

/**
 * JUnit extension that runs one {@link MultiZoneKafkaCluster} per test class. Register it
 * on a static field:
 * <pre class="code">
 * &#064;RegisterExtension
 * static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("use1-az1", "use1-az2", "use1-az3");
 * </pre>
 * The cluster starts before the first test of the class and stops after the last one,
 * once every extension's {@code afterAll} has run (Spring's too, which closes a
 * {@code @DirtiesContext} application first); {@code @Nested} classes share it.
 *
 * @author follower-fetch authors
 */
public final class MultiZoneKafkaExtension implements BeforeAllCallback {

	private static final Namespace NAMESPACE = Namespace.create(MultiZoneKafkaExtension.class);

	private final MultiZoneKafkaCluster.Builder builder;

	private MultiZoneKafkaCluster cluster;

	private MultiZoneKafkaExtension(MultiZoneKafkaCluster.Builder builder) {
		this.builder = builder;
	}

	/**
	 * Create an extension for a cluster with the
	 * {@linkplain MultiZoneKafkaCluster#DEFAULT_ZONES default zones}.
	 * @return a new extension
	 */
	public static MultiZoneKafkaExtension withDefaultZones() {
		return new MultiZoneKafkaExtension(MultiZoneKafkaCluster.builder());
	}

	/**
	 * Create an extension for a cluster with one broker in each given zone.
	 * @param zones distinct zone names, in broker id order
	 * @return a new extension
	 */
	public static MultiZoneKafkaExtension withZones(String... zones) {
		return new MultiZoneKafkaExtension(MultiZoneKafkaCluster.builder().zones(zones));
	}

	/**
	 * Run the brokers without {@code replica.selector.class}, so that every read goes to
	 * the leader whatever {@code client.rack} says.
	 * @return this extension
	 */
	public MultiZoneKafkaExtension withoutReplicaSelector() {
		this.builder.replicaSelector(false);
		return this;
	}

	/**
	 * Put the network paths between zones and brokers behind loopback proxies that tests
	 * can cut.
	 * @return this extension
	 * @see MultiZoneKafkaCluster.Builder#zoneNetwork()
	 */
	public MultiZoneKafkaExtension withZoneNetwork() {
		this.builder.zoneNetwork();
		return this;
	}

	/**
	 * Set a property on every broker.
	 * @param name the property name
	 * @param value the property value
	 * @return this extension
	 * @see MultiZoneKafkaCluster.Builder#brokerProperty(String, String)
	 */
	public MultiZoneKafkaExtension withBrokerProperty(String name, String value) {
		this.builder.brokerProperty(name, value);
		return this;
	}

	/**
	 * Return the running cluster.
	 * @return the cluster
	 * @throws IllegalStateException if the cluster is not running, for example because the
	 * extension is not registered on a static field
	 */
	public synchronized MultiZoneKafkaCluster cluster() {
		if (this.cluster == null) {
			throw new IllegalStateException(
					"No cluster running: register MultiZoneKafkaExtension with @RegisterExtension on a static field");
		}
		return this.cluster;
	}

	@Override
	public synchronized void beforeAll(ExtensionContext context) {
		if (this.cluster == null) {
			this.cluster = this.builder.start();
			// closed with the class's context, after every afterAll callback
			context.getStore(NAMESPACE).put(this, (AutoCloseable) this::stop);
		}
	}

	private synchronized void stop() {
		if (this.cluster != null) {
			try {
				this.cluster.close();
			}
			finally {
				this.cluster = null;
			}
		}
	}

}
