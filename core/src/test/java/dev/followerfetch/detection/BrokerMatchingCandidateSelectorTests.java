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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.CandidateSelector.Selection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BrokerMatchingCandidateSelector}.
 *
 * @author follower-fetch authors
 */
class BrokerMatchingCandidateSelectorTests {

	private static final List<RackCandidate> AWS = List.of(new RackCandidate("use1-az2", "availability-zone-id"),
			new RackCandidate("us-east-1b", "availability-zone"));

	private static final List<RackCandidate> AZURE = List.of(new RackCandidate("eastus-2", "location-zone"),
			new RackCandidate("2", "zone"));

	private static final BrokerRackLookup NOT_TO_BE_CALLED = (timeout) -> {
		throw new AssertionError("the brokers must not be consulted");
	};

	@Test
	void theAzIdIsChosenWhenTheBrokersAreLabelledWithAzIds() {
		Selection selection = select(ZoneFormat.AUTO, Set.of("use1-az1", "use1-az2", "use1-az3"), AWS);
		assertThat(selection.candidate().rack()).isEqualTo("use1-az2");
		assertThat(selection.reason()).contains("availability-zone-id matches the broker racks");
		assertThat(selection.brokerRacks()).containsExactlyInAnyOrder("use1-az1", "use1-az2", "use1-az3");
	}

	@Test
	void theAzNameIsChosenWhenTheBrokersAreLabelledWithAzNames() {
		Selection selection = select(ZoneFormat.AUTO, Set.of("us-east-1a", "us-east-1b", "us-east-1c"), AWS);
		assertThat(selection.candidate().rack()).isEqualTo("us-east-1b");
		assertThat(selection.candidate().attribute()).isEqualTo("availability-zone");
	}

	@Test
	void onAzureTheBareZoneNumberIsChosenWhenTheBrokersUseIt() {
		Selection selection = select(ZoneFormat.AUTO, Set.of("1", "2", "3"), AZURE);
		assertThat(selection.candidate().rack()).isEqualTo("2");
	}

	@Test
	void onAzureTheLocationZoneFormIsChosenWhenTheBrokersUseIt() {
		Selection selection = select(ZoneFormat.ID, Set.of("eastus-1", "eastus-2", "eastus-3"), AZURE);
		assertThat(selection.candidate().rack()).isEqualTo("eastus-2");
	}

	@Test
	void whenNoBrokerRackMatchesThePreferredFormIsKeptAndTheMismatchIsReported() {
		Selection selection = select(ZoneFormat.AUTO, Set.of("rack-1", "rack-2"), AWS);
		assertThat(selection.candidate().rack()).isEqualTo("use1-az2");
		assertThat(selection.reason()).isEqualTo("no broker rack matches use1-az2 (availability-zone-id), "
				+ "us-east-1b (availability-zone), kept the preferred availability-zone-id");
		assertThat(selection.brokerRacks()).containsExactlyInAnyOrder("rack-1", "rack-2");
	}

	@Test
	void whenTheBrokersHaveNoRacksThePreferredFormIsKeptAndThatIsSaid() {
		Selection selection = select(ZoneFormat.AUTO, Set.of(), AWS);
		assertThat(selection.candidate().rack()).isEqualTo("use1-az2");
		assertThat(selection.reason()).contains("the brokers have no broker.rack");
	}

	@Test
	void whenTheBrokersCannotBeReachedThePreferredFormIsKept() {
		BrokerMatchingCandidateSelector selector = selector((timeout) -> {
			throw new TimeoutException();
		}, Duration.ofMillis(250), ZoneFormat.AUTO);
		Selection selection = selector.select("aws", AWS, Duration.ofSeconds(1));
		assertThat(selection.candidate().rack()).isEqualTo("use1-az2");
		assertThat(selection.reason()).isEqualTo(
				"broker racks unknown (no answer within 250 ms), kept the preferred availability-zone-id");
		assertThat(selection.brokerRacks()).isNull();
	}

