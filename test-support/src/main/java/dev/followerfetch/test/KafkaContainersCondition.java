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
package dev.followerfetch.test;

import java.util.Optional;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.util.AnnotationUtils;

import org.springframework.util.ClassUtils;

/**
 * Evaluates {@link EnabledIfKafkaContainers} and {@code @MultiZoneKafka(containers = true)}
 * before a class's or method's callbacks, so that a skipped test starts nothing and is
 * reported as skipped with its reason. Touches Testcontainers only where containers are
 * asked for: it is an optional dependency.
 *
 * @author follower-fetch authors
 */
final class KafkaContainersCondition implements ExecutionCondition {

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		Optional<String> image = image(context);
		if (image.isEmpty()) {
			return ConditionEvaluationResult.enabled("no broker containers asked for");
		}
		Optional<String> reason = ClassUtils.isPresent("org.testcontainers.kafka.KafkaContainer",
				KafkaContainersCondition.class.getClassLoader()) ? DockerImages.unavailable(image.get())
						: Optional.of("Broker containers need org.testcontainers:testcontainers-kafka on the test "
								+ "class path");
		if (reason.isEmpty()) {
			return ConditionEvaluationResult.enabled("broker containers can run");
		}
		if (DockerImages.required()) {
			throw new IllegalStateException(reason.get() + " (and " + DockerImages.PROPERTY + "=required)");
		}
		return ConditionEvaluationResult.disabled(reason.get());
	}

	/**
	 * The image asked for, empty for the default one; none when no container is.
	 */
	private static Optional<String> image(ExtensionContext context) {
		Optional<EnabledIfKafkaContainers> enabledIf = context.getElement()
			.flatMap((element) -> AnnotationUtils.findAnnotation(element, EnabledIfKafkaContainers.class));
		if (enabledIf.isPresent()) {
			return Optional.of(enabledIf.get().image());
		}
		return context.getElement()
			.flatMap((element) -> AnnotationUtils.findAnnotation(element, MultiZoneKafka.class))
			.filter(MultiZoneKafka::containers)
			.map(MultiZoneKafka::image);
	}

}
