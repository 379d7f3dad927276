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

import dev.followerfetch.observation.GroupAssignors.Rebalances;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link GroupAssignors}.
 *
 * @author follower-fetch authors
 */
class GroupAssignorsTests {

	private static final ClusterView.GroupAssignor RANGE = new ClusterView.GroupAssignor(false, "range");

	private static final ClusterView.GroupAssignor NO_MEMBERS = new ClusterView.GroupAssignor(false, "");

	private final GroupAssignors assignors = new GroupAssignors();

	@Test
	void aGroupIsDescribedOnceAndNotAgainWhileItsConsumersDoNotRebalance() {
		Rebalances once = new Rebalances(Set.of("orders-0"), 1);
		assertThat(this.assignors.toDescribe(Map.of("orders", once))).containsExactly("orders");
		this.assignors.described("orders", once, RANGE);
		for (int i = 0; i < 100; i++) {
			assertThat(this.assignors.toDescribe(Map.of("orders", once))).isEmpty();
		}
		assertThat(this.assignors.assignors()).containsExactly(Map.entry("orders", RANGE));
	}

	@Test
	void aRebalanceOrAReplacedConsumerHasTheGroupDescribedAgain() {
		Rebalances once = new Rebalances(Set.of("orders-0"), 1);
		this.assignors.toDescribe(Map.of("orders", once));
		this.assignors.described("orders", once, RANGE);
		assertThat(this.assignors.toDescribe(Map.of("orders", new Rebalances(Set.of("orders-0"), 2))))
			.containsExactly("orders");
		assertThat(this.assignors.toDescribe(Map.of("orders", new Rebalances(Set.of("orders-1"), 1))))
			.containsExactly("orders");
	}

	@Test
	void aGroupThatCouldNotBeDescribedKeepsWhatItSaidBeforeAndIsAskedAgainBackingOff() {
		Rebalances once = new Rebalances(Set.of("orders-0"), 1);
		Rebalances twice = new Rebalances(Set.of("orders-0"), 2);
		this.assignors.toDescribe(Map.of("orders", once));
		this.assignors.described("orders", once, RANGE);
		List<Integer> asked = new ArrayList<>();
		for (int inspection = 1; inspection <= 64; inspection++) {
			if (this.assignors.toDescribe(Map.of("orders", twice)).contains("orders")) {
				asked.add(inspection);
				this.assignors.described("orders", twice, null);
			}
		}
		assertThat(asked).startsWith(1, 2, 4, 8, 16, 32, 48, 64);
		assertThat(this.assignors.assignors()).containsExactly(Map.entry("orders", RANGE));
	}

	@Test
	void aGroupWithoutMembersYetIsAskedAgainUntilItNamesItsAssignor() {
		Rebalances none = new Rebalances(Set.of("orders-0"), 0);
		this.assignors.toDescribe(Map.of("orders", none));
		this.assignors.described("orders", none, NO_MEMBERS);
		assertThat(this.assignors.toDescribe(Map.of("orders", none))).containsExactly("orders");
		this.assignors.described("orders", none, RANGE);
		assertThat(this.assignors.toDescribe(Map.of("orders", none))).isEmpty();
	}

	@Test
	void aGroupWhoseConsumersReportNoRebalancesIsDescribedEverySixteenInspections() {
		Rebalances unknown = new Rebalances(Set.of(), 0);
		List<Integer> asked = new ArrayList<>();
		for (int inspection = 1; inspection <= 40; inspection++) {
			if (this.assignors.toDescribe(Map.of("orders", unknown)).contains("orders")) {
				asked.add(inspection);
				this.assignors.described("orders", unknown, RANGE);
			}
		}
		assertThat(asked).containsExactly(1, 17, 33);
	}

	@Test
	void aGroupWhoseConsumersAllHadTheirZoneAwareAssignorChosenIsNeverDescribed() {
		Rebalances chosen = new Rebalances(Set.of("orders-0"), 1, true);
		for (int i = 0; i < 20; i++) {
			assertThat(this.assignors.toDescribe(Map.of("orders", chosen))).isEmpty();
		}
		assertThat(this.assignors.assignors()).containsExactly(
				Map.entry("orders", new ClusterView.GroupAssignor(false, "follower-fetch-zone-aware")));
		Rebalances another = new Rebalances(Set.of("orders-0"), 2, false);
		assertThat(this.assignors.toDescribe(Map.of("orders", another))).as("chosen no longer")
			.containsExactly("orders");
	}

	@Test
	void aGroupNoConsumerIsInAnyMoreIsForgotten() {
		Rebalances once = new Rebalances(Set.of("orders-0"), 1);
		this.assignors.toDescribe(Map.of("orders", once));
		this.assignors.described("orders", once, RANGE);
		assertThat(this.assignors.toDescribe(Map.of())).isEmpty();
		assertThat(this.assignors.assignors()).isEmpty();
		assertThat(this.assignors.toDescribe(Map.of("orders", once))).containsExactly("orders");
	}

}
