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

import dev.followerfetch.BootApis;
import dev.followerfetch.FetchPolicy;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.kafka.annotation.KafkaHandler;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FollowerFetchRuntimeHints}.
 *
 * @author follower-fetch authors
 */
class FollowerFetchRuntimeHintsTests {

	private final RuntimeHints hints = registeredHints();

	@Test
	void registrarIsFoundThroughAotFactories() {
		assertThat(AotServices.factories(getClass().getClassLoader()).load(RuntimeHintsRegistrar.class))
			.hasAtLeastOneElementOfType(FollowerFetchRuntimeHints.class);
	}

	@Test
	void consumerFactoryFieldOfListenerContainersIsReadable() {
		assertThat(BootApis.fieldAccess(AbstractMessageListenerContainer.class,
				FollowerFetchRuntimeHints.CONSUMER_FACTORY_FIELD))
			.accepts(this.hints);
	}

	@Test
	void hintNamesTheFieldListenerContainersKeepTheirConsumerFactoryIn() {
		assertThat(ReflectionUtils.findField(AbstractMessageListenerContainer.class,
				FollowerFetchRuntimeHints.CONSUMER_FACTORY_FIELD, ConsumerFactory.class))
			.isNotNull();
	}

	@Test
	void fetchPolicyAttributesAreInvocable() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(FetchPolicy.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(this.hints);
		assertThat(BootApis.methodInvocation(FetchPolicy.class, "value")).accepts(this.hints);
	}

	@Test
	void theZoneAwareAssignorCanBeCreatedFromItsClassNameAsKafkasConsumerDoes() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(ZoneAwareAssignor.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS)).accepts(this.hints);
	}

	@Test
	void kafkaHandlerAnnotationIsReadable() {
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(KafkaHandler.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(this.hints);
		assertThat(BootApis.methodInvocation(KafkaHandler.class, "isDefault")).accepts(this.hints);
	}

	private static RuntimeHints registeredHints() {
		RuntimeHints hints = new RuntimeHints();
		new FollowerFetchRuntimeHints().registerHints(hints, FollowerFetchRuntimeHintsTests.class.getClassLoader());
		return hints;
	}

}
