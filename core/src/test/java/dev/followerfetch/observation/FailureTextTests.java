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
package dev.followerfetch.observation;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FailureText}: what the health details and the logs say of a failure.
 *
 * @author follower-fetch authors
 */
class FailureTextTests {

	@Test
	void aFailureIsItsClassAndMessageInOneLine() {
		assertThat(FailureText.of(new NoClassDefFoundError("org/example/Gone")))
			.isEqualTo("NoClassDefFoundError: org/example/Gone");
		assertThat(FailureText.of(new OutOfMemoryError())).isEqualTo("OutOfMemoryError: OutOfMemoryError");
		assertThat(FailureText.of(new IllegalStateException("two\r\n\tlines  here"))).isEqualTo("IllegalStateException: two lines here");
	}

	@Test
	void controlAndFormatCharactersAreRemoved() {
		assertThat(FailureText.of(new IllegalStateException("\u001b[2Jcleared\u0000\u0007\u0085\u202eevil\u200b")))
			.isEqualTo("IllegalStateException: [2Jclearedevil");
		assertThat(FailureText.of(new IllegalStateException("caf\u00e9 \ud83d\ude00"))).endsWith("caf\u00e9 \ud83d\ude00");
	}

	@Test
	void aLongMessageIsCut() {
		String text = FailureText.of(new IllegalStateException("x".repeat(10_000)));
		assertThat(text).hasSize(FailureText.MAX_LENGTH).startsWith("IllegalStateException: xxx").endsWith("x...");
		// the cut would fall between the two halves of an emoji
		String emoji = FailureText.of(new IllegalStateException("a" + "\ud83d\ude00".repeat(1_000)));
		assertThat(emoji).hasSize(FailureText.MAX_LENGTH - 1).endsWith("\ud83d\ude00...");
	}

}
