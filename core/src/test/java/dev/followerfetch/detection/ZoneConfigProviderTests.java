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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.followerfetch.application.ZoneConfigProvider;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The zone config provider, resolved by Kafka's own configuration code as a Connect
 * worker, a connector and a plain client resolve it. Every source is pointed at a file or
 * a loopback stub.
 *
 * @author follower-fetch authors
 */
class ZoneConfigProviderTests {

	private static final String PARAM = "config.providers.zone.param.";

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@TempDir
	Path directory;

	@Test
	void aConnectWorkerConfigurationGetsTheZoneForItsConsumersAndProducers() throws IOException {
		Map<String, Object> worker = provider(fileSource("az-b"));
		worker.put("bootstrap.servers", "127.0.0.1:9");
		worker.put("group.id", "connect-cluster");
		worker.put("consumer.client.rack", "${zone:rack}");
		worker.put("producer.client.rack", "${zone:rack}");
		AbstractConfig resolved = new AbstractConfig(new ConfigDef(), worker);
		assertThat(resolved.originalsStrings()).containsEntry("consumer.client.rack", "az-b")
			.containsEntry("producer.client.rack", "az-b")
			.containsEntry("group.id", "connect-cluster");
	}

	@Test
	void aConnectorOverrideIsResolvedAsTheWorkerResolvesConnectorConfigurations() throws IOException {
		ZoneConfigProvider provider = new ZoneConfigProvider();
		provider.configure(Map.of("detection.order", "file", "detection.file.path", zoneFile("az-c").toString()));
		Map<String, String> connector = Map.of("connector.class", "FileStreamSink", "topics", "ledger",
				"consumer.override.client.rack", "${zone:rack}");
		assertThat(new ConfigTransformer(Map.of("zone", provider)).transform(connector).data())
			.containsEntry("consumer.override.client.rack", "az-c")
			.containsEntry("topics", "ledger");
	}

	@Test
	void aPlainConsumerConfigurationTakesTheZoneFromTheAwsMetadataTheFirmwareAllows() {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Map<String, Object> consumer = provider(Map.of("detection.order", "aws", "detection.aws.endpoint",
				this.metadata.stub().uri().toString()));
		consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
		consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		consumer.put(ConsumerConfig.CLIENT_RACK_CONFIG, "${zone:rack}");
		assertThat(new ConsumerConfig(consumer).getString(ConsumerConfig.CLIENT_RACK_CONFIG)).isEqualTo("use1-az2");
		consumer.put(PARAM + "detection.aws.zone-format", "name");
		assertThat(new ConsumerConfig(consumer).getString(ConsumerConfig.CLIENT_RACK_CONFIG)).isEqualTo("us-east-1b");
	}

	@Test
	void clientsConfiguredAtTheSameTimeShareOneDetection() throws Exception {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Map<String, Object> config = provider(Map.of("detection.order", "aws", "detection.aws.endpoint",
				this.metadata.stub().uri().toString()));
		config.put("client.rack", "${zone:rack}");
		for (Future<AbstractConfig> resolved : resolveAtTheSameTime(config)) {
			assertThat(resolved.get(10, TimeUnit.SECONDS).originalsStrings()).containsEntry("client.rack", "use1-az2");
		}
		assertThat(this.metadata.stub().requests(MetadataStubServer.TOKEN_PATH)).hasSize(1);
	}

	@Test
	void clientsConfiguredAtTheSameTimeShareOneFailedDetectionToo() throws Exception {
		Map<String, Object> config = provider(Map.of("detection.order", "aws", "detection.aws.endpoint",
				this.metadata.stub().uri().toString(), "detection.required", "true"));
		config.put("client.rack", "${zone:rack}");
		for (Future<AbstractConfig> resolved : resolveAtTheSameTime(config)) {
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> resolved.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(ConfigException.class)
				.withMessageContaining("No Kafka client.rack found and param.detection.required is true");
		}
		assertThat(this.metadata.stub().requests(MetadataStubServer.TOKEN_PATH)).hasSize(1);
	}

	@Test
	void theZoneIsDetectedOncePerSettingsAndNotForEveryClient() throws IOException {
		Path file = zoneFile("az-a");
		Map<String, Object> config = provider(
				Map.of("detection.order", "file", "detection.file.path", file.toString()));
		config.put("client.rack", "${zone:rack}");
		assertThat(new AbstractConfig(new ConfigDef(), config).originalsStrings()).containsEntry("client.rack", "az-a");
		Files.writeString(file, "topology.kubernetes.io/zone=az-c\n");
		assertThat(new AbstractConfig(new ConfigDef(), config).originalsStrings()).containsEntry("client.rack", "az-a");
	}

	@Test
	void noZoneFoundLeavesTheRackEmptySoTheClientReadsFromTheLeaders() {
		Map<String, Object> config = provider(Map.of("detection.order", "file"));
		config.put("client.rack", "${zone:rack}");
		assertThat(new AbstractConfig(new ConfigDef(), config).originalsStrings()).containsEntry("client.rack", "");
	}

