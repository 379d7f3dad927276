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

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test JVM's metadata endpoints and Kubernetes API server point at a closed loopback
 * port, as {@code .mvn/loopback.properties} says for every build.
 *
 * @author follower-fetch authors
 */
class LoopbackPropertiesTests {

	@Test
	void everyMetadataAddressOfTheTestJvmIsAClosedLoopbackPort() throws IOException {
		Properties loopback = new Properties();
		try (InputStream in = Files.newInputStream(Path.of("..", ".mvn", "loopback.properties"))) {
			loopback.load(in);
		}
		assertThat(loopback.stringPropertyNames()).contains("follower-fetch.detection.aws.endpoint",
				"GCE_METADATA_HOST", "KUBERNETES_SERVICE_HOST");
		loopback.stringPropertyNames().forEach((name) -> {
			assertThat(loopback.getProperty(name)).as(name).matches("(.*127\\.0\\.0\\.1.*|9)");
			assertThat(System.getProperty(name)).as(name).isEqualTo(loopback.getProperty(name));
		});
	}

}
