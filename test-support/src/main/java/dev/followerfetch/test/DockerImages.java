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

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;

/**
 * Whether broker containers can run here: a Docker engine that Testcontainers reaches,
 * and the image, present or pulled within {@link #PULL_TIMEOUT}. Where they cannot, the
 * tests that need them are skipped with one line that says why, unless the system
 * property {@value #PROPERTY} is {@code required} (as in this project's CI), which makes
 * them fail instead.
 *
 * @author follower-fetch authors
 */
final class DockerImages {

	/**
	 * The system property that makes container tests fail, not skip, where containers
	 * cannot run.
	 */
	static final String PROPERTY = "follower-fetch.test.containers";

	static final Duration PULL_TIMEOUT = Duration.ofSeconds(30);

	private static final Map<String, Optional<String>> checked = new ConcurrentHashMap<>();

	private DockerImages() {
	}

	/**
	 * Why an image cannot run here.
	 * @param image the image
	 * @return the reason, or empty when it can run
	 */
	static Optional<String> unavailable(DockerImageName image) {
		return checked.computeIfAbsent(image.asCanonicalNameString(), (name) -> check(image));
	}

	/**
	 * Why an image cannot run here.
	 * @param image the image name, or empty for the {@code apache/kafka} image of the
	 * kafka-clients version on the class path
	 * @return the reason, or empty when it can run
	 */
	static Optional<String> unavailable(String image) {
		return unavailable(imageOrDefault(image));
	}

	static DockerImageName imageOrDefault(String image) {
		return image.isEmpty() ? MultiZoneKafkaContainers.defaultImage() : DockerImageName.parse(image);
	}

	static boolean required() {
		return "required".equalsIgnoreCase(System.getProperty(PROPERTY, ""));
	}

	private static Optional<String> check(DockerImageName image) {
		DockerClient docker;
		try {
			if (!DockerClientFactory.instance().isDockerAvailable()) {
				return Optional.of("Testcontainers finds no Docker engine");
			}
			docker = DockerClientFactory.instance().client();
		}
		catch (RuntimeException ex) {
			return Optional.of("Testcontainers cannot use the Docker engine (" + ex.getMessage() + "); where no "
					+ "registry serves its Ryuk image, set TESTCONTAINERS_RYUK_DISABLED=true");
		}
		if (present(docker, image)) {
			return Optional.empty();
		}
		String cause;
		try {
			boolean done = docker.pullImageCmd(image.getUnversionedPart())
				.withTag(image.getVersionPart())
				.start()
				.awaitCompletion(PULL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			cause = done ? "the pull ended without it" : "no pull within " + PULL_TIMEOUT.toSeconds() + " s";
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			cause = "interrupted";
		}
		catch (RuntimeException ex) {
			cause = ex.getClass().getSimpleName() + ": " + ex.getMessage();
		}
		if (present(docker, image)) {
			return Optional.empty();
		}
		return Optional.of(image.asCanonicalNameString() + " is not on the Docker engine and cannot be pulled (" + cause
				+ "); where no registry answers, docker/build-kafka-images.sh " + image.getVersionPart()
				+ " builds it");
	}

	private static boolean present(DockerClient docker, DockerImageName image) {
		try {
			docker.inspectImageCmd(image.asCanonicalNameString()).exec();
			return true;
		}
		catch (NotFoundException ex) {
			return false;
		}
	}

}
