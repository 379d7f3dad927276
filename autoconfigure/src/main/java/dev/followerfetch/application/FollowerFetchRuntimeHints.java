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

import java.lang.reflect.Field;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.assignment.ZoneAwareAssignor;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.kafka.annotation.KafkaHandler;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * {@link RuntimeHintsRegistrar} for the reflection follower-fetch does at run time: the
 * consumer factory that spring-kafka keeps in a protected field of its listener
 * containers, the attributes of {@link FetchPolicy} and {@link KafkaHandler} read
 * when a listener's policy is decided, and the zone-aware assignor that Kafka's consumer
 * creates from its class name.
 *
 * @author follower-fetch authors
 */
class FollowerFetchRuntimeHints implements RuntimeHintsRegistrar {

	static final String CONSUMER_FACTORY_FIELD = "consumerFactory";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection().registerType(FetchPolicy.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		hints.reflection().registerType(ZoneAwareAssignor.class, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		if (!ClassUtils.isPresent("org.springframework.kafka.listener.AbstractMessageListenerContainer", classLoader)) {
			return;
		}
		Field consumerFactory = ReflectionUtils.findField(AbstractMessageListenerContainer.class,
				CONSUMER_FACTORY_FIELD);
		if (consumerFactory != null) {
			hints.reflection().registerField(consumerFactory);
		}
		hints.reflection().registerType(KafkaHandler.class, MemberCategory.INVOKE_PUBLIC_METHODS);
	}

}
