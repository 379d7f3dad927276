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

import java.io.IOException;
import java.io.StringReader;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.Policy;
import dev.followerfetch.policy.AppliedPlans;
import dev.followerfetch.policy.ClientPlan;
import dev.followerfetch.policy.ClientRackDecider;
import dev.followerfetch.policy.ClientRequest;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaHandler;
import org.springframework.kafka.annotation.KafkaListenerAnnotationBeanPostProcessor.AnnotationEnhancer;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Plans a {@code @KafkaListener} at its annotation, the one decision of its policy, and
 * gives it what that {@link ClientPlan} lets an annotation carry, where spring-kafka reads
 * consumer properties: for a listener that {@code follower-fetch.policy.listeners.<id>} or
 * {@link FetchPolicy} on its method or class takes off the default policy, the
 * {@code client.rack} the policy calls for (empty for freshness), and a link to the plan,
 * kept by {@link ListenerPolicies}, which the {@link ListenerPolicyApplier} follows and
 * removes before the container starts. A listener that sets its own {@code client.rack}
 * is left alone.
 *
 * @author follower-fetch authors
 */
final class FetchPolicyAnnotationEnhancer implements AnnotationEnhancer {

	private static final Log logger = LogFactory.getLog(FetchPolicyAnnotationEnhancer.class);

	private final ObjectProvider<ClientRackDecider> decider;

	private final ObjectProvider<AppliedPlans> applied;

	private final ObjectProvider<ListenerPolicies> policies;

	private final Environment environment;

	FetchPolicyAnnotationEnhancer(ObjectProvider<ClientRackDecider> decider, ObjectProvider<AppliedPlans> applied,
			ObjectProvider<ListenerPolicies> policies, Environment environment) {
		this.decider = decider;
		this.applied = applied;
		this.policies = policies;
		this.environment = environment;
	}

	@Override
	public Map<String, Object> apply(Map<String, Object> attributes, AnnotatedElement element) {
		if (element instanceof Class<?> listenerClass) {
			warnAboutHandlerAnnotations(listenerClass);
		}
		List<String> consumerProperties = new ArrayList<>();
		if (attributes.get("properties") instanceof String[] existing) {
			consumerProperties.addAll(Arrays.asList(existing));
		}
		Properties own = parse(consumerProperties);
		if (own.containsKey(ConsumerConfig.CLIENT_RACK_CONFIG)) {
			return attributes;
		}
		Method method = (element instanceof Method listenerMethod) ? listenerMethod : null;
		Policy onMethod = (method != null) ? annotated(method) : null;
		Policy onClass = annotated((method != null) ? method.getDeclaringClass() : element);
		ClientRequest request = ClientRequest.listenerAnnotation(resolve(attributes.get("id")),
				ListenerPolicies.map(own), onMethod, onClass);
		ClientPlan plan = this.applied.getObject().applying(request, this.decider.getObject().plan(request));
		if (plan.policy() == null || plan.policy().origin() == Origin.DEFAULT) {
			return attributes;
		}
		consumerProperties.add(ListenerPolicies.DECLARATION + "=" + this.policies.getObject().declare(plan, onMethod, onClass));
		plan.settings().forEach((name, value) -> consumerProperties.add(name + "=" + value));
		Map<String, Object> enhanced = new HashMap<>(attributes);
		enhanced.put("properties", consumerProperties.toArray(String[]::new));
		return enhanced;
	}

	private @Nullable String resolve(@Nullable Object id) {
		String resolved = (id instanceof String value) ? this.environment.resolvePlaceholders(value) : null;
		return StringUtils.hasText(resolved) ? resolved : null;
	}

	private static @Nullable Policy annotated(AnnotatedElement element) {
		FetchPolicy policy = AnnotatedElementUtils.findMergedAnnotation(element, FetchPolicy.class);
		return (policy != null) ? policy.value() : null;
	}

	/**
	 * The handlers of a class-level listener share its consumers, so a policy can only be
	 * the class's.
	 */
	private static void warnAboutHandlerAnnotations(Class<?> listenerClass) {
		ReflectionUtils.doWithMethods(listenerClass, (method) -> logger.warn("@FetchPolicy on @KafkaHandler method "
				+ listenerClass.getName() + "." + method.getName() + " is ignored: the handlers of a class-level "
				+ "@KafkaListener share its consumers. Put @FetchPolicy on the class, or set "
				+ "follower-fetch.policy.listeners.<listener-id>."),
				(method) -> AnnotatedElementUtils.hasAnnotation(method, KafkaHandler.class)
						&& AnnotatedElementUtils.hasAnnotation(method, FetchPolicy.class));
	}

	private static Properties parse(List<String> consumerProperties) {
		Properties parsed = new Properties();
		try {
			parsed.load(new StringReader(String.join("\n", consumerProperties)));
		}
		catch (IOException ex) {
			// a StringReader throws none
		}
		return parsed;
	}

}
