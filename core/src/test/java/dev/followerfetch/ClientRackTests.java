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

import java.util.HashMap;
import java.util.Map;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What names a zone in {@code client.rack}: exactly what a Kafka consumer sends the
 * brokers after parsing its configuration.
 *
 * @author follower-fetch authors
 */
class ClientRackTests {

	@Property(tries = 300)
	void aSettingNamesTheZoneAKafkaConsumerSendsAndNoneWhenItSendsNone(@ForAll("settings") String setting) {
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
		config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		config.put(ConsumerConfig.CLIENT_RACK_CONFIG, setting);
		String sent = new ConsumerConfig(config).getString(ConsumerConfig.CLIENT_RACK_CONFIG);
		assertThat(ClientRack.zoneOf(setting)).isEqualTo(sent.isEmpty() ? null : sent);
		assertThat(ClientRack.names(setting)).isEqualTo(!sent.isEmpty());
	}

	@Test
	void anUnsetSettingNamesNoZone() {
		assertThat(ClientRack.of(null)).isEmpty();
		assertThat(ClientRack.names(null)).isFalse();
	}

	@Test
	void aRackIsBuiltOnlyFromATrimmedZone() {
		assertThat(new ClientRack("az-a")).hasToString("az-a");
		assertThatIllegalArgumentException().isThrownBy(() -> new ClientRack(" az-a"))
			.withMessageContaining("' az-a'");
		assertThatIllegalArgumentException().isThrownBy(() -> new ClientRack("\t"));
	}

	@Provide
	Arbitrary<String> settings() {
		Arbitrary<String> blanks = Arbitraries.strings().withChars(" \t\n\r\f").ofMaxLength(3);
		Arbitrary<String> zones = Arbitraries.oneOf(Arbitraries.of("az-a", "use1-az1", "europe-west1-b", "a b"),
				Arbitraries.strings().alpha().numeric().withChars("-_. ").ofMinLength(1).ofMaxLength(12));
		return Arbitraries.oneOf(blanks, zones.flatMap((zone) -> blanks.flatMap(
				(before) -> blanks.map((after) -> before + zone + after))));
	}

}
