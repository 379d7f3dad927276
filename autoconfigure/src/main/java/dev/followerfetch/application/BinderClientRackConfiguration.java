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

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Configuration for a Kafka binder that runs in a context of its own, as a binder with an
 * {@code environment} of its own does in a multi-binder application: it hands that binder
 * the application's {@code client.rack} customizer, so that its bindings get their fetch
 * policy and are observed, and its producer and admin client customizer
 * for {@code follower-fetch.client-id-zone}. Add it to each such binder by naming this class in
 * {@code spring.cloud.stream.binders.<binder>.environment.spring.main.sources}.
 * Harmless where follower-fetch is disabled.
 *
 * @author follower-fetch authors
 */
@Configuration(proxyBeanMethods = false)
public final class BinderClientRackConfiguration {

	@Bean
	@Nullable BinderClientRackCustomizer followerFetchBinderClientRackCustomizer(ApplicationContext binderContext) {
		ApplicationContext application = application(binderContext);
		return (application != null)
				? application.getBeanProvider(BinderClientRackCustomizer.class).getIfAvailable() : null;
	}

	@Bean
	@Nullable BinderClientIdCustomizer followerFetchBinderClientIdCustomizer(
			ApplicationContext binderContext) {
		ApplicationContext application = application(binderContext);
		return (application != null)
				? application.getBeanProvider(BinderClientIdCustomizer.class).getIfAvailable() : null;
	}

	/**
	 * The application's context: the binder's parent, or the one the binder factory
	 * registers as {@code outerContext} in a binder context without a parent.
	 */
	private static @Nullable ApplicationContext application(ApplicationContext binderContext) {
		if (binderContext.getParent() != null) {
			return binderContext.getParent();
		}
		if (binderContext.containsBean("outerContext")
				&& binderContext.getBean("outerContext") instanceof ApplicationContext outer) {
			return outer;
		}
		return null;
	}

}
