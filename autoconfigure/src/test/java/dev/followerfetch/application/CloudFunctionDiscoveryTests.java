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

import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.followerfetch.BootApis;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.function.context.FunctionProperties;
import org.springframework.cloud.function.context.FunctionRegistration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CloudFunctionDiscovery}: Spring Cloud Function finds an application's
 * functions as without the starter, although its annotation enhancer is a
 * {@code BiFunction} bean.
 *
 * @author follower-fetch authors
 */
class CloudFunctionDiscoveryTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(BootApis.KAFKA_AUTO_CONFIG, RackDetectionAutoConfiguration.class,
				ClientRackAutoConfiguration.class, FetchPolicyAutoConfiguration.class))
		.withPropertyValues("follower-fetch.rack=az-b", "follower-fetch.detection.order=env",
				"spring.kafka.bootstrap-servers=127.0.0.1:9");

	@Test
	void theApplicationsOnlyFunctionBecomesTheDefinitionAtTheLowestPrecedence() {
		this.contextRunner.withUserConfiguration(OneFunction.class).run((context) -> {
			assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition")).isEqualTo("ledger");
			assertThat(context.getEnvironment().getPropertySources().stream().reduce((first, second) -> second))
				.hasValueSatisfying(
						(last) -> assertThat(last.getName()).isEqualTo(CloudFunctionDiscovery.PROPERTY_SOURCE));
		});
	}

	@Test
	void aDefinitionOfTheApplicationsOwnIsLeftAlone() {
		this.contextRunner.withUserConfiguration(OneFunction.class)
			.withPropertyValues("spring.cloud.function.definition=other")
			.run((context) -> {
				assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition")).isEqualTo("other");
				assertThat(context.getEnvironment().getPropertySources())
					.noneMatch((source) -> source.getName().equals(CloudFunctionDiscovery.PROPERTY_SOURCE));
			});
	}

	@Test
	void twoFunctionsOfTheApplicationsNeedItsOwnDefinitionAsWithoutTheStarter() {
		this.contextRunner.withUserConfiguration(TwoFunctions.class)
			.run((context) -> assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition"))
				.isNull());
	}

	@Test
	void anApplicationWithoutFunctionsGetsNoDefinitionAndTheEnhancerIsNoFunction() {
		this.contextRunner.withUserConfiguration(FunctionProperties.class).run((context) -> {
			assertThat(context).hasBean("followerFetchPolicyAnnotationEnhancer");
			assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition")).isNull();
			assertThat(context.getBean(FunctionProperties.class).getIneligibleDefinitions())
				.contains("followerFetchPolicyAnnotationEnhancer");
		});
	}

	@Test
	void aBiFunctionOfTheApplicationsCountsAsSpringCloudFunctionCountsIt() {
		this.contextRunner.withUserConfiguration(OneFunction.class, OneBiFunction.class)
			.run((context) -> assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition"))
				.isNull());
	}

	@Test
	void routingLeavesTheDefinitionToSpringCloudFunction() {
		this.contextRunner.withUserConfiguration(OneFunction.class)
			.withPropertyValues("spring.cloud.function.routing-expression=headers['type']")
			.run((context) -> assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition"))
				.isNull());
	}

	@Test
	void anApplicationThatTurnedAutodetectionOffGetsNoDefinition() {
		this.contextRunner.withUserConfiguration(OneFunction.class)
			.withPropertyValues("spring.cloud.stream.function.autodetect=false")
			.run((context) -> assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition"))
				.isNull());
	}

	@Test
	void aDefinitionUnderTheStreamPrefixIsTheApplicationsOwnToo() {
		this.contextRunner.withUserConfiguration(OneFunction.class)
			.withPropertyValues("spring.cloud.stream.function.definition=other")
			.run((context) -> assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition"))
				.isNull());
	}

	@Test
	void withoutSpringCloudFunctionThereIsNothingToKeep() {
		this.contextRunner.withUserConfiguration(OneFunction.class)
			.withClassLoader(new FilteredClassLoader(FunctionRegistration.class))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(CloudFunctionDiscovery.class);
				assertThat(context.getEnvironment().getProperty("spring.cloud.function.definition")).isNull();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class OneFunction {

		@Bean
		Consumer<String> ledger() {
			return (payload) -> {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoFunctions {

		@Bean
		Consumer<String> ledger() {
			return (payload) -> {
			};
		}

		@Bean
		Function<String, String> enrich() {
			return (payload) -> payload;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OneBiFunction {

		@Bean
		BiFunction<String, Map<String, Object>, String> withHeaders() {
			return (payload, headers) -> payload;
		}

	}

}
