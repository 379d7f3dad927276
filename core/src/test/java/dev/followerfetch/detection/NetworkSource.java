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

import java.net.URI;

import dev.followerfetch.detection.MetadataStubServer.ImdsMode;

/**
 * The four built-in sources that ask a metadata endpoint over the network, each with the
 * property that points it at an endpoint and a way to make a {@link MetadataStubServer}
 * answer it as its real endpoint would.
 *
 * @author follower-fetch authors
 */
enum NetworkSource {

	/**
	 * EC2 instance metadata (IMDSv2), {@code follower-fetch.detection.aws.endpoint}.
	 */
	AWS("aws") {

		@Override
		String pointAt(URI endpoint) {
			return "follower-fetch.detection.aws.endpoint=" + endpoint;
		}

		@Override
		MetadataStubServer play(MetadataStubServer stub) {
			return stub.imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		}

	},

	/**
	 * ECS task metadata v4, {@code ECS_CONTAINER_METADATA_URI_V4}.
	 */
	ECS("ecs") {

		@Override
		String pointAt(URI endpoint) {
			return EcsTaskMetadataRackSource.VARIABLE + "=" + endpoint + MetadataStubServer.ECS_BASE_PATH;
		}

		@Override
		MetadataStubServer play(MetadataStubServer stub) {
			return stub.ecs("us-east-1a");
		}

	},

	/**
	 * GCP metadata server, {@code follower-fetch.detection.gcp.endpoint}.
	 */
	GCP("gcp") {

		@Override
		String pointAt(URI endpoint) {
			return "follower-fetch.detection.gcp.endpoint=" + endpoint;
		}

		@Override
		MetadataStubServer play(MetadataStubServer stub) {
			return stub.gcp("projects/123456/zones/us-central1-b");
		}

	},

	/**
	 * Azure instance metadata, {@code follower-fetch.detection.azure.endpoint}.
	 */
	AZURE("azure") {

		@Override
		String pointAt(URI endpoint) {
			return "follower-fetch.detection.azure.endpoint=" + endpoint;
		}

		@Override
		MetadataStubServer play(MetadataStubServer stub) {
			return stub.azure("2", "eastus");
		}

	};

	private final String sourceName;

	NetworkSource(String sourceName) {
		this.sourceName = sourceName;
	}

	/**
	 * The name of the source, as in {@code follower-fetch.detection.order}.
	 * @return the name
	 */
	String sourceName() {
		return this.sourceName;
	}

	/**
	 * The property that points this source at an endpoint.
	 * @param endpoint the base URL of the endpoint
	 * @return the property as {@code name=value}
	 */
	abstract String pointAt(URI endpoint);

	/**
	 * Make a stub answer this source as its real endpoint would.
	 * @param stub the stub
	 * @return the stub
	 */
	abstract MetadataStubServer play(MetadataStubServer stub);

}
