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

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import dev.followerfetch.application.ZoneConfigProvider;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import dev.followerfetch.test.ConsumerReadStats;
import dev.followerfetch.test.MultiZoneKafkaExtension;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A plain {@link KafkaConsumer}, no Spring, configured with {@code client.rack=${zone:rack}}
 * on a real three-zone cluster whose brokers are labelled by AWS AZ name: the provider asks
 * the (stubbed) EC2 instance metadata, which answers the AZ id and the name, reads the
 * brokers' racks to pick the name over the id it prefers, and the consumer then reads from
 * the broker in its zone, as its own metrics say.
 *
 * @author follower-fetch authors
 */
class ZoneConfigProviderEndToEndTests {

	private static final String TOPIC = "ledger";

	private static final int RECORDS = 600;

	@RegisterExtension
	static final MultiZoneKafkaExtension kafka = MultiZoneKafkaExtension.withZones("us-east-1a", "us-east-1b",
			"us-east-1c");

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@BeforeAll
	static void topic() {
		kafka.cluster().createTopicLedByEveryZone(TOPIC, 3, 3);
		kafka.cluster().produce(TOPIC, RECORDS, 1024);
	}

	@Test
	void aPlainConsumerWithTheZoneFromTheProviderReadsInItsZone() {
		this.metadata.stub().imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2");
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.cluster().bootstrapServers());
		config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
		config.put("config.providers", "zone");
		config.put("config.providers.zone.class", ZoneConfigProvider.class.getName());
		config.put("config.providers.zone.param.detection.order", "aws");
		config.put("config.providers.zone.param.detection.aws.endpoint", this.metadata.stub().uri().toString());
		// the default second is a budget for a metadata service, not for a loopback stub on a loaded build machine
		config.put("config.providers.zone.param.detection.timeout", "10s");
		config.put("config.providers.zone.param.detection.broker-timeout", "30s");
		config.put("config.providers.zone.param.admin.bootstrap.servers", kafka.cluster().bootstrapServers());
		config.put(ConsumerConfig.CLIENT_RACK_CONFIG, "${zone:rack}");
		try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
			ConsumerReadStats stats = readAll(consumer);
			int inZone = kafka.cluster().brokerId("us-east-1b");
			assertThat(stats.preferredReadReplicas()).hasSize(3).allSatisfy((partition, replica) -> {
				int leader = kafka.cluster().describeTopic(TOPIC).partitions().get(partition.partition()).leader().id();
				assertThat(replica).isEqualTo((leader == inZone) ? ConsumerReadStats.LEADER : inZone);
			});
			assertThat(stats.fractionOfBytesFrom("us-east-1b", kafka.cluster()::rackOf)).isGreaterThanOrEqualTo(0.99);
		}
	}

	private static ConsumerReadStats readAll(KafkaConsumer<byte[], byte[]> consumer) {
		List<TopicPartition> partitions = IntStream.range(0, 3).mapToObj((p) -> new TopicPartition(TOPIC, p)).toList();
		consumer.assign(partitions);
		consumer.seekToBeginning(partitions);
		int[] read = { 0 };
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			read[0] += consumer.poll(Duration.ofMillis(100)).count();
			return read[0] >= RECORDS;
		});
		return ConsumerReadStats.of(consumer.metrics());
	}

}
