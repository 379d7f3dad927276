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
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import dev.followerfetch.Policy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user data members send, read back by this release, the previous one and later
 * ones.
 *
 * @author follower-fetch authors
 */
class MemberDataTests {

	private static final ByteBuffer STICKY = ByteBuffer.wrap(new byte[] { 0, 0, 0, 7, 42 });

	private static final MemberData DATA = new MemberData("use1-az2", Policy.FRESHNESS, 42, STICKY);

	@Test
	void whatAMemberSendsIsReadBackWithTheUserDataOfTheStrategyItWraps() {
		MemberData read = MemberData.decode(DATA.encode()).orElseThrow();
		assertThat(read.zone()).isEqualTo("use1-az2");
		assertThat(read.policy()).isEqualTo(Policy.FRESHNESS);
		assertThat(read.generation()).isEqualTo(42);
		assertThat(read.assigned()).isEmpty();
		assertThat(read.inner()).isEqualTo(STICKY);
	}

	@Test
	void aMemberWithoutAZoneAndAWrappedStrategyWithoutUserDataSendsNeither() {
		MemberData none = new MemberData(null, Policy.LOCALITY, -1, null);
		assertThat(MemberData.decode(none.encode())).hasValue(none);
	}

	@Test
	void whatAMemberOfThePreviousReleaseSentIsReadForItsZonePolicyAndAssignment() {
		ByteBuffer v1 = versionOne("az-c", true, 7, "orders", 3, 0);
		MemberData read = MemberData.decode(v1).orElseThrow();
		assertThat(read.zone()).isEqualTo("az-c");
		assertThat(read.policy()).isEqualTo(Policy.FRESHNESS);
		assertThat(read.assigned()).containsExactly(new TopicPartition("orders", 3), new TopicPartition("orders", 0));
		assertThat(read.inner()).isNull();
	}

	@Test
	void aLeaderOfThePreviousReleaseReadsWhatThisReleaseSends() {
		// version 1 read: version >= 1, zone, policy, generation, the last assignment by topic; nothing after
		ByteBuffer sent = DATA.encode();
		assertThat(sent.getShort()).isGreaterThanOrEqualTo((short) 1);
		byte[] zone = new byte[sent.getShort()];
		sent.get(zone);
		assertThat(new String(zone, StandardCharsets.UTF_8)).isEqualTo("use1-az2");
		assertThat(sent.get()).as("FRESHNESS").isEqualTo((byte) 1);
		assertThat(sent.getInt()).isEqualTo(42);
		assertThat(sent.getInt()).as("topics of the last assignment").isZero();
	}

	@Test
	void aLaterVersionWithFieldsAppendedIsReadForWhatThisVersionKnows() {
		ByteBuffer encoded = DATA.encode();
		ByteBuffer later = ByteBuffer.allocate(encoded.remaining() + 8);
		later.put(encoded).putLong(123L).flip();
		later.putShort(0, (short) (MemberData.VERSION + 1));
		MemberData read = MemberData.decode(later).orElseThrow();
		assertThat(read.zone()).isEqualTo("use1-az2");
		assertThat(read.inner()).isEqualTo(STICKY);
	}

	@Test
	void userDataThatIsCutShortOrFromAnotherAssignorIsIgnored() {
		ByteBuffer encoded = DATA.encode();
		byte[] bytes = new byte[encoded.remaining()];
		encoded.get(bytes);
		assertThat(MemberData.decode(ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length - 3)))).isEmpty();
		assertThat(MemberData.decode(ByteBuffer.wrap(new byte[] { 0, 0, 1 }))).isEmpty();
		assertThat(MemberData.decode(ByteBuffer.wrap(new byte[] { 0, 1, 0, 0, 7 }))).as("not a policy").isEmpty();
		assertThat(MemberData.decode(ByteBuffer.allocate(0))).isEmpty();
		assertThat(MemberData.decode(null)).isEmpty();
	}

	@Test
	void readingDoesNotMoveTheBufferNorTheWrappedUserData() {
		ByteBuffer encoded = DATA.encode();
		MemberData first = MemberData.decode(encoded).orElseThrow();
		first.inner().get();
		assertThat(MemberData.decode(encoded).orElseThrow().inner()).isEqualTo(STICKY);
	}

	@Test
	void userDataThatIsNotTheZoneAwareAssignorsIsHandedToTheWrappedStrategyAsItIs() {
		ByteBuffer cooperativeSticky = ByteBuffer.wrap(new byte[] { 0, 0, 0, 3 });
		assertThat(ZoneAwareAssignor.wrappedUserData(cooperativeSticky)).isSameAs(cooperativeSticky);
		assertThat(ZoneAwareAssignor.wrappedUserData(DATA.encode())).isEqualTo(STICKY);
		assertThat(ZoneAwareAssignor.wrappedUserData(null)).isNull();
	}

	/**
	 * What a member of the previous release sent: version 1, with its last assignment.
	 */
	private static ByteBuffer versionOne(String zone, boolean freshness, int generation, String topic,
			int... partitions) {
		byte[] zoneBytes = zone.getBytes(StandardCharsets.UTF_8);
		byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
		ByteBuffer buffer = ByteBuffer
			.allocate(2 + 2 + zoneBytes.length + 1 + 4 + 4 + 2 + topicBytes.length + 4 + 4 * partitions.length);
		buffer.putShort((short) 1).putShort((short) zoneBytes.length).put(zoneBytes).put((byte) (freshness ? 1 : 0));
		buffer.putInt(generation).putInt(1).putShort((short) topicBytes.length).put(topicBytes).putInt(partitions.length);
		Arrays.stream(partitions).forEach(buffer::putInt);
		return buffer.flip();
	}

}
