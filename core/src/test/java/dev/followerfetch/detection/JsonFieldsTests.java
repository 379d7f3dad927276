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

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JsonFields}.
 *
 * @author follower-fetch authors
 */
class JsonFieldsTests {

	@Test
	void topLevelStringIsFound() {
		assertThat(JsonFields.string(" {\"a\": 1, \"zone\" : \"us-east-1a\" , \"b\": null} ", "zone"))
			.isEqualTo("us-east-1a");
	}

	@Test
	void absentOrNonStringFieldIsNull() {
		assertThat(JsonFields.string("{}", "zone")).isNull();
		assertThat(JsonFields.string("{\"other\":\"x\"}", "zone")).isNull();
		assertThat(JsonFields.string("{\"zone\":null}", "zone")).isNull();
		assertThat(JsonFields.string("{\"zone\":[\"us-east-1a\"]}", "zone")).isNull();
		assertThat(JsonFields.string("{\"zone\":{\"name\":\"us-east-1a\"}}", "zone")).isNull();
	}

	@Test
	void nestedFieldOfTheSameNameIsNotTaken() {
		String json = "{\"Containers\":[{\"zone\":\"nested\",\"x\":[1,2.5,-3e2,true,false,null,{}]}],"
				+ "\"Limits\":{\"zone\":\"nested\"},\"zone\":\"top\"}";
		assertThat(JsonFields.string(json, "zone")).isEqualTo("top");
		assertThat(JsonFields.string("{\"Limits\":{\"zone\":\"nested\"}}", "zone")).isNull();
	}

	@Test
	void aPathReachesAStringThroughNestedObjectsOnly() {
		String node = "{\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"kubernetes.io/os\":\"linux\","
				+ "\"topology.kubernetes.io/zone\":\"eu-west-1b\"}},\"status\":{\"images\":[{\"names\":[\"a\"]}]}}";
		assertThat(JsonFields.string(node, "metadata", "labels", "topology.kubernetes.io/zone")).isEqualTo("eu-west-1b");
		assertThat(JsonFields.string(node, "metadata", "labels", "failure-domain.beta.kubernetes.io/zone")).isNull();
		assertThat(JsonFields.string(node, "metadata", "name")).isEqualTo("n1");
		assertThat(JsonFields.string(node, "status", "images", "names")).as("through an array").isNull();
		assertThat(JsonFields.string(node, "kind", "name")).as("through a string").isNull();
		assertThat(JsonFields.string("{\"metadata\":null}", "metadata", "labels")).isNull();
	}

	@Test
	void aLaterObjectOfTheSameNameWithoutTheFieldKeepsTheValueFound() {
		assertThat(JsonFields.string("{\"metadata\":{\"zone\":\"a\"},\"metadata\":{}}", "metadata", "zone")).isEqualTo("a");
		assertThat(JsonFields.string("{\"zone\":\"a\",\"zone\":1}", "zone")).isEqualTo("a");
	}

	@Test
	void aPathNamesAtLeastOneField() {
		assertThatIllegalArgumentException().isThrownBy(() -> JsonFields.string("{}")).withMessage("no field named");
	}

	@Test
	void aPathIsAsStrictAboutTheRestOfTheDocument() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JsonFields.string("{\"metadata\":{\"labels\":{\"z\":\"a\"}} x", "metadata", "labels", "z"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JsonFields.string("{\"metadata\":{\"labels\":{\"z\":\"a\",}}}", "metadata", "labels", "z"));
		String deep = "{\"a\":".repeat(100) + "{}" + "}".repeat(100);
		assertThatIllegalArgumentException().isThrownBy(() -> JsonFields.string(deep, "a"))
			.withMessageContaining("nested deeper than");
		String[] longPath = new String[100];
		Arrays.fill(longPath, "a");
		assertThatIllegalArgumentException().isThrownBy(() -> JsonFields.string(deep, longPath))
			.withMessageContaining("nested deeper than");
	}

	@Test
	void escapesAreDecoded() {
		assertThat(JsonFields.string("{\"z\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0041\\ud83d\\ude00\"}", "z"))
			.isEqualTo("a\"b\\c/d\b\f\n\r\tA\ud83d\ude00");
	}

	@Test
	void escapedFieldNameMatches() {
		assertThat(JsonFields.string("{\"\\u007aone\":\"us-east-1a\"}", "zone")).isEqualTo("us-east-1a");
	}

	@Test
	void nestingUpToTheLimitIsAccepted() {
		String json = "{\"a\":" + "[".repeat(63) + "]".repeat(63) + ",\"zone\":\"x\"}";
		assertThat(JsonFields.string(json, "zone")).isEqualTo("x");
	}

	@Test
	void nestingBeyondTheLimitIsRejected() {
		String json = "{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
		assertThatIllegalArgumentException().isThrownBy(() -> JsonFields.string(json, "zone"))
			.withMessageStartingWith("nested deeper than 64 at offset");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "   ", "[]", "\"zone\"", "null", "{", "{\"zone\"}", "{\"zone\":}", "{\"a\":1,}",
			"{\"a\":tru}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":+1}", "{'zone':'x'}", "{\"a\":\"x\" \"b\":1}", "{} {}",
			"{\"zone\":\"unterminated}", "{\"zone\":\"a\u0001b\"}", "{\"zone\":\"a\nb\"}", "{\"zone\":\"\\x41\"}",
			"{\"zone\":\"\\u00g1\"}", "{\"zone\":\"\\u12\"}", "{\"zone\":\"\\u+041\"}", "{\"zone\":\"\\u-001\"}",
			"{\"zone\":\"\\u\u0664\u0661\u0660\u0660\"}",
			"{\"a\":[1 2]}", "{\"a\":{\"b\" 1}}", "<html></html>", "\u0000\u0001" })
	void malformedJsonIsRejectedWithAnOffset(String json) {
		assertThatIllegalArgumentException().isThrownBy(() -> JsonFields.string(json, "zone"))
			.withMessageContaining(" at offset ");
	}

}
