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
package dev.followerfetch.application;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import dev.followerfetch.application.BinderBindings.Binding;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ConsumerKind;
import dev.followerfetch.policy.ConsumerPolicy;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * Says which fetch policy each Kafka binding got, once the application's bindings exist
 * (its context is refreshed), and each binding created later as it comes; warns about
 * {@code follower-fetch.policy.bindings} entries that name no binding and about bindings
 * whose consumers cannot be observed.
 *
 * @author follower-fetch authors
 */
final class BindingPolicyReport implements ApplicationListener<ContextRefreshedEvent> {

	static final String RECIPE = "spring.cloud.stream.binders.<binder>.environment.spring.main.sources="
			+ BinderClientRackConfiguration.class.getName();

	private static final Log logger = LogFactory.getLog(BindingPolicyReport.class);

	private final ApplicationContext context;

	private final BinderBindings bindings;

	private final ObjectProvider<ClientRackDecider> decider;

	private volatile boolean reported;

	BindingPolicyReport(ApplicationContext context, BinderBindings bindings, ObjectProvider<ClientRackDecider> decider) {
		this.context = context;
		this.bindings = bindings;
		this.decider = decider;
	}

	void decided(ConsumerPolicy policy, boolean added) {
		if (this.reported && logger.isInfoEnabled()) {
			logger.info("Kafka binding fetch policy: " + describe(policy) + (added ? "" : " (bound again)"));
		}
	}

	@Override
	public void onApplicationEvent(ContextRefreshedEvent event) {
		if (event.getApplicationContext() != this.context || this.reported) {
			return;
		}
		this.reported = true;
		List<Binding> all = this.bindings.all();
		if (!all.isEmpty() && logger.isInfoEnabled()) {
			logger.info("Kafka binding fetch policies: "
					+ all.stream().map((binding) -> describe(binding.policy())).collect(Collectors.joining(", ")));
		}
		Set<String> unobserved = all.stream()
			.filter((binding) -> !binding.observed())
			.map(Binding::name)
			.collect(Collectors.toCollection(TreeSet::new));
		if (!unobserved.isEmpty()) {
			logger.warn("Kafka binding" + ((unobserved.size() == 1) ? " " : "s ") + unobserved
					+ " got client.rack, but follower-fetch cannot observe " + ((unobserved.size() == 1) ? "its" : "their")
					+ " consumers: the binder runs in a context of its own. Add " + RECIPE);
		}
		Set<String> known = all.stream().map(Binding::name).collect(Collectors.toSet());
		this.decider.ifAvailable((decider) -> decider.warnUnknownNames(ConsumerKind.BINDING, known));
	}

	private static String describe(ConsumerPolicy policy) {
		return policy.toString();
	}

}
