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
package dev.followerfetch.assignment;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import dev.followerfetch.Policy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user data members send, read back by this and later versions.
 *
 * @author follower-fetch authors
 */
class MemberDataTests {

	private static final MemberData DATA = new MemberData("use1-az2", Policy.FRESHNESS, 42,
			List.of(new TopicPartition("orders", 3), new TopicPartition("orders", 0), new TopicPartition("audit", 7)));

	@Test
	void whatAMemberSendsIsReadBackWithItsAssignmentGroupedByTopic() {
		MemberData read = MemberData.decode(DATA.encode()).orElseThrow();
		assertThat(read.zone()).isEqualTo("use1-az2");
		assertThat(read.policy()).isEqualTo(Policy.FRESHNESS);
		assertThat(read.generation()).isEqualTo(42);
		assertThat(read.assigned()).containsExactlyInAnyOrderElementsOf(DATA.assigned());
	}

	@Test
	void aMemberWithoutAZoneSendsNone() {
		assertThat(MemberData.decode(new MemberData(null, Policy.LOCALITY, -1, List.of()).encode()))
			.hasValue(new MemberData(null, Policy.LOCALITY, -1, List.of()));
	}

	@Test
	void aLaterVersionWithFieldsAppendedIsReadForWhatThisVersionKnows() {
		ByteBuffer encoded = DATA.encode();
		ByteBuffer later = ByteBuffer.allocate(encoded.remaining() + 8);
		later.put(encoded).putLong(123L).flip();
		later.putShort(0, (short) (MemberData.VERSION + 1));
		assertThat(MemberData.decode(later).orElseThrow().zone()).isEqualTo("use1-az2");
	}

	@Test
	void userDataThatIsCutShortOrFromAnotherAssignorIsIgnored() {
		ByteBuffer encoded = DATA.encode();
		byte[] bytes = new byte[encoded.remaining()];
		encoded.get(bytes);
		assertThat(MemberData.decode(ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length - 3)))).isEmpty();
		assertThat(MemberData.decode(ByteBuffer.wrap(new byte[] { 0, 0, 1 }))).isEmpty();
		assertThat(MemberData.decode(ByteBuffer.allocate(0))).isEmpty();
		assertThat(MemberData.decode(null)).isEmpty();
	}

	@Test
	void readingDoesNotMoveTheBuffer() {
		ByteBuffer encoded = DATA.encode();
		MemberData.decode(encoded);
		assertThat(MemberData.decode(encoded)).isPresent();
	}

}
