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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.common.TopicPartition;

/**
 * The test kit's brokers in a class loader of their own, for an application whose Kafka
 * is a line the test kit does not bind (Kafka 3.9, Spring Boot 3.5): the brokers run the
 * Kafka of {@code follower-fetch-test-brokers}, a jar that carries the test kit with its
 * Kafka and their dependencies, while the application and the fixture's own clients use
 * the application's kafka-clients, over the network as against any broker. The loader's
 * parent is the platform class loader, so no class of either Kafka is shared; what crosses
 * is JDK types and, rebuilt on each side, {@code TopicPartition}.
 *
 * @author follower-fetch authors
 */
final class IsolatedBrokers implements Brokers {

	/**
	 * {@code isolated} or {@code in-process}; unset, the brokers run isolated when the
	 * application's Kafka is older than 4.1.
	 */
	static final String MODE_PROPERTY = "follower-fetch.test.brokers";

	private static final String INDEX = "META-INF/follower-fetch/brokers.index";

	private static final String JARS = "META-INF/follower-fetch/brokers/";

	private static final String INTERNALS = "dev.followerfetch.test.KafkaInternals";

	private static final String TOPIC_PARTITION = "org.apache.kafka.common.TopicPartition";

	private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

	/**
	 * The brokers log through java.util.logging, shared with the application: Kafka's
	 * loggers at WARNING unless the application set them (in-process brokers log at the
	 * application's levels). Held here: java.util.logging keeps its loggers weakly.
	 */
	private static final List<Logger> BROKER_LOGGERS = Stream.of("kafka", "org.apache.kafka", "state.change.logger")
		.map(Logger::getLogger)
		.toList();

	private static ClassLoader loader;

	private final ClassLoader classLoader;

	private final Object internals;

	private IsolatedBrokers(ClassLoader classLoader, Object internals) {
		this.classLoader = classLoader;
		this.internals = internals;
	}

	/**
	 * Whether the brokers run isolated: as {@value #MODE_PROPERTY} says, else when the
	 * application's kafka-clients is older than 4.1.
	 */
	static boolean needed() {
		String mode = System.getProperty(MODE_PROPERTY, "").trim();
		return switch (mode) {
			case "isolated" -> true;
			case "in-process" -> false;
			case "" -> !inProcessLine(Brokers.kafkaVersion());
			default -> throw new IllegalStateException(
					MODE_PROPERTY + "=" + mode + " is neither 'isolated' nor 'in-process'");
		};
	}

	static boolean inProcessLine(String kafkaVersion) {
		Matcher version = VERSION.matcher(kafkaVersion);
		if (!version.find()) {
			return true;
		}
		int major = Integer.parseInt(version.group(1));
		int minor = Integer.parseInt(version.group(2));
		return major > 4 || (major == 4 && minor >= 1);
	}

	static Brokers build(List<String> zones, boolean replicaSelector, Map<String, String> brokerProperties,
			Duration startupTimeout) {
		ClassLoader isolated = classLoader();
		Object internals = inside(isolated, () -> method(isolated, "build", List.class, boolean.class, Map.class,
				Duration.class)
			.invoke(null, List.copyOf(zones), replicaSelector, Map.copyOf(brokerProperties), startupTimeout));
		String brokerVersion = inside(isolated, () -> (String) method(isolated, "kafkaVersion").invoke(null));
		System.getLogger(IsolatedBrokers.class.getName())
			.log(System.Logger.Level.INFO, "The brokers of the test cluster run Kafka " + brokerVersion
					+ " in a class loader of their own; the application runs Kafka " + Brokers.kafkaVersion());
		return new IsolatedBrokers(isolated, internals);
	}

	static void keepBrokersFromEndingTheJvm() {
		ClassLoader isolated = classLoader();
		inside(isolated, () -> method(isolated, "keepBrokersFromEndingTheJvm").invoke(null));
	}

	static void registerShutdownHooksWith(Consumer<Runnable> registrar) {
		ClassLoader isolated = classLoader();
		inside(isolated, () -> method(isolated, "registerShutdownHooksWith", Consumer.class).invoke(null, registrar));
	}

	@Override
	public void start() {
		call("start", new Class<?>[0]);
	}

	@Override
	public String bootstrapServers() {
		return (String) call("bootstrapServers", new Class<?>[0]);
	}

	@Override
	@SuppressWarnings("unchecked")
	public Set<Integer> brokerIds() {
		return (Set<Integer>) call("brokerIds", new Class<?>[0]);
	}

	@Override
	@SuppressWarnings("unchecked")
	public Set<Integer> runningBrokerIds() {
		return (Set<Integer>) call("runningBrokerIds", new Class<?>[0]);
	}

	@Override
	public void shutDownBroker(int brokerId) {
		call("shutDownBroker", new Class<?>[] { int.class }, brokerId);
	}

	@Override
	public void startUpBroker(int brokerId) {
		call("startUpBroker", new Class<?>[] { int.class }, brokerId);
	}

	@Override
	public boolean seesAlive(int observerId, int brokerId) {
		return (Boolean) call("seesAlive", new Class<?>[] { int.class, int.class }, observerId, brokerId);
	}

