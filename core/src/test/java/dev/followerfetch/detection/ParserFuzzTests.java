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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Randomized tests, with fixed seeds, of the parsers that read what metadata endpoints and
 * files say: {@link JsonFields}, {@link FileRackSource#parse(String)}, the GCP zone answer
 * and {@link RackValues#validate(String)}. Inputs are generated documents checked against
 * an oracle (a full JSON parser, Kubernetes' own label quoting), mutations of realistic
 * answers, random bytes, deep nesting and huge values. Whatever the input, the only
 * exceptions are the documented ones, and every value that passes validation is a clean
 * rack.
 *
 * @author follower-fetch authors
 */
class ParserFuzzTests {

	private static final long SEED = 20261202L;

	private static final int CASES = 4000;

	private static final String FIELD = "AvailabilityZone";

	private static final String KEY = "topology.kubernetes.io/zone";

	private static final String ECS_TASK = """
			{
			  "Cluster": "arn:aws:ecs:us-east-1:111122223333:cluster/orders",
			  "TaskARN": "arn:aws:ecs:us-east-1:111122223333:task/orders/0f4b8a6b5c1e4c2d9a7e3b1f6d2c8e90",
			  "Family": "orders-consumer",
			  "Revision": "42",
			  "DesiredStatus": "RUNNING",
			  "KnownStatus": "RUNNING",
			  "Limits": {"CPU": 0.5, "Memory": 1024},
			  "PullStartedAt": "2026-11-30T09:12:31.4475Z",
			  "Containers": [
			    {
			      "DockerId": "0f4b8a6b5c1e4c2d9a7e3b1f6d2c8e90-1234567890",
			      "Name": "app",
			      "Image": "111122223333.dkr.ecr.us-east-1.amazonaws.com/orders:1.4.2",
			      "Labels": {"com.amazonaws.ecs.task-definition-version": "42"},
			      "Limits": {"CPU": 2, "Memory": 0},
			      "Networks": [{"NetworkMode": "awsvpc", "IPv4Addresses": ["10.0.2.100"],
			        "AttachmentIndex": 0, "IPv4SubnetCIDRBlock": "10.0.2.0/24"}],
			      "Snapshotter": "overlayfs",
			      "RestartCount": 0
			    }
			  ],
			  "LaunchType": "FARGATE",
			  "AvailabilityZone": "us-east-1b",
			  "ClockDrift": {"ClockErrorBound": 0.5, "ReferenceTimestamp": "2026-11-30T09:12:00Z",
			    "ClockSynchronizationStatus": "SYNCHRONIZED"},
			  "EphemeralStorageMetrics": {"Utilized": 261, "Reserved": 20496},
			  "Truthy": true, "Falsy": false, "Nothing": null, "Exponent": -1.5e-3
			}
			""";

	private static final String LABEL_FILE = """
			app="orders-consumer"
			app.kubernetes.io/managed-by="Helm"
			pod-template-hash="7d9f8b6c5"
			topology.kubernetes.io/region="us-east-1"
			topology.kubernetes.io/zone="us-east-1b"
			""";

	private static final String GCP_ANSWER = "projects/123456789012/zones/us-central1-a";

	private static final String RACK_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/+";

	private static final String[] TOKENS = { "\\", "\"", "\\u", "\\u00", "\\ud83d", "\\U0001F600", "\\x4", "\\x41",
			"{", "}", "[", "]", ",", ":", "=", "#", "null", "true", "1e", "-0", "01", "\n", "\r\n", "\t", "\u0000",
			"\u00a0", "\u2028", "\u0085", "\ufeff", "\ud800", "\udc00", "\ud83d\ude00", "é", "中", "projects/",
			"/zones/", " " };

	private static final JsonMapper JSON = JsonMapper
		.builder(JsonFactory.builder()
			.streamReadConstraints(StreamReadConstraints.builder()
				.maxNestingDepth(Integer.MAX_VALUE)
				.maxNumberLength(Integer.MAX_VALUE)
				.maxStringLength(Integer.MAX_VALUE)
				.maxNameLength(Integer.MAX_VALUE)
				.build())
			.build())
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private final FileRackSource labels = new FileRackSource(Path.of("/etc/podinfo/labels"), KEY);

	@Test
	void jsonFieldsReadsGeneratedDocumentsAsAFullJsonParserDoes() {
		Random random = new Random(SEED);
		for (int i = 0; i < CASES; i++) {
			String json = randomObject(random);
			JsonNode tree = JSON.readTree(json);
			JsonNode expected = tree.get(FIELD);
			Parsed parsed = jsonFields(i, json);
			assertThat(parsed.rejected()).as(describe(i, json)).isFalse();
			assertThat(parsed.value()).as(describe(i, json))
				.isEqualTo((expected != null && expected.isString()) ? expected.stringValue() : null);
			assertCleanOrRejected(parsed.value());
		}
	}

	@Test
	void jsonFieldsRejectsOnlyWithIllegalArgumentExceptionAndAcceptsNothingAJsonParserRejects() {
		Random random = new Random(SEED + 1);
		List<String> inputs = new ArrayList<>();
		for (int i = 0; i < CASES; i++) {
			inputs.add(switch (i % 4) {
				case 0 -> mutate(random, ECS_TASK);
				case 1 -> mutate(random, randomObject(random));
				case 2 -> randomText(random, 200);
				default -> new String(randomBytes(random, 300), StandardCharsets.UTF_8);
			});
		}
		inputs.addAll(extremeJson());
		int rejected = 0;
		for (int i = 0; i < inputs.size(); i++) {
			String json = inputs.get(i);
			Parsed parsed = jsonFields(i, json);
			if (parsed.rejected()) {
				rejected++;
				continue;
			}
			String value = parsed.value();
			JsonNode tree;
			try {
				tree = JSON.readTree(json);
			}
			catch (JacksonException ex) {
				throw new AssertionError("JsonFields accepted what Jackson rejects (" + ex.getOriginalMessage()
						+ "): " + describe(i, json));
			}
			assertThat(tree.isObject()).as(describe(i, json)).isTrue();
			JsonNode expected = tree.get(FIELD);
			if (expected == null) {
				assertThat(value).as(describe(i, json)).isNull();
			}
			else if (expected.isString()) {
				assertThat(value).as(describe(i, json)).isEqualTo(expected.stringValue());
			}
			assertCleanOrRejected(value);
		}
		assertReached("an accepted document", inputs.size() - rejected, inputs.size());
		assertReached("a rejected document", rejected, inputs.size());
	}

	@Test
	void labelFilesWrittenAsKubernetesQuotesThemAreReadBackExactly() throws IOException {
		Random random = new Random(SEED + 2);
		for (int i = 0; i < CASES; i++) {
			Map<String, String> written = new LinkedHashMap<>();
			int count = random.nextInt(6);
			for (int label = 0; label < count; label++) {
				written.put(randomLabelKey(random), randomText(random, 30));
			}
			if (random.nextBoolean()) {
				written.put(KEY, random.nextBoolean() ? randomRack(random) : randomText(random, 30));
			}
			StringBuilder file = new StringBuilder();
			String newline = random.nextInt(4) == 0 ? "\r\n" : "\n";
			written.forEach(
					(key, value) -> file.append(key).append('=').append(goQuote(random, value)).append(newline));
			String content = file.toString();
			RackLookup lookup;
			try {
				lookup = this.labels.parse(content);
			}
			catch (IOException ex) {
				throw new AssertionError(ex.getMessage() + ": " + describe(i, content), ex);
			}
			if (written.containsKey(KEY)) {
				assertThat(lookup.candidates()).as(describe(i, content))
					.extracting(RackCandidate::rack)
					.containsExactly(written.get(KEY));
			}
			else {
				assertThat(lookup.isFound()).as(describe(i, content)).isFalse();
			}
			lookup.candidates().forEach((candidate) -> assertCleanOrRejected(candidate.rack()));
		}
	}

	@Test
	void labelFileParsingFailsOnlyWithIOExceptionWhateverTheContent() {
		Random random = new Random(SEED + 3);
		List<String> inputs = new ArrayList<>();
		for (int i = 0; i < CASES; i++) {
			inputs.add(switch (i % 4) {
				case 0, 1 -> mutate(random, LABEL_FILE);
				case 2 -> randomText(random, 200);
				default -> new String(randomBytes(random, 300), StandardCharsets.UTF_8);
			});
		}
		inputs.add(KEY + "=\"" + "\\u00e9".repeat(20_000) + "\"");
		inputs.add(KEY + "=" + "\"".repeat(FileRackSource.MAX_FILE_BYTES));
		inputs.add((KEY + "=\"us-east-1b\"\n").repeat(FileRackSource.MAX_FILE_BYTES / KEY.length()));
		inputs.add("=".repeat(FileRackSource.MAX_FILE_BYTES));
		inputs.add("a b ".repeat(FileRackSource.MAX_FILE_BYTES / 4));
		inputs.add(KEY + "=\"\\U0010FFFF\\U00110000\"");
		int found = 0;
		int failed = 0;
		for (int i = 0; i < inputs.size(); i++) {
			String content = inputs.get(i);
			RackLookup lookup;
			try {
				lookup = this.labels.parse(content);
			}
			catch (IOException ex) {
				failed++;
				assertThat(ex.getMessage()).as(describe(i, content))
					.startsWith("file /etc/podinfo/labels ")
					.matches("[\\x20-\\x7e]+");
				continue;
			}
			catch (RuntimeException | StackOverflowError ex) {
				throw new AssertionError("FileRackSource.parse threw " + ex + ": " + describe(i, content), ex);
			}
			found += lookup.isFound() ? 1 : 0;
			lookup.candidates().forEach((candidate) -> assertCleanOrRejected(candidate.rack()));
		}
		assertReached("a value", found, inputs.size());
		assertReached("a failure", failed, inputs.size());
	}

	@Test
	void gcpZoneAnswersAreReadBackExactlyAndAnythingElseIsNoZone() {
		Random random = new Random(SEED + 4);
		for (int i = 0; i < CASES; i++) {
			String zone = randomRack(random).replace("/", "");
			if (zone.isEmpty()) {
				continue;
			}
			String answer = randomWhitespace(random) + "projects/" + (1 + random.nextInt(Integer.MAX_VALUE))
					+ "/zones/" + zone + randomWhitespace(random);
			assertThat(GcpMetadataRackSource.zoneOf(answer)).as(describe(i, answer)).isEqualTo(zone);
		}
		List<String> inputs = new ArrayList<>();
		for (int i = 0; i < CASES; i++) {
			inputs.add(switch (i % 3) {
				case 0, 1 -> mutate(random, GCP_ANSWER);
				default -> randomText(random, 100);
			});
		}
		inputs.add("projects/" + "1".repeat(1_000_000) + "/zones/us-central1-a");
		inputs.add("projects/1/zones/" + "a".repeat(1_000_000));
		inputs.add("projects/1/zones/".repeat(100_000));
		int found = 0;
		for (int i = 0; i < inputs.size(); i++) {
			String answer = inputs.get(i);
			String zone;
			try {
				zone = GcpMetadataRackSource.zoneOf(answer);
			}
			catch (RuntimeException | StackOverflowError ex) {
				throw new AssertionError("GcpMetadataRackSource.zoneOf threw " + ex + ": " + describe(i, answer), ex);
			}
			if (zone != null) {
				found++;
				assertThat(zone).as(describe(i, answer)).doesNotContain("/").isNotBlank();
				assertCleanOrRejected(zone);
			}
		}
		assertReached("a zone", found, inputs.size());
	}

	@Test
	void validationPassesOnlyCleanRacksAndNamesWhatIsWrongInPrintableText() {
		Random random = new Random(SEED + 5);
		int accepted = 0;
		for (int i = 0; i < CASES * 3; i++) {
			String raw = switch (i % 3) {
				case 0 -> randomWhitespace(random) + randomRack(random) + randomWhitespace(random);
				case 1 -> mutate(random, randomRack(random));
				default -> randomText(random, 160);
			};
			accepted += assertCleanOrRejected(raw) ? 1 : 0;
		}
		assertReached("an accepted rack", accepted, CASES * 3);
		assertReached("a rejected rack", CASES * 3 - accepted, CASES * 3);
		for (int length : new int[] { 127, 128, 129, 1_000_000 }) {
			assertCleanOrRejected("a".repeat(length));
			assertCleanOrRejected(" \t" + "\u00e9".repeat(length) + "\n");
		}
		assertCleanOrRejected(null);
	}

	/**
	 * A value passes validation only as 1 to 128 characters of the allowed set, the input
	 * without surrounding whitespace; otherwise the message, which ends up in logs and
	 * health details, is printable ASCII and short, whatever the input held.
	 */
	private static boolean assertCleanOrRejected(String raw) {
		if (raw == null) {
			return false;
		}
		String accepted;
		try {
			accepted = RackValues.validate(raw);
		}
		catch (IllegalArgumentException ex) {
			assertThat(ex.getMessage()).as("message for %s", excerpt(raw)).matches("[\\x20-\\x7e]{1,400}");
			return false;
		}
		assertThat(accepted).as("accepted from %s", excerpt(raw))
			.matches("[A-Za-z0-9._:/+-]{1,128}")
			.isEqualTo(raw.strip());
		return true;
	}

	/**
	 * Guard against a generator that drifted into producing only one kind of input: each
	 * outcome must come up in at least 5% of the cases.
	 */
	private static void assertReached(String outcome, int count, int cases) {
		assertThat(count).as("cases with %s out of %d", outcome, cases).isGreaterThanOrEqualTo(cases / 20);
	}

	private static Parsed jsonFields(int i, String json) {
		try {
			return new Parsed(false, JsonFields.string(json, FIELD));
		}
		catch (IllegalArgumentException ex) {
			assertThat(ex.getMessage()).as(describe(i, json)).matches("[\\x20-\\x7e]+ at offset [0-9]+");
			return new Parsed(true, null);
		}
		catch (RuntimeException | StackOverflowError ex) {
			throw new AssertionError("JsonFields threw " + ex + ": " + describe(i, json), ex);
		}
	}

	private static List<String> extremeJson() {
		List<String> inputs = new ArrayList<>();
		for (int depth : new int[] { 62, 63, 64, 65, 100_000 }) {
			inputs.add("{\"a\":" + "[".repeat(depth) + "]".repeat(depth) + ",\"" + FIELD + "\":\"x\"}");
			inputs.add("{\"a\":" + "{\"b\":".repeat(depth) + "1" + "}".repeat(depth) + "}");
			inputs.add("{\"a\":" + "[".repeat(depth));
		}
		inputs.add("{\"" + FIELD + "\":\"" + "a".repeat(1_000_000) + "\"}");
		inputs.add("{\"" + FIELD + "\":\"" + "\\u00e9".repeat(200_000) + "\"}");
		inputs.add("{\"" + "k".repeat(1_000_000) + "\":1,\"" + FIELD + "\":\"us-east-1b\"}");
		inputs.add("{\"n\":" + "9".repeat(1_000_000) + ",\"" + FIELD + "\":\"us-east-1b\"}");
		inputs.add(" ".repeat(1_000_000) + "{\"" + FIELD + "\":\"us-east-1b\"}" + "\n".repeat(1_000_000));
		inputs.add("{" + "\"a\":1,".repeat(100_000) + "\"" + FIELD + "\":\"us-east-1b\"}");
		inputs.add("{\"" + FIELD + "\":\"us-east-1a\",\"" + FIELD + "\":\"us-east-1b\"}");
		inputs.add("{\"" + FIELD + "\":\"us-east-1a\",\"" + FIELD + "\":null}");
		inputs.add("{\"" + FIELD + "\":\"\\");
		inputs.add("{\"" + FIELD + "\":\"\\u12");
		return inputs;
	}

	private static String randomObject(Random random) {
		StringBuilder json = new StringBuilder();
		json.append(randomWhitespace(random));
		appendObject(random, json, 0, true);
		json.append(randomWhitespace(random));
		return json.toString();
	}

	private static void appendObject(Random random, StringBuilder json, int depth, boolean top) {
		json.append('{').append(randomWhitespace(random));
		List<String> keys = new ArrayList<>();
		int count = random.nextInt(top ? 8 : 4);
		for (int i = 0; i < count; i++) {
			String key = switch (random.nextInt(5)) {
				case 0 -> FIELD;
				case 1 -> "Containers";
				case 2 -> FIELD.toLowerCase();
				default -> randomText(random, 8);
			};
			if (!keys.contains(key)) {
				keys.add(key);
			}
		}
		for (int i = 0; i < keys.size(); i++) {
			if (i > 0) {
				json.append(',').append(randomWhitespace(random));
			}
			appendString(random, json, keys.get(i));
			json.append(randomWhitespace(random)).append(':').append(randomWhitespace(random));
			if (top && keys.get(i).equals(FIELD) && random.nextInt(3) > 0) {
				appendString(random, json, random.nextBoolean() ? randomRack(random) : randomText(random, 20));
			}
			else {
				appendValue(random, json, depth + 1);
			}
			json.append(randomWhitespace(random));
		}
		json.append('}');
	}

	private static void appendValue(Random random, StringBuilder json, int depth) {
		switch (random.nextInt((depth < 6) ? 6 : 4)) {
			case 0 -> appendString(random, json, randomText(random, 20));
			case 1 -> json.append(randomNumber(random));
			case 2 -> json.append(List.of("true", "false", "null").get(random.nextInt(3)));
			case 3 -> appendString(random, json, randomRack(random));
			case 4 -> appendObject(random, json, depth, false);
			default -> {
				json.append('[').append(randomWhitespace(random));
				int count = random.nextInt(4);
				for (int i = 0; i < count; i++) {
					if (i > 0) {
						json.append(',').append(randomWhitespace(random));
					}
					appendValue(random, json, depth + 1);
				}
				json.append(randomWhitespace(random)).append(']');
			}
		}
	}

	private static void appendString(Random random, StringBuilder json, String value) {
		json.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '"' || c == '\\') {
				json.append('\\').append(c);
			}
			else if (c < 0x20 || random.nextInt(10) == 0) {
				String named = switch (c) {
					case '\b' -> "\\b";
					case '\f' -> "\\f";
					case '\n' -> "\\n";
					case '\r' -> "\\r";
					case '\t' -> "\\t";
					default -> null;
				};
				json.append((named != null && random.nextBoolean()) ? named
						: String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
			}
			else if (c == '/' && random.nextBoolean()) {
				json.append("\\/");
			}
			else {
				json.append(c);
			}
		}
		json.append('"');
	}

	private static String randomNumber(Random random) {
		StringBuilder number = new StringBuilder();
		if (random.nextBoolean()) {
			number.append('-');
		}
		number.append((random.nextInt(4) == 0) ? "0" : String.valueOf(1 + random.nextInt(1_000_000)));
		if (random.nextBoolean()) {
			number.append('.').append(random.nextInt(1000));
		}
		if (random.nextInt(3) == 0) {
			number.append(random.nextBoolean() ? 'e' : 'E')
				.append(List.of("", "+", "-").get(random.nextInt(3)))
				.append(random.nextInt(400));
		}
		return number.toString();
	}

	/**
	 * Quote a label value as the kubelet writes a downward-API file ({@code %q} in Go):
	 * printable characters as they are, others escaped; some printable ones escaped too,
	 * as Go's syntax allows.
	 */
	private static String goQuote(Random random, String value) {
		StringBuilder quoted = new StringBuilder("\"");
		value.codePoints().forEach((codePoint) -> {
			String named = switch (codePoint) {
				case 0x07 -> "\\a";
				case '\b' -> "\\b";
				case '\f' -> "\\f";
				case '\n' -> "\\n";
				case '\r' -> "\\r";
				case '\t' -> "\\t";
				case 0x0b -> "\\v";
				case '"' -> "\\\"";
				case '\\' -> "\\\\";
				default -> null;
			};
			if (named != null) {
				quoted.append(named);
			}
			else if (isGoPrintable(codePoint) && random.nextInt(8) > 0) {
				quoted.appendCodePoint(codePoint);
			}
			else if (codePoint < 0x80 && random.nextBoolean()) {
				quoted.append(String.format("\\x%02x", codePoint));
			}
			else if (codePoint <= 0xffff) {
				quoted.append(String.format("\\u%04x", codePoint));
			}
			else {
				quoted.append(String.format("\\U%08x", codePoint));
			}
		});
		return quoted.append('"').toString();
	}

	private static boolean isGoPrintable(int codePoint) {
		if (codePoint == ' ') {
			return true;
		}
		int type = Character.getType(codePoint);
		return !Character.isISOControl(codePoint) && type != Character.SPACE_SEPARATOR
				&& type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR
				&& type != Character.FORMAT && type != Character.SURROGATE && type != Character.UNASSIGNED
				&& type != Character.PRIVATE_USE;
	}

	private static String randomLabelKey(Random random) {
		String[] prefixes = { "app", "app.kubernetes.io/name", "topology.kubernetes.io/region",
				"topology.kubernetes.io/zonee", "pod-template-hash", "example.com/" };
		String key = prefixes[random.nextInt(prefixes.length)];
		return (random.nextBoolean()) ? key : key + random.nextInt(100);
	}

	private static String randomRack(Random random) {
		int length = 1 + random.nextInt(random.nextInt(10) == 0 ? 140 : 20);
		StringBuilder rack = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			rack.append(RACK_CHARS.charAt(random.nextInt(RACK_CHARS.length())));
		}
		return rack.toString();
	}

	/**
	 * Text drawn from rack characters, JSON and label syntax, whitespace of every kind,
	 * control characters, non-ASCII letters, emoji and lone surrogates.
	 */
	private static String randomText(Random random, int maxLength) {
		int length = random.nextInt(maxLength + 1);
		StringBuilder text = new StringBuilder(length);
		while (text.length() < length) {
			switch (random.nextInt(6)) {
				case 0, 1 -> text.append(RACK_CHARS.charAt(random.nextInt(RACK_CHARS.length())));
				case 2 -> text.append(TOKENS[random.nextInt(TOKENS.length)]);
				case 3 -> text.append((char) random.nextInt(0x20));
				case 4 -> text.append((char) (0x7f + random.nextInt(0x200)));
				default -> text.append((char) random.nextInt(Character.MAX_VALUE + 1));
			}
		}
		return text.toString();
	}

	private static String randomWhitespace(Random random) {
		String[] whitespace = { "", "", "", " ", "\t", "\n", "\r\n", "  \n\t " };
		return whitespace[random.nextInt(whitespace.length)];
	}

	private static byte[] randomBytes(Random random, int maxLength) {
		byte[] bytes = new byte[random.nextInt(maxLength + 1)];
		random.nextBytes(bytes);
		return bytes;
	}

	/**
	 * Apply one to four edits: delete, insert, replace, duplicate or move a slice, cut the
	 * tail, or insert a token that matters to one of the syntaxes.
	 */
	private static String mutate(Random random, String input) {
		StringBuilder text = new StringBuilder(input);
		int edits = 1 + random.nextInt(4);
		for (int edit = 0; edit < edits; edit++) {
			int at = random.nextInt(text.length() + 1);
			int end = Math.min(text.length(), at + 1 + random.nextInt(8));
			switch (random.nextInt(7)) {
				case 0 -> text.delete(at, end);
				case 1 -> text.insert(at, randomText(random, 4));
				case 2 -> text.replace(at, end, String.valueOf((char) random.nextInt(Character.MAX_VALUE + 1)));
				case 3 -> text.insert(random.nextInt(text.length() + 1), text.substring(at, end));
				case 4 -> text.setLength(at);
				case 5 -> {
					String slice = text.substring(at, end);
					text.delete(at, end);
					text.insert(random.nextInt(text.length() + 1), slice);
				}
				default -> text.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
			}
		}
		return text.toString();
	}

	private static String describe(int i, String input) {
		return "case " + i + " (seed " + SEED + "): " + excerpt(input);
	}

	private static String excerpt(String input) {
		String shown = (input.length() > 300) ? input.substring(0, 300) : input;
		StringBuilder escaped = new StringBuilder("\"");
		shown.chars()
			.forEach((c) -> escaped.append((c >= 0x20 && c < 0x7f) ? String.valueOf((char) c)
					: String.format("\\u%04x", c)));
		escaped.append('"');
		if (input.length() > 300) {
			escaped.append("... (").append(input.length()).append(" characters)");
		}
		return escaped.toString();
	}

	/**
	 * What {@link JsonFields} made of a document.
	 *
	 * @param rejected whether it threw {@link IllegalArgumentException}
	 * @param value the field's value otherwise
	 */
	private record Parsed(boolean rejected, String value) {

	}

}
