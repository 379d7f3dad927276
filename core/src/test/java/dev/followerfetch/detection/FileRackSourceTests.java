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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Tests for {@link FileRackSource}.
 *
 * @author follower-fetch authors
 */
class FileRackSourceTests {

	private static final String KEY = "topology.kubernetes.io/zone";

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	@TempDir
	Path directory;

	@Test
	void bareValueIsTheRack() throws Exception {
		Path file = write("rack.id", "us-east-1a\n");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("us-east-1a", file.toString()));
	}

	@Test
	void bareValueMayComeWithCommentsAndBlankLines() throws Exception {
		Path file = write("rack.id", "# written by the init container\n\n  use1-az2  \n\n");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).candidates()).extracting(RackCandidate::rack)
			.containsExactly("use1-az2");
	}

	@Test
	void bareValueOnSeveralLinesFailsNamingTheFile() throws Exception {
		Path file = write("rack.id", "us-east-1a\nus-east-1b\n");
		assertThatIOException().isThrownBy(() -> new FileRackSource(file, KEY).lookup(TIMEOUT))
			.withMessage("file " + file + " has 2 lines; expected a single rack value or key=\"value\" label lines");
	}

	@Test
	void downwardApiLabelsFileYieldsTheConfiguredLabel() throws Exception {
		Path file = write("labels", """
				app="orders-consumer"
				pod-template-hash="7d9f8b6c5d"
				topology.kubernetes.io/region="us-east-1"
				topology.kubernetes.io/zone="us-east-1a"
				""");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("us-east-1a", file + "#" + KEY));
	}

	@Test
	void otherKeyCanBeConfigured() throws Exception {
		Path file = write("labels", "topology.kubernetes.io/zone=\"us-east-1a\"\nexample.com/rack=\"rack-7\"\n");
		assertThat(new FileRackSource(file, "example.com/rack").lookup(TIMEOUT).candidates())
			.extracting(RackCandidate::rack)
			.containsExactly("rack-7");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '\'', value = { "'\"us-east-1a\"' | us-east-1a",
			"'\"us-east-1\\x61\"' | us-east-1a", "'\"\\u0075s-east-1a\"' | us-east-1a",
			"'\"\\U00000075s-east-1a\"' | us-east-1a", "'\"us\\\\east\"' | us\\east", "'\"us\\\"east\"' | us\"east",
			"'\"us\\teast\"' | 'us\teast'", "'us-east-1a' | us-east-1a" })
	void labelValueEscapesAreDecodedAsKubernetesWritesThem(String written, String expected) throws Exception {
		Path file = write("labels", "app=\"demo \\\"quoted\\\"\"\n" + KEY + "=" + written + "\n");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).candidates()).extracting(RackCandidate::rack)
			.containsExactly(expected);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '\'',
			value = { "'\"us\\qeast\"'", "'\"us-east-1a\\\"'", "'\"us\\x6\"'", "'\"us\\u00zz\"'", "'\"\\UFFFFFFFF\"'",
					"'\"\\x\u0664\u0661\"'" })
	void invalidEscapeFailsNamingTheFileAndLabel(String written) throws Exception {
		Path file = write("labels", KEY + "=" + written + "\n");
		assertThatIOException().isThrownBy(() -> new FileRackSource(file, KEY).lookup(TIMEOUT))
			.withMessageStartingWith("file " + file + " has an invalid escape in label " + KEY + ": ");
	}

	@Test
	void missingLabelIsNotFoundNamingFileAndKey() throws Exception {
		Path file = write("labels", "app=\"orders-consumer\"\n");
		RackLookup lookup = new FileRackSource(file, KEY).lookup(TIMEOUT);
		assertThat(lookup.isFound()).isFalse();
		assertThat(lookup.reason())
			.isEqualTo("file " + file + " has no label " + KEY + " (follower-fetch.detection.file.key)");
	}

	@Test
	void conflictingValuesFailQuotingBoth() throws Exception {
		Path file = write("labels", KEY + "=\"us-east-1a\"\n" + KEY + "=\"us-east-1b\"\n");
		assertThatIOException().isThrownBy(() -> new FileRackSource(file, KEY).lookup(TIMEOUT))
			.withMessage("file " + file + " has conflicting values for label " + KEY
					+ " (follower-fetch.detection.file.key): \"us-east-1a\", \"us-east-1b\"");
	}

	@Test
	void repeatedEqualValuesAreNoConflict() throws Exception {
		Path file = write("labels", KEY + "=\"us-east-1a\"\n" + KEY + "=\"us-east-1a\"\n");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).candidates()).extracting(RackCandidate::rack)
			.containsExactly("us-east-1a");
	}

	@Test
	void emptyLabelValueIsOfferedForValidationNotThrownAway() throws Exception {
		Path file = write("labels", KEY + "=\"\"\n");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("", file + "#" + KEY));
	}

	@Test
	void emptyFileIsNotFound() throws Exception {
		Path file = write("rack.id", "\n  \n# nothing yet\n");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).reason()).isEqualTo("file " + file + " is empty");
	}

	@Test
	void fileLargerThanTheCapFailsNamingIt() throws Exception {
		Path file = write("rack.id", "a".repeat(FileRackSource.MAX_FILE_BYTES + 1));
		assertThatIOException().isThrownBy(() -> new FileRackSource(file, KEY).lookup(TIMEOUT))
			.withMessage("file " + file + " is larger than 65536 bytes");
	}

	@Test
	void missingFileIsNotFoundNamingIt() throws Exception {
		Path file = this.directory.resolve("absent");
		assertThat(new FileRackSource(file, KEY).lookup(TIMEOUT).reason())
			.isEqualTo("file " + file + " does not exist (follower-fetch.detection.file.path)");
	}

	@Test
	void directoryFailsNamingIt() {
		assertThatIOException().isThrownBy(() -> new FileRackSource(this.directory, KEY).lookup(TIMEOUT))
			.withMessage("file " + this.directory
					+ " is a directory (follower-fetch.detection.file.path must name a readable regular file)");
	}

	@Test
	void unsetPathIsNotFound() throws Exception {
		assertThat(new FileRackSource(null, KEY).lookup(TIMEOUT).reason())
			.isEqualTo("follower-fetch.detection.file.path not set");
	}

	@Test
	void fileSourceIsLocal() {
		assertThat(new FileRackSource(null, KEY).isRemote()).isFalse();
		assertThat(new FileRackSource(null, KEY).name()).isEqualTo("file");
	}

	private Path write(String name, String content) throws IOException {
		return Files.writeString(this.directory.resolve(name), content, StandardCharsets.UTF_8);
	}

}
