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

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link NamedSettings}.
 *
 * @author follower-fetch authors
 */
class NamedSettingsTests {

	@Test
	void aBoundValueIsTakenAsItIsAndTextIsParsed() {
		NamedSettings bound = NamedSettings.bound("follower-fetch.",
				Map.of("detection.file.key", " zone ", "detection.order", List.of(" env ")));
		NamedSettings text = NamedSettings.parameters("param.",
				Map.of("detection.file.key", " zone ", "detection.order", " env , ,aws"));
		assertThat(bound.word("detection.file.key", "key")).isEqualTo(" zone ");
		assertThat(bound.list("detection.order", List.of())).containsExactly(" env ");
		assertThat(text.word("detection.file.key", "key")).isEqualTo("zone");
		assertThat(text.list("detection.order", List.of())).containsExactly("env", "aws");
	}

	@Test
	void aMissingParameterKeepsItsDefault() {
		NamedSettings none = NamedSettings.defaults("param.");
		assertThat(none.duration("detection.timeout", Duration.ofSeconds(1))).isEqualTo(Duration.ofSeconds(1));
		assertThat(none.choice("detection.aws.zone-format", ZoneFormat.class, ZoneFormat.AUTO, "Must be auto."))
			.isEqualTo(ZoneFormat.AUTO);
	}

	@Test
	void aNameTheAdapterDidNotBindIsTheAdaptersMistakeNotTheUsers() {
		NamedSettings bound = NamedSettings.bound("follower-fetch.", Map.of());
		assertThatIllegalStateException().isThrownBy(() -> bound.duration("detection.timeout", Duration.ZERO))
			.withMessage("No bound value named follower-fetch.detection.timeout");
	}

	@Test
	void aParameterNothingReadIsUnknownAndNamedWithThePrefix() {
		NamedSettings text = NamedSettings.parameters("param.", Map.of("detection.timeout", "2s", "detection.tmeout", "1s"));
		text.duration("detection.timeout", Duration.ofSeconds(1));
		assertThatExceptionOfType(InvalidSettingException.class).isThrownBy(text::failOnUnknown)
			.satisfies((ex) -> assertThat(ex.setting()).isEqualTo("param.detection.tmeout"))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo("Unknown parameter. Known parameters: detection.timeout."));
	}

}
