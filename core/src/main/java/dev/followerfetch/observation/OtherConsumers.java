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
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.followerfetch.Policy;
import dev.followerfetch.observation.ConsumerMetricsReader.JmxConsumers;
import dev.followerfetch.observation.ReadLocalityJudge.Subject;
import dev.followerfetch.policy.ConfiguredConsumer;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import dev.followerfetch.policy.ConsumerPolicy;

/**
 * The consumers of the process that no {@link ObservedConsumers} source accounts for,
 * found in JMX by client id: consumers the application or a library builds itself. One
 * configured through the {@code ClientRackDecider} is judged under its declared policy;
 * any other under {@code follower-fetch.policy.consumers.<client-id>} or
 * {@code follower-fetch.policy.default}, as a consumer the starter did not configure.
 * Share consumers found there are {@link ShareConsumers}, never other consumers.
 *
 * @author follower-fetch authors
 */
final class OtherConsumers {

	private final ConsumerMetricsReader reader;

	private final Supplier<List<ConfiguredConsumer>> configured;

	private final Function<String, ConsumerPolicy> undeclared;

	OtherConsumers(ConsumerMetricsReader reader, Supplier<List<ConfiguredConsumer>> configured,
			Function<String, ConsumerPolicy> undeclared) {
		this.reader = reader;
		this.configured = configured;
		this.undeclared = undeclared;
	}

	/**
	 * Find the consumers the known ones leave out.
	 * @param known the consumers the sources account for
	 * @param problems where to say that JMX cannot be read, or holds none of the known
	 * consumers
	 * @return the other consumers and the share consumers, one per client id
	 */
	List<Subject> find(Collection<Subject> known, List<Problem> problems) {
		Set<String> knownIds = new HashSet<>();
		known.forEach((subject) -> subject.clients().forEach((client) -> knownIds.add(client.clientId())));
		JmxConsumers jmx = this.reader.fromJmx(knownIds);
		if (jmx.failure() != null) {
			problems.add(Problem.jmxUnreadable(jmx.failure()));
			return List.of();
		}
		if (!knownIds.isEmpty() && knownIds.stream().noneMatch(jmx.clientIds()::contains)) {
			problems.add(Problem.of(Problem.Kind.NOT_IN_JMX));
		}
		List<ConfiguredConsumer> configured = this.configured.get();
		List<Subject> others = new ArrayList<>();
		jmx.clients().forEach((clientId, client) -> {
			if (knownIds.contains(clientId)) {
				return;
			}
			ConfiguredConsumer declared = null;
			for (ConfiguredConsumer candidate : configured) {
				if (candidate.hasClientId(clientId)) {
					declared = candidate;
				}
			}
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("declared", declared != null);
			if (declared != null) {
				details.put(ReadLocalityJudge.CLIENT_RACK, (declared.clientRack() != null) ? declared.clientRack() : "none");
				if (!clientId.equals(declared.policy().name())) {
					details.put("configuredAs", declared.policy().name());
				}
			}
			ConsumerPolicy decision = (declared != null) ? declared.policy() : this.undeclared.apply(clientId);
			if (declared == null && decision.origin() == Origin.PROPERTY) {
				details.put(ReadLocalityJudge.ORIGIN, decision.origin().name());
			}
			Policy policy = decision.policy();
			ObservedConsumer consumer = new ObservedConsumer(ConsumerKind.OTHER, clientId, policy,
					(declared != null) ? declared.config() : Map.of(), client.readReplicas().keySet(), Map::of, details);
			others.add(new Subject(consumer, declared != null, client.readReplicas().keySet(), List.of(client)));
		});
		jmx.shares().values().forEach((client) -> others.add(ShareConsumers.found(client)));
		return others;
	}

}