	@Test
	void anExplicitAwsZoneFormatIsUsedAndOnlyCheckedAgainstTheBrokers() {
		Selection selection = select(ZoneFormat.NAME, Set.of("use1-az1", "use1-az2"), List.of(AWS.get(1), AWS.get(0)));
		assertThat(selection.candidate().rack()).isEqualTo("us-east-1b");
		assertThat(selection.reason()).isEqualTo("follower-fetch.detection.aws.zone-format=name");
		assertThat(selection.brokerRacks()).containsExactly("use1-az1", "use1-az2");
	}

	@Test
	void aSingleCandidateIsKeptAndCheckedAgainstTheBrokers() {
		Selection selection = select(ZoneFormat.AUTO, Set.of("az-a", "az-b"), List.of(new RackCandidate("az-b", "env")));
		assertThat(selection.candidate().rack()).isEqualTo("az-b");
		assertThat(selection.reason()).isEqualTo("matches the broker racks [az-a, az-b]");
		Selection wrong = select(ZoneFormat.AUTO, Set.of("az-a", "az-b"), List.of(new RackCandidate("az-x", "env")));
		assertThat(wrong.candidate().rack()).isEqualTo("az-x");
		assertThat(wrong.reason()).isNull();
		assertThat(wrong.brokerRacks()).containsExactly("az-a", "az-b");
	}

	@Test
	void aSingleCandidateWhoseBrokersCannotBeReadIsKeptWithoutAWarning() {
		BrokerMatchingCandidateSelector selector = selector((timeout) -> {
			throw new IllegalStateException("no single KafkaAdmin bean to read them with");
		}, Duration.ofSeconds(2), ZoneFormat.AUTO);
		Selection selection = selector.select("env", List.of(new RackCandidate("az-b", "KAFKA_CLIENT_RACK")),
				Duration.ofSeconds(1));
		assertThat(selection.candidate().rack()).isEqualTo("az-b");
		assertThat(selection.reason())
			.isEqualTo("broker racks not read (no single KafkaAdmin bean to read them with)");
	}

	@Test
	void theBrokersGetWhatIsLeftOfTheDetectionBudgetAtMostTheBrokerTimeout() {
		List<Duration> asked = new ArrayList<>();
		BrokerMatchingCandidateSelector selector = selector((timeout) -> {
			asked.add(timeout);
			return Set.of("use1-az2");
		}, Duration.ofSeconds(2), ZoneFormat.AUTO);
		selector.select("aws", AWS, Duration.ofMillis(700));
		selector.select("aws", AWS, Duration.ofSeconds(5));
		assertThat(asked).containsExactly(Duration.ofMillis(700), Duration.ofSeconds(2));
	}

	@Test
	void whenDetectionUsedTheWholeBudgetTheBrokersAreNotAsked() {
		BrokerMatchingCandidateSelector selector = selector(NOT_TO_BE_CALLED,
				Duration.ofSeconds(2), ZoneFormat.AUTO);
		Selection selection = selector.select("aws", AWS, Duration.ZERO);
		assertThat(selection.candidate().rack()).isEqualTo("use1-az2");
		assertThat(selection.reason()).isEqualTo("broker racks unknown (follower-fetch.detection.timeout was used up "
				+ "before the brokers were asked), kept the preferred availability-zone-id");
	}

	private static Selection select(ZoneFormat format, Set<String> brokerRacks, List<RackCandidate> candidates) {
		BrokerMatchingCandidateSelector selector = selector((timeout) -> brokerRacks,
				Duration.ofSeconds(1), format);
		return selector.select((candidates == AZURE) ? "azure" : "aws", candidates, Duration.ofSeconds(1));
	}

	private static BrokerMatchingCandidateSelector selector(BrokerRackLookup brokers, Duration brokerTimeout,
			ZoneFormat awsZoneFormat) {
		DetectionSettings d = DetectionSettings.defaults(DetectionSettings.SPRING_BOOT_PREFIX);
		return new BrokerMatchingCandidateSelector(brokers,
				new DetectionSettings(d.prefix(), d.rack(), d.order(), d.timeout(), brokerTimeout, d.required(),
						d.envVariables(), d.file(), d.ecsEnabled(), d.kubernetes(), d.aws(), awsZoneFormat, d.gcp(),
						d.azure()));
	}

}
