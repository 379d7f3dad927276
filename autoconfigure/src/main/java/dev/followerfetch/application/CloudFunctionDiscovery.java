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

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.cloud.function.context.FunctionProperties;
import org.springframework.cloud.function.context.FunctionRegistration;
import org.springframework.cloud.function.context.config.RoutingFunction;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Keeps Spring Cloud Function's discovery of an application's functions as it is without
 * the starter. It counts every {@code BiFunction} bean as a function, and the starter's
 * {@code @FetchPolicy} annotation enhancer is one (Spring Kafka finds enhancers by that
 * type): with it, an application with one function of its own would find none and, under
 * Spring Cloud Stream, lose its bindings, and one without functions would be offered the
 * enhancer. So the enhancer is no eligible function definition, and where Spring Cloud
 * Function would have taken the application's only function, that one is named as the
 * definition, at the lowest precedence, with a line in the log.
 *
 * @author follower-fetch authors
 */
final class CloudFunctionDiscovery implements BeanFactoryPostProcessor, BeanPostProcessor, PriorityOrdered {

	static final String DEFINITION = "spring.cloud.function.definition";

	static final String PROPERTY_SOURCE = "followerFetchFunctionDefinition";

	private static final Log logger = LogFactory.getLog(CloudFunctionDiscovery.class);

	private static final Class<?>[] FUNCTIONAL_TYPES = { Function.class, Supplier.class, Consumer.class,
			BiFunction.class, BiConsumer.class, FunctionRegistration.class };

	private final ConfigurableEnvironment environment;

	private final String enhancer;

	CloudFunctionDiscovery(ConfigurableEnvironment environment, String enhancer) {
		this.environment = environment;
		this.enhancer = enhancer;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (!beanFactory.containsBeanDefinition(this.enhancer) || this.environment.containsProperty(DEFINITION)
				|| this.environment.containsProperty("spring.cloud.stream.function.definition")
				|| this.environment.containsProperty("spring.cloud.function.routing-expression")
				|| this.environment.getProperty("spring.cloud.stream.function.routing.enabled", Boolean.class, false)
				|| !this.environment.getProperty("spring.cloud.stream.function.autodetect", Boolean.class, true)) {
			return;
		}
		Set<String> functions = new TreeSet<>();
		for (Class<?> type : FUNCTIONAL_TYPES) {
			functions.addAll(Arrays.asList(beanFactory.getBeanNamesForType(type, true, false)));
		}
		functions.removeAll(
				Set.of(this.enhancer, RoutingFunction.FUNCTION_NAME, RoutingFunction.DEFAULT_ROUTE_HANDLER));
		if (functions.size() == 1) {
			String function = functions.iterator().next();
			this.environment.getPropertySources()
				.addLast(new MapPropertySource(PROPERTY_SOURCE, Map.of(DEFINITION, function)));
			logger.info(DEFINITION + "=" + function + " (the application's only function, as Spring Cloud Function "
					+ "would take it, were follower-fetch's @FetchPolicy enhancer not a BiFunction bean)");
		}
	}

	// before any post-processor that may create the FunctionProperties bean
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (bean instanceof FunctionProperties functions) {
			functions.setIneligibleDefinitions(List.of(this.enhancer));
		}
		return bean;
	}

}
