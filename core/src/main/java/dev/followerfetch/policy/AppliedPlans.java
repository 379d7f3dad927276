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
package dev.followerfetch.policy;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the adapters of one application context keep between the plans they apply, so
 * that {@link ClientRackDecider#plan(ClientRequest)} can stay a function of its request:
 * the client ids made from a base so far, and the notes said once. One per application
 * context, shared by every adapter and by {@link ClientRackDecider#configure}; not
 * static, so two applications in one JVM keep apart.
 *
 * @author follower-fetch authors
 */
public final class AppliedPlans {

	// the decider's notes, under the logger they have always had
	private static final Logger logger = LoggerFactory.getLogger(ClientRackDecider.class);

	// one counter per client id made from a base, so that clients without a client.id never share one
	private final Map<String, AtomicInteger> madeFromBase = new ConcurrentHashMap<>();

	private final Set<PlanNote> saidOnce = ConcurrentHashMap.newKeySet();

	/**
	 * The plan to apply to a client: the decider's plan for its request, with its notes
	 * said (one said once per application context only the first time) and, where its
	 * {@code client.id} is made from the request's base because the client has none of its
	 * own, a counter after it from the second such client on ({@code -2}, {@code -3}, ...).
	 * Call it once for each client the plan is applied to.
	 * @param request the client's request
	 * @param plan the decider's plan for it
	 * @return the plan to apply
	 */
	public ClientPlan applying(ClientRequest request, ClientPlan plan) {
		plan.notes().forEach(this::say);
		String clientId = plan.clientId();
		if (clientId == null || request.ownClientId() != null) {
			return plan;
		}
		int use = this.madeFromBase.computeIfAbsent(clientId, (key) -> new AtomicInteger()).incrementAndGet();
		return (use == 1) ? plan : plan.withClientId(clientId + "-" + use);
	}

	private void say(PlanNote note) {
		if (note.once() && !this.saidOnce.add(note)) {
			return;
		}
		if (note instanceof PlanNote.OwnClientRack own && logger.isInfoEnabled()) {
			String rack = own.detectedRack();
			String detected = (rack != null && !rack.equals(own.clientRack()))
					? " (detected rack is " + rack + " from " + Objects.requireNonNullElse(own.source(), "?") + ")" : "";
			logger.info(own.client() + " keeps its own client.rack=" + own.clientRack() + detected);
		}
		else if (note instanceof PlanNote.LeftOnLeaders leaders && logger.isDebugEnabled()) {
			logger.debug(leaders.client() + " is left on the leaders: follower-fetch.policy.default=freshness");
		}
		else if (note instanceof PlanNote.OwnStrategy strategy && logger.isInfoEnabled()) {
			logger.info(strategy.client() + " keeps its own partition.assignment.strategy=" + strategy.strategies()
					+ ": zone-aware assignment is not added (list " + ZoneAwareAssignor.class.getName()
					+ " first to have it)");
		}
		else if (note instanceof PlanNote.Rejoins rejoins) {
			logger.info("kafka-clients " + rejoins.kafkaVersion() + ": a consumer with client.rack rejoins its "
					+ "group twice for every broker restart (KAFKA-20778, fixed in kafka-clients "
					+ BrokerBounceRejoins.FIXED_IN + "). Consumers with Kafka's default assignment strategies get the "
					+ "zone-aware assignor over range, then cooperative-sticky, and rebalance cooperatively, so such "
					+ "a rejoin revokes no partition; a consumer whose own partition.assignment.strategy names range "
					+ "rebalances eagerly and stops to revoke all its partitions each time (docs/rollout.md)");
		}
		else if (note instanceof PlanNote.NoClientIdTag tag) {
			String zone = tag.zone();
			logger.warn(ClientIdZone.PROPERTY + "=" + tag.clientIdZone() + " adds no " + tag.key() + " to client ids: "
					+ ((zone != null) ? "the zone '" + zone + "' has characters a client id tag cannot carry"
							: "no zone was detected"));
		}
	}

}
