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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ShareGroupSearch}, on a clock the tests move.
 *
 * @author follower-fetch authors
 */
class ShareGroupSearchTests {

	private static final long MINUTE = 60_000_000_000L;

	private final ShareGroupSearch search = new ShareGroupSearch();

	@Test
	void aShareConsumerNotSeenYetIsLookedForInEveryShareGroup() {
		assertThat(this.search.plan(Set.of("work-1"), 0)).isEqualTo(new ShareGroupSearch.Plan(Set.of(), true));
	}

	@Test
	void onceFoundOnlyItsGroupIsDescribedAtEveryRefresh() {
		this.search.found(Set.of("work-1", "work-2"), Map.of("work-1", "workers", "work-2", "auditors"), true, 0);
		for (long minute = 0; minute < 20; minute++) {
			assertThat(this.search.plan(Set.of("work-1", "work-2"), minute * MINUTE))
				.isEqualTo(new ShareGroupSearch.Plan(Set.of("workers", "auditors"), false));
		}
	}

	@Test
	void oneFoundInNoGroupIsLookedForAgainAtTheNextRefreshThenAfterADelayThatDoublesUpToTheRetryDelay() {
		this.search.found(Set.of("work-1"), Map.of(), true, 0);
		assertThat(this.search.plan(Set.of("work-1"), 0).everyGroup()).as("it may not have joined yet").isTrue();
		long now = 0;
		long expected = ShareGroupSearch.FIRST_RETRY.toNanos();
		List<Long> delays = new ArrayList<>();
		for (int search = 0; search < 10; search++) {
			this.search.found(Set.of("work-1"), Map.of(), true, now);
			assertThat(this.search.plan(Set.of("work-1"), now + expected - 1).everyGroup()).isFalse();
			assertThat(this.search.plan(Set.of("work-1"), now + expected).everyGroup()).isTrue();
			delays.add(expected);
			now += expected;
			expected = Math.min(2 * expected, ShareGroupSearch.RETRY.toNanos());
		}
		assertThat(delays).startsWith(10_000_000_000L, 20_000_000_000L, 40_000_000_000L)
			.endsWith(ShareGroupSearch.RETRY.toNanos(), ShareGroupSearch.RETRY.toNanos());
	}

	@Test
	void theDelayNeverOverflowsHoweverManySearchesFindNothing() {
		long now = 0;
		for (int search = 0; search < 100; search++) {
			this.search.found(Set.of("work-1"), Map.of(), true, now);
			assertThat(this.search.plan(Set.of("work-1"), now + 1).everyGroup()).as("search %d", search)
				.isEqualTo(search == 0);
			now += ShareGroupSearch.RETRY.toNanos();
		}
	}

	@Test
	void theOnlyMemberWithAClientIdIsThisProcesssWhereverItConnectsFrom() {
		assertThat(ShareGroupSearch.own(List.of("/10.0.0.7"), (host) -> host, Set.of("127.0.0.1"))).contains("/10.0.0.7");
	}

	@Test
	void amongInstancesWithTheSameClientIdsTheOneConnectedFromThisMachineIsThisProcesss() {
		assertThat(ShareGroupSearch.own(List.of("/10.0.0.7", "/10.0.0.8", "/fe80:0:0:0:1:2:3:4%eth0"), (host) -> host,
				Set.of("127.0.0.1", "fe80:0:0:0:1:2:3:4")))
			.contains("/fe80:0:0:0:1:2:3:4%eth0");
		assertThat(ShareGroupSearch.own(List.of("/10.0.0.7", "/10.0.0.8"), (host) -> host, Set.of("10.0.0.8")))
			.contains("/10.0.0.8");
	}

	@Test
	void instancesOnOneMachineOrBehindATranslationLeaveTheMemberUnknown() {
		assertThat(ShareGroupSearch.own(List.of("/10.0.0.7", "/10.0.0.7"), (host) -> host, Set.of("10.0.0.7"))).isEmpty();
		assertThat(ShareGroupSearch.own(List.of("/10.0.0.7", "/10.0.0.8"), (host) -> host, Set.of("10.0.0.9"))).isEmpty();
	}

	@Test
	void thisMachineHasAtLeastItsLoopbackAddress() {
		assertThat(ShareGroupSearch.localAddresses()).contains("127.0.0.1");
	}

	@Test
	void aNewShareConsumerIsLookedForAtOnceWhileTheOthersKeepTheirGroups() {
		this.search.found(Set.of("work-1"), Map.of("work-1", "workers"), true, 0);
		assertThat(this.search.plan(Set.of("work-1", "work-2"), MINUTE))
			.isEqualTo(new ShareGroupSearch.Plan(Set.of("workers"), true));
	}

	@Test
	void aConsumerThatLeftItsGroupIsLookedForEverywhereAtTheNextRefresh() {
		this.search.found(Set.of("work-1"), Map.of("work-1", "workers"), true, 0);
		this.search.found(Set.of("work-1"), Map.of(), false, MINUTE);
		assertThat(this.search.plan(Set.of("work-1"), 2 * MINUTE)).isEqualTo(new ShareGroupSearch.Plan(Set.of(), true));
	}

	@Test
	void aSearchThatCouldNotListEveryGroupDoesNotCountAsAMissAndKeepsTheDelayOfTheLastOne() {
		this.search.found(Set.of("work-1"), Map.of(), true, 0);
		this.search.found(Set.of("work-1"), Map.of(), true, 1);
		this.search.found(Set.of("work-1"), Map.of(), false, 2);
		assertThat(this.search.plan(Set.of("work-1"), 3).everyGroup()).isFalse();
	}

	@Test
	void aSearchThatCouldNotListTheGroupsBeforeAnyMissIsTriedAgainAtTheNextRefresh() {
		this.search.found(Set.of("work-1"), Map.of(), false, 0);
		assertThat(this.search.plan(Set.of("work-1"), 1).everyGroup()).isTrue();
	}

	@Test
	void consumersThatAreGoneAreForgotten() {
		this.search.found(Set.of("work-1"), Map.of("work-1", "workers"), true, 0);
		assertThat(this.search.plan(Set.of(), MINUTE)).isEqualTo(new ShareGroupSearch.Plan(Set.of(), false));
		assertThat(this.search.plan(Set.of("work-1"), 2 * MINUTE)).isEqualTo(new ShareGroupSearch.Plan(Set.of(), true));
	}

}