	@Test
	void noZoneFoundWhenRequiredFailsTheClientsConfigurationNamingEverySourceTried() {
		Map<String, Object> config = provider(Map.of("detection.order", "file,env", "detection.env.variables",
				"FOLLOWER_FETCH_TEST_UNSET_ZONE", "detection.required", "true"));
		config.put("client.rack", "${zone:rack}");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new AbstractConfig(new ConfigDef(), config))
			.withMessageContaining("No Kafka client.rack found and param.detection.required is true")
			.withMessageContaining("file: not found, param.detection.file.path not set")
			.withMessageContaining("env: not found, FOLLOWER_FETCH_TEST_UNSET_ZONE not set");
	}

	@Test
	void aVariableInAParameterFailsBecauseKafkaLeavesItAsItIs() {
		ZoneConfigProvider provider = new ZoneConfigProvider();
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> provider.configure(Map.of("admin.bootstrap.servers", "${bootstrap.servers}")))
			.withMessageContaining("param.admin.bootstrap.servers")
			.withMessageContaining("Kafka does not resolve variables in the parameters of a config provider");
	}

	@Test
	void aNullPathIsThePathOfAPlainVariable() {
		ZoneConfigProvider provider = new ZoneConfigProvider();
		provider.configure(Map.of("rack", "az-b"));
		assertThat(provider.get(null, Set.of("rack")).data()).containsExactly(Map.entry("rack", "az-b"));
	}

	@Test
	void anExplicitRackNeedsNoSource() {
		ZoneConfigProvider provider = new ZoneConfigProvider();
		provider.configure(Map.of("rack", " use1-az4 ", "detection.order", ""));
		assertThat(provider.get("").data()).containsExactly(Map.entry("rack", "use1-az4"));
	}

	@Test
	void anUnknownParameterFailsNamingItAndTheKnownOnes() {
		ZoneConfigProvider provider = new ZoneConfigProvider();
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> provider.configure(Map.of("detection.ordr", "aws")))
			.withMessageContaining("param.detection.ordr")
			.withMessageContaining("Unknown parameter. Known parameters: detection.aws.enabled, ");
	}

	@Test
	void aBadValueFailsNamingTheParameter() {
		ZoneConfigProvider provider = new ZoneConfigProvider();
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> provider.configure(Map.of("detection.timeout", "0s")))
			.withMessage("Invalid value PT0S for configuration param.detection.timeout: The budget for network "
					+ "sources must be a positive duration, for example 1s.");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> provider.configure(Map.of("detection.timeout", "soon")))
			.withMessageContaining("param.detection.timeout")
			.withMessageContaining("Must be a duration such as 500ms, 1s, 2m or PT1S.");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> provider.configure(Map.of("detection.aws.endpoint", "http://127.0.0.1:9/latest")))
			.withMessageContaining("param.detection.aws.endpoint");
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> provider.configure(Map.of("detection.required", "yes")))
			.withMessageContaining("param.detection.required");
	}

	@Test
	void aKeyOtherThanRackFailsRatherThanStayingUnresolved() {
		ZoneConfigProvider provider = new ZoneConfigProvider();
		provider.configure(Map.of("rack", "az-b"));
		assertThatExceptionOfType(ConfigException.class)
			.isThrownBy(() -> new ConfigTransformer(Map.of("zone", provider)).transform(Map.of("client.rack",
					"${zone:rak}")))
			.withMessageContaining("rack")
			.withMessageContaining("[rak]");
	}

	/**
	 * Resolve one configuration on 8 threads at once, as clients created together do.
	 */
	private static List<Future<AbstractConfig>> resolveAtTheSameTime(Map<String, Object> config)
			throws InterruptedException {
		ExecutorService clients = Executors.newFixedThreadPool(8);
		try {
			List<Callable<AbstractConfig>> resolutions = Collections.nCopies(8,
					() -> new AbstractConfig(new ConfigDef(), config));
			return clients.invokeAll(resolutions, 30, TimeUnit.SECONDS);
		}
		finally {
			clients.shutdownNow();
		}
	}

	private Map<String, String> fileSource(String zone) throws IOException {
		return Map.of("detection.order", "file", "detection.file.path", zoneFile(zone).toString());
	}

	private Path zoneFile(String zone) throws IOException {
		Path file = Files.createTempFile(this.directory, "zone", ".properties");
		Files.writeString(file, "topology.kubernetes.io/zone=" + zone + "\n");
		return file;
	}

	private static Map<String, Object> provider(Map<String, String> parameters) {
		Map<String, Object> config = new HashMap<>();
		config.put("config.providers", "zone");
		config.put("config.providers.zone.class", ZoneConfigProvider.class.getName());
		parameters.forEach((name, value) -> config.put(PARAM + name, value));
		return config;
	}

}
