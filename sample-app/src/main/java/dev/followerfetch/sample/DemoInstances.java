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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.stereotype.Component;
import org.springframework.util.Assert;

/**
 * The other instances of the application when {@code demo.instances} is more than one.
 * The first instance starts each of them, once its own listeners run, as a
 * {@link SampleApplication} of its own in one JVM: its own application context, with the
 * same arguments, the same listeners and so the same consumer groups, the next Actuator
 * port, and EC2 instance metadata of its own on loopback that places it in the zone
 * {@link LocalCloud#zoneOf(int)} names. Its rack is detected from that metadata, as the
 * first instance's is from the local cloud's.
 * <p>
 * The other instances only read: they send no records, print no table and wait for the
 * first instance, which closes them, and their metadata, before it stops.
 *
 * @author follower-fetch authors
 */
@Component
class DemoInstances implements SmartLifecycle, DisposableBean {

	/**
	 * What every instance is given when several share the JVM. JMX, where follower-fetch
	 * finds consumers that none of its listeners accounts for, is process-wide: each
	 * instance would report the others' consumers as its own under
	 * {@code otherConsumers}, judge them against its own zone, and after
	 * {@code follower-fetch.observation.fallback-grace} turn {@code UNCOVERED}.
	 */
	static final Map<String, Object> SHARED_JVM = Map.of("follower-fetch.observation.other-consumers", "false");

	private static final String BOOTSTRAP_SERVERS = "spring.kafka.bootstrap-servers";

	private static final List<String> PORTS = List.of("server.port", "management.server.port");

	private static final Log logger = LogFactory.getLog(DemoInstances.class);

	private final DemoProperties properties;

	private final ConfigurableEnvironment environment;

	private final String[] args;

	private final List<OtherInstance> others = new ArrayList<>();

	private volatile boolean running;

	DemoInstances(DemoProperties properties, ConfigurableEnvironment environment, ApplicationArguments arguments) {
		Assert.isTrue(properties.getInstances() >= 1,
				() -> "demo.instances must be at least 1, not " + properties.getInstances());
		if (properties.getInstance() == 1 && properties.getInstances() > 1
				&& !environment.getPropertySources().contains(LocalCloudInitializer.PROPERTY_SOURCE)) {
			throw new IllegalStateException("demo.instances=" + properties.getInstances()
					+ " needs the local cluster the sample starts when " + BOOTSTRAP_SERVERS
					+ " is not set; with a cluster of your own, run an instance in each zone yourself");
		}
		this.properties = properties;
		this.environment = environment;
		this.args = arguments.getSourceArgs();
	}

	/**
	 * Start the other instances, one after the other, when this is the first instance.
	 */
	@Override
	public void start() {
		this.running = true;
		if (this.properties.getInstance() != 1) {
			return;
		}
		for (int instance = 2; instance <= this.properties.getInstances(); instance++) {
			OtherInstance other = start(instance);
			synchronized (this.others) {
				this.others.add(other);
			}
		}
	}

	/**
	 * Close the other instances and their metadata, the last started first.
	 */
	@Override
	public void stop() {
		this.running = false;
		closeOthers();
	}

	@Override
	public void destroy() {
		closeOthers();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * After the listener containers and the web server, so that the other instances join
	 * the groups once this one reads; before {@link DemoTimeLimit}, so that
	 * {@code demo.duration} counts from the moment every instance runs.
	 */
	@Override
	public int getPhase() {
		return Integer.MAX_VALUE - 1;
	}

	/**
	 * The other instances' application contexts, in the order they started.
	 * @return the running other instances; empty in any but the first instance
	 */
	List<ConfigurableApplicationContext> others() {
		synchronized (this.others) {
			return this.others.stream()
				.map(OtherInstance::context)
				.filter(ConfigurableApplicationContext::isActive)
				.toList();
		}
	}

	private OtherInstance start(int instance) {
		String zone = LocalCloud.zoneOf(instance);
		String zoneName = LocalCloud.zoneName(zone);
		Ec2MetadataStub metadata = startMetadata(zone, zoneName);
		try {
			Map<String, Object> properties = new HashMap<>(SHARED_JVM);
			properties.put("demo.instance", instance);
			properties.put(BOOTSTRAP_SERVERS, this.environment.getRequiredProperty(BOOTSTRAP_SERVERS));
			properties.put("follower-fetch.detection.order", "aws");
			properties.put("follower-fetch.detection.aws.endpoint", metadata.endpoint().toString());
			for (String port : PORTS) {
				Integer first = this.environment.getProperty(port, Integer.class);
				if (first != null && first > 0) {
					properties.put(port, first + instance - 1);
				}
			}
			SpringApplication application = new SpringApplication(SampleApplication.class);
			application.setMainApplicationClass(SampleApplication.class);
			application.setBannerMode(Banner.Mode.OFF);
			application.setLogStartupInfo(false);
			application.setRegisterShutdownHook(false);
			application.addInitializers((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("demoInstance", properties)));
			logger.info("Starting instance " + instance + " of " + this.properties.getInstances()
					+ ": EC2 instance metadata at " + metadata.endpoint() + " places it in " + zone + " (" + zoneName
					+ ")");
			ConfigurableApplicationContext context = application.run(this.args);
			logger.info("Instance " + instance + " started, Actuator on port "
					+ context.getEnvironment().getProperty("local.server.port"));
			return new OtherInstance(context, metadata);
		}
		catch (RuntimeException ex) {
			metadata.close();
			throw ex;
		}
	}

	private static Ec2MetadataStub startMetadata(String zone, String zoneName) {
		try {
			return Ec2MetadataStub.start(zone, zoneName);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Failed to start the EC2 instance metadata stub for " + zone, ex);
		}
	}

	private void closeOthers() {
		List<OtherInstance> others;
		synchronized (this.others) {
			others = new ArrayList<>(this.others);
			this.others.clear();
		}
		Collections.reverse(others);
		for (OtherInstance other : others) {
			other.close();
		}
	}

	/**
	 * An instance the first one started, and its instance metadata.
	 */
	private record OtherInstance(ConfigurableApplicationContext context, Ec2MetadataStub metadata) {

		void close() {
			try {
				this.context.close();
			}
			finally {
				this.metadata.close();
			}
		}

	}

}
