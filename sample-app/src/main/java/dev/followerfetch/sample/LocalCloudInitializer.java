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
package dev.followerfetch.sample;

import java.util.HashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Starts a {@link LocalCloud} when no Kafka cluster is configured, and points the
 * application at it before any bean exists: {@code spring.kafka.bootstrap-servers} at its
 * brokers, and rack detection at its EC2 instance metadata as the only source (and, with
 * several instances, follower-fetch at its own consumers only: see
 * {@link DemoInstances#SHARED_JVM}). With
 * {@code spring.kafka.bootstrap-servers} set, it does nothing; nor does it while Spring AOT
 * processes the application at build time, which runs the initializers but needs no
 * cluster (an AOT-processed application run with {@code -Dspring.aot.enabled=true} starts
 * it as usual).
 * <p>
 * The cloud is registered for destruction before any bean, so it is stopped after every
 * bean that uses it, also when the application fails to start.
 *
 * @author follower-fetch authors
 */
class LocalCloudInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	/**
	 * The name of the property source that points the application at the local cloud.
	 */
	static final String PROPERTY_SOURCE = "localCloud";

	private static final String BOOTSTRAP_SERVERS = "spring.kafka.bootstrap-servers";

	private static final String AOT_PROCESSING = "spring.aot.processing";

	private static final Log logger = LogFactory.getLog(LocalCloudInitializer.class);

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		if (Boolean.getBoolean(AOT_PROCESSING)) {
			return;
		}
		ConfigurableEnvironment environment = context.getEnvironment();
		if (environment.containsProperty(BOOTSTRAP_SERVERS)) {
			logger.info("Using the Kafka cluster at " + environment.getProperty(BOOTSTRAP_SERVERS));
			return;
		}
		logger.info("No " + BOOTSTRAP_SERVERS + ": starting a local Kafka cluster with a broker in each of "
				+ LocalCloud.ZONES);
		DemoProperties demo = Binder.get(environment).bindOrCreate("demo", DemoProperties.class);
		LocalCloud cloud = LocalCloud.start();
		try {
			cloud.createTopic(demo.getTopic(), demo.getPartitions(),
					Math.min(demo.getReplicationFactor(), LocalCloud.ZONES.size()));
		}
		catch (RuntimeException ex) {
			cloud.close();
			throw ex;
		}
		((DefaultSingletonBeanRegistry) context.getBeanFactory()).registerDisposableBean("localCloud", cloud::close);
		Map<String, Object> properties = new HashMap<>(Map.of(BOOTSTRAP_SERVERS, cloud.bootstrapServers(),
				"follower-fetch.detection.order", "aws", "follower-fetch.detection.aws.endpoint",
				cloud.metadataEndpoint().toString()));
		if (demo.getInstances() > 1) {
			properties.putAll(DemoInstances.SHARED_JVM);
		}
		environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE, properties));
		logger.info("Local Kafka cluster at " + cloud.bootstrapServers() + "; EC2 instance metadata at "
				+ cloud.metadataEndpoint() + " places this process in " + LocalCloud.ZONE_ID + " ("
				+ LocalCloud.ZONE_NAME + ")");
	}

}