	@Override
	public Optional<PartitionState> partitionState(int brokerId, String topic, int partition) {
		Optional<?> state = (Optional<?>) call("partitionState",
				new Class<?>[] { int.class, String.class, int.class }, brokerId, topic, partition);
		return state.map((isolated) -> inside(this.classLoader, () -> {
			Class<?> type = isolated.getClass();
			@SuppressWarnings("unchecked")
			List<Integer> isr = (List<Integer>) accessible(type.getDeclaredMethod("isr")).invoke(isolated);
			return new PartitionState((Integer) accessible(type.getDeclaredMethod("leader")).invoke(isolated),
					(Integer) accessible(type.getDeclaredMethod("leaderEpoch")).invoke(isolated), List.copyOf(isr));
		}));
	}

	@Override
	public Hosting hosting(int brokerId, TopicPartition partition) {
		Object hosting = call("hosting", new Class<?>[] { int.class, isolatedClass(TOPIC_PARTITION) }, brokerId,
				isolated(partition));
		return Hosting.valueOf(((Enum<?>) hosting).name());
	}

	@Override
	public Set<TopicPartition> stallReplication(int brokerId, Set<TopicPartition> followed) {
		Set<?> stalled = (Set<?>) call("stallReplication", new Class<?>[] { int.class, Set.class }, brokerId,
				followed.stream().map(this::isolated).collect(Collectors.toSet()));
		return stalled.stream()
			.map(Object::toString)
			.map((name) -> new TopicPartition(name.substring(0, name.lastIndexOf('-')),
					Integer.parseInt(name.substring(name.lastIndexOf('-') + 1))))
			.collect(Collectors.toSet());
	}

	@Override
	public void resumeReplication(int brokerId) {
		call("resumeReplication", new Class<?>[] { int.class }, brokerId);
	}

	@Override
	public void close() {
		call("close", new Class<?>[0]);
	}

	private Object isolated(TopicPartition partition) {
		return inside(this.classLoader, () -> isolatedClass(TOPIC_PARTITION).getConstructor(String.class, int.class)
			.newInstance(partition.topic(), partition.partition()));
	}

	private Class<?> isolatedClass(String name) {
		return inside(this.classLoader, () -> Class.forName(name, false, this.classLoader));
	}

	private Object call(String name, Class<?>[] types, Object... args) {
		return inside(this.classLoader, () -> accessible(this.internals.getClass().getDeclaredMethod(name, types))
			.invoke(this.internals, args));
	}

	private static Method method(ClassLoader isolated, String name, Class<?>... types)
			throws ReflectiveOperationException {
		return accessible(Class.forName(INTERNALS, true, isolated).getDeclaredMethod(name, types));
	}

	private static Method accessible(Method method) {
		method.setAccessible(true);
		return method;
	}

	/**
	 * Run with the isolated loader as the thread's context class loader: Kafka loads the
	 * classes its configuration names through it, also in the threads it starts.
	 */
	private static <T> T inside(ClassLoader isolated, Callable<T> call) {
		Thread thread = Thread.currentThread();
		ClassLoader previous = thread.getContextClassLoader();
		thread.setContextClassLoader(isolated);
		try {
			return call.call();
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot drive the isolated brokers: " + ex, ex);
		}
		finally {
			thread.setContextClassLoader(previous);
		}
	}

	private static synchronized ClassLoader classLoader() {
		if (loader == null) {
			BROKER_LOGGERS.stream()
				.filter((logger) -> logger.getLevel() == null)
				.forEach((logger) -> logger.setLevel(Level.WARNING));
			loader = new URLClassLoader("follower-fetch-brokers", jars(), ClassLoader.getPlatformClassLoader());
		}
		return loader;
	}

	/**
	 * The jars of {@code follower-fetch-test-brokers}, copied for this JVM to a directory of
	 * its own (owner-only, under {@code java.io.tmpdir}, deleted when the JVM exits): a class
	 * loader reads jars from files, not from inside another jar, and a copy shared between
	 * runs could be one of an older build of the same version.
	 */
	private static URL[] jars() {
		ClassLoader here = IsolatedBrokers.class.getClassLoader();
		try (InputStream index = here.getResourceAsStream(INDEX)) {
			if (index == null) {
				throw new IllegalStateException("The application's Kafka is " + Brokers.kafkaVersion()
						+ ", and the test kit's brokers run Kafka 4.1 or later: add "
						+ "dev.followerfetch:follower-fetch-test-brokers to the test dependencies, and they run in a "
						+ "class loader of their own (see follower-fetch's docs/testing.md)");
			}
			List<String> names = new String(index.readAllBytes(), StandardCharsets.UTF_8).lines()
				.map(String::trim)
				.filter((line) -> !line.isEmpty())
				.toList();
			Path directory = Files.createTempDirectory("follower-fetch-brokers-");
			directory.toFile().deleteOnExit();
			List<URL> urls = new ArrayList<>();
			for (String name : names) {
				if (name.contains("/") || name.contains("\\") || !name.endsWith(".jar")) {
					throw new IllegalStateException(INDEX + " lists '" + name + "', which is no jar file name");
				}
				urls.add(copy(here, name, directory.resolve(name)).toUri().toURL());
			}
			return urls.toArray(URL[]::new);
		}
		catch (MalformedURLException ex) {
			throw new IllegalStateException(ex);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot unpack the brokers of follower-fetch-test-brokers", ex);
		}
	}

	private static Path copy(ClassLoader here, String name, Path target) throws IOException {
		try (InputStream jar = here.getResourceAsStream(JARS + name)) {
			if (jar == null) {
				throw new IllegalStateException(INDEX + " lists " + name + ", but " + JARS + name + " is missing");
			}
			Files.copy(jar, target);
			target.toFile().deleteOnExit();
			return target;
		}
	}

}
