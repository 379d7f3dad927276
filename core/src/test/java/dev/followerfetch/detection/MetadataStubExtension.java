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
package dev.followerfetch.detection;

import java.io.IOException;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension that gives each test a fresh {@link MetadataStubServer}. Register it on
 * an instance field:
 * <pre class="code">
 * &#064;RegisterExtension
 * final MetadataStubExtension metadata = new MetadataStubExtension();
 * </pre>
 * The stub starts before each test, ahead of the class's own {@code @BeforeEach} methods,
 * and is closed after it, so nothing a test routes or records reaches the next one.
 *
 * @author follower-fetch authors
 */
final class MetadataStubExtension implements BeforeEachCallback, AfterEachCallback {

	private MetadataStubServer stub;

	/**
	 * Return the stub of the running test.
	 * @return the stub
	 * @throws IllegalStateException if no test is running
	 */
	MetadataStubServer stub() {
		if (this.stub == null) {
			throw new IllegalStateException("No stub running: MetadataStubExtension starts one for each test");
		}
		return this.stub;
	}

	@Override
	public void beforeEach(ExtensionContext context) throws IOException {
		this.stub = MetadataStubServer.start();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (this.stub != null) {
			try {
				this.stub.close();
			}
			finally {
				this.stub = null;
			}
		}
	}

}
