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
package dev.followerfetch.policy;

import java.util.Optional;
import java.util.function.Function;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import dev.followerfetch.InvalidSettingException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ClientIdZone}, read back the way each broker reads a client id
 * ({@link ZoneRoutingBrokers}).
 *
 * @author follower-fetch authors
 */
class ClientIdZoneTests {

	@Property(tries = 300)
	void everyBrokerReadsTheZoneBackAfterSpringKafkaAppendsItsSuffix(@ForAll("flavours") String flavour,
			@ForAll("clientIds") String own, @ForAll("zones") String zone, @ForAll @IntRange(max = 64) int suffix) {
		String clientId = ClientIdZone.of(flavour).clientId(own.isEmpty() ? null : own, "orders", zone).orElseThrow();
		assertThat(reader(flavour).apply(clientId + "-" + suffix)).contains(zone);
		assertThat(reader(flavour).apply(clientId)).contains(zone);
	}

	@Property(tries = 300)
	void theClientsOwnIdFollowsTheTagUnchanged(@ForAll("flavours") String flavour, @ForAll("clientIds") String own,
			@ForAll("zones") String zone) {
		String clientId = ClientIdZone.of(flavour).clientId(own.isEmpty() ? null : own, "orders", zone).orElseThrow();
		String key = switch (flavour) {
			case "warpstream" -> "warpstream_az";
			case "inkless" -> "diskless_az";
			case "automq" -> "automq_az";
			default -> flavour;
		};
		assertThat(clientId).isEqualTo(key + "=" + zone + (flavour.equals("automq") ? "&" : ",")
				+ (own.isEmpty() ? "orders" : own));
	}

	@Property(tries = 200)
	void aClientIdThatAlreadyCarriesTheTagIsKeptAndTaggingTwiceChangesNothing(@ForAll("flavours") String flavour,
			@ForAll("clientIds") String own, @ForAll("zones") String zone) {
		ClientIdZone tag = ClientIdZone.of(flavour);
		String once = tag.clientId(own.isEmpty() ? null : own, "orders", zone).orElseThrow();
		assertThat(tag.tagged(once)).isTrue();
		assertThat(tag.clientId(once, "orders", "az-other")).isEmpty();
	}

	@Test
	void warpStreamsAliasInAnApplicationsOwnClientIdIsKept() {
		assertThat(ClientIdZone.of("warpstream").clientId("ws_az=us-east-1b,billing", "x", "us-east-1a")).isEmpty();
		assertThat(ClientIdZone.of("warpstream").clientId("billing,ws_az=us-east-1b", "x", "us-east-1a")).isEmpty();
	}

	@Test
	void theDocumentedTagsOfEachBroker() {
		assertThat(ClientIdZone.of("warpstream").clientId("billing", null, "us-east-1a"))
			.contains("warpstream_az=us-east-1a,billing");
		assertThat(ClientIdZone.of("inkless").clientId(null, "billing", "eu-west-1b"))
			.contains("diskless_az=eu-west-1b,billing");
		assertThat(ClientIdZone.of("AutoMQ").clientId("billing", null, "cn-hangzhou-b"))
			.contains("automq_az=cn-hangzhou-b&billing");
		assertThat(ClientIdZone.of("zone").clientId("billing", null, "us-west-2b")).contains("zone=us-west-2b,billing");
	}

	@Property(tries = 200)
	void untaggingGivesBackTheIdTheApplicationGave(@ForAll("flavours") String flavour, @ForAll("clientIds") String own,
			@ForAll("zones") String zone) {
		ClientIdZone tag = ClientIdZone.of(flavour);
		String expected = own.isEmpty() ? "orders" : own;
		assertThat(tag.untagged(tag.clientId(own.isEmpty() ? null : own, "orders", zone).orElseThrow()))
			.isEqualTo(expected);
		assertThat(tag.untagged(expected)).isEqualTo(expected);
	}

	@Test
	void anApplicationsOwnIdIsKeptExactlyEvenWithBlanksAroundIt() {
		assertThat(ClientIdZone.of("warpstream").clientId(" billing ", "x", "az-a")).contains("warpstream_az=az-a, billing ");
	}

	@Test
	void noneLeavesEveryClientIdAlone() {
		assertThat(ClientIdZone.of("none").enabled()).isFalse();
		assertThat(ClientIdZone.of(" ").clientId("billing", "x", "az-a")).isEmpty();
		assertThat(ClientIdZone.NONE.tagged("warpstream_az=az-a,billing")).isFalse();
	}

	@Test
	void aClientWithoutAnIdAndNothingToFollowTheTagIsLeftToKafka() {
		assertThat(ClientIdZone.of("warpstream").clientId(null, null, "az-a")).isEmpty();
		assertThat(ClientIdZone.of("warpstream").clientId("  ", " ", "az-a")).isEmpty();
	}

	@Test
	void aZoneThatWouldBreakTheBrokersParsingGivesNoTag() {
		ClientIdZone tag = ClientIdZone.of("warpstream");
		assertThat(tag.clientId("billing", null, null)).isEmpty();
		assertThat(tag.clientId("billing", null, "az a")).isEmpty();
		assertThat(tag.clientId("billing", null, "az,a")).isEmpty();
		assertThat(tag.clientId("billing", null, "az=a")).isEmpty();
		assertThat(ClientIdZone.of("automq").clientId("billing", null, "az&a")).isEmpty();
		assertThat(ClientIdZone.of("automq").clientId("billing", null, "az%20a")).isEmpty();
		assertThat(ClientIdZone.of("automq").clientId("billing", null, "az+a")).isEmpty();
	}

	@Test
	void aKeyWithASeparatorIsRefusedNamingTheProperty() {
		assertThatExceptionOfType(InvalidSettingException.class)
			.isThrownBy(() -> ClientIdZone.of("my,zone"))
			.withMessageContaining("follower-fetch.client-id-zone")
			.withMessageContaining("my,zone")
			.withMessageContaining("warpstream, inkless, automq");
	}

	@Provide
	Arbitrary<String> flavours() {
		return Arbitraries.of("warpstream", "inkless", "automq", "zone", "my.az_key-1");
	}

	@Provide
	Arbitrary<String> clientIds() {
		return Arbitraries.oneOf(Arbitraries.strings().withCharRange('a', 'z').withChars('-', '_', '.', '0').ofMaxLength(20),
				Arbitraries.of("billing,ws_route=1", "app-consumer", "consumer-orders-1", "a&b", "x y"));
	}

	@Provide
	Arbitrary<String> zones() {
		return Arbitraries.oneOf(Arbitraries.of("us-east-1a", "use1-az1", "europe-west1-b", "eastus-2", "az-a", "1"),
				Arbitraries.strings().withCharRange('a', 'z').withChars('-', '0', '9').ofMinLength(1).ofMaxLength(16));
	}

	private static Function<String, Optional<String>> reader(String flavour) {
		return switch (flavour) {
			case "warpstream" -> ZoneRoutingBrokers::warpstream;
			case "inkless" -> ZoneRoutingBrokers::inkless;
			case "automq" -> ZoneRoutingBrokers::automq;
			default -> (clientId) -> ZoneRoutingBrokers.custom(clientId, flavour);
		};
	}

}
