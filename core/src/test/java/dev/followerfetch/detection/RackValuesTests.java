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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link RackValues}.
 *
 * @author follower-fetch authors
 */
class RackValuesTests {

	@ParameterizedTest
	@ValueSource(strings = { "use1-az2", "us-east-1b", "eastus-2", "2", "europe-west4-a", "rack_7", "a.b:c/d+e" })
	void realRackValuesAreValid(String value) {
		assertThat(RackValues.validate(value)).isEqualTo(value);
	}

	@Test
	void surroundingWhitespaceIsStripped() {
		assertThat(RackValues.validate(" \tuse1-az2\r\n")).isEqualTo("use1-az2");
	}

	@Test
	void valueOfMaximumLengthIsValid() {
		assertThat(RackValues.validate("a".repeat(128))).hasSize(128);
	}

	@Test
	void tooLongValueIsRejectedQuotingItShortened() {
		assertThatIllegalArgumentException().isThrownBy(() -> RackValues.validate("a".repeat(129)))
			.withMessage("value \"" + "a".repeat(40) + "\"... (129 characters) is longer than 128 characters");
	}

	@Test
	void emptyOrBlankValueIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> RackValues.validate("")).withMessage("empty value");
		assertThatIllegalArgumentException().isThrownBy(() -> RackValues.validate(" \n ")).withMessage("empty value");
		assertThatIllegalArgumentException().isThrownBy(() -> RackValues.validate(null)).withMessage("no value");
	}

	@Test
	void controlCharacterIsRejectedEscapedWithItsPosition() {
		assertThatIllegalArgumentException().isThrownBy(() -> RackValues.validate("use1\u0000az2\u001b[31m"))
			.withMessage("value \"use1\\u0000az2\\u001b[31m\" has a disallowed character at position 5 "
					+ "(a rack is 1 to 128 characters: letters, digits and - _ . : / +)");
	}

	@ParameterizedTest
	@ValueSource(strings = { "us east", "us\teast", "us\"east", "us\\east", "us;east", "zone\u00e9", "az\u202e1",
			"<html>", "us-east-1a\nus-east-1b" })
	void disallowedCharacterIsRejectedWithoutRawControlOrNonAsciiCharactersInTheMessage(String value) {
		assertThatIllegalArgumentException().isThrownBy(() -> RackValues.validate(value))
			.withMessageContaining("has a disallowed character at position")
			.satisfies((ex) -> assertThat(ex.getMessage()).matches("[\\x20-\\x7e]*"));
	}

	@Test
	void quoteEscapesQuotesBackslashesAndNonAsciiAndCutsLongValues() {
		assertThat(RackValues.quote("a\"b\\c\u00e9")).isEqualTo("\"a\\u0022b\\u005cc\\u00e9\"");
		assertThat(RackValues.quote("x".repeat(41))).isEqualTo("\"" + "x".repeat(40) + "\"... (41 characters)");
		assertThat(RackValues.quote(null)).isEqualTo("null");
	}

}
