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
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Reads the rack from a file: either a bare value (as an init container or Strimzi's
 * {@code rack.id} writes it) or Kubernetes downward-API label lines {@code key="value"},
 * from which the configured key is taken.
 *
 * @author follower-fetch authors
 */
public final class FileRackSource implements RackSource {

	static final int MAX_FILE_BYTES = 64 * 1024;

	private static final Pattern LABEL_LINE = Pattern.compile("^([^=\\s]+)\\s*=\\s*(.*)$");

	private final @Nullable Path path;

	private final String key;

	private final String pathSetting;

	private final String keySetting;

	FileRackSource(@Nullable Path path, String key) {
		this(path, key, DetectionSettings.SPRING_BOOT_PREFIX);
	}

	FileRackSource(@Nullable Path path, String key, String settingPrefix) {
		this.path = path;
		this.key = key;
		this.pathSetting = settingPrefix + "detection.file.path";
		this.keySetting = settingPrefix + "detection.file.key";
	}

	@Override
	public String name() {
		return "file";
	}

	@Override
	public boolean isRemote() {
		return false;
	}

	@Override
	public RackLookup lookup(Duration timeout) throws IOException {
		if (this.path == null) {
			return RackLookup.notFound(this.pathSetting + " not set");
		}
		if (!Files.exists(this.path)) {
			return RackLookup.notFound("file " + this.path + " does not exist (" + this.pathSetting + ")");
		}
		if (Files.isDirectory(this.path)) {
			throw new IOException("file " + this.path + " is a directory (" + this.pathSetting
					+ " must name a readable regular file)");
		}
		if (!Files.isRegularFile(this.path) || !Files.isReadable(this.path)) {
			throw new IOException("file " + this.path + " is not a readable regular file (" + this.pathSetting + ")");
		}
		return parse(read());
	}

	private String read() throws IOException {
		try (InputStream in = Files.newInputStream(this.path)) {
			byte[] bytes = in.readNBytes(MAX_FILE_BYTES + 1);
			if (bytes.length > MAX_FILE_BYTES) {
				throw new IOException("file " + this.path + " is larger than " + MAX_FILE_BYTES + " bytes");
			}
			return new String(bytes, StandardCharsets.UTF_8);
		}
	}

	RackLookup parse(String content) throws IOException {
		List<String> lines = content.lines()
			.map(String::strip)
			.filter((line) -> !line.isEmpty() && !line.startsWith("#"))
			.toList();
		if (lines.isEmpty()) {
			return RackLookup.notFound("file " + this.path + " is empty");
		}
		boolean labels = lines.stream().anyMatch((line) -> LABEL_LINE.matcher(line).matches());
		return (labels) ? fromLabels(lines) : fromBareValue(lines);
	}

	private RackLookup fromBareValue(List<String> lines) throws IOException {
		if (lines.size() > 1) {
			throw new IOException("file " + this.path + " has " + lines.size()
					+ " lines; expected a single rack value or key=\"value\" label lines");
		}
		return RackLookup.found(String.valueOf(this.path), lines.get(0));
	}

	private RackLookup fromLabels(List<String> lines) throws IOException {
		Set<String> values = new LinkedHashSet<>();
		for (String line : lines) {
			Matcher matcher = LABEL_LINE.matcher(line);
			if (matcher.matches() && matcher.group(1).equals(this.key)) {
				values.add(unquote(matcher.group(2).strip()));
			}
		}
		if (values.isEmpty()) {
			return RackLookup.notFound("file " + this.path + " has no label " + this.key + " (" + this.keySetting + ")");
		}
		if (values.size() > 1) {
			throw new IOException("file " + this.path + " has conflicting values for label " + this.key + " ("
					+ this.keySetting + "): " + values.stream().map(RackValues::quote).collect(Collectors.joining(", ")));
		}
		return RackLookup.found(this.path + "#" + this.key, values.iterator().next());
	}

	private String unquote(String value) throws IOException {
		if (value.length() < 2 || !value.startsWith("\"") || !value.endsWith("\"")) {
			return value;
		}
		StringBuilder out = new StringBuilder();
		int end = value.length() - 1;
		for (int i = 1; i < end; i++) {
			char c = value.charAt(i);
			if (c != '\\') {
				out.append(c);
				continue;
			}
			char escape = (i + 1 < end) ? value.charAt(++i) : 0;
			switch (escape) {
				case 'a' -> out.append('\u0007');
				case 'b' -> out.append('\b');
				case 'f' -> out.append('\f');
				case 'n' -> out.append('\n');
				case 'r' -> out.append('\r');
				case 't' -> out.append('\t');
				case 'v' -> out.append('\u000b');
				case '\\', '"' -> out.append(escape);
				case 'x', 'u', 'U' -> {
					int digits = (escape == 'x') ? 2 : (escape == 'u') ? 4 : 8;
					int codePoint = (i + digits < end) ? hex(value.substring(i + 1, i + 1 + digits)) : -1;
					if (!Character.isValidCodePoint(codePoint)) {
						throw invalidEscape(value);
					}
					out.appendCodePoint(codePoint);
					i += digits;
				}
				default -> throw invalidEscape(value);
			}
		}
		return out.toString();
	}

	private static int hex(String digits) {
		int value = 0;
		for (int i = 0; i < digits.length(); i++) {
			char c = digits.charAt(i);
			int digit = (c < 0x80) ? Character.digit(c, 16) : -1;
			if (digit < 0) {
				return -1;
			}
			value = value * 16 + digit;
		}
		return value;
	}

	private IOException invalidEscape(String value) {
		return new IOException(
				"file " + this.path + " has an invalid escape in label " + this.key + ": " + RackValues.quote(value));
	}

}
