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

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.FetchPolicy;
import dev.followerfetch.policy.ListenerPolicy.Origin;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.kafka.annotation.KafkaListenerAnnotationBeanPostProcessor.AnnotationEnhancer;

/**
 * Carries a listener's {@link FetchPolicy} from its method or class into the consumer
 * properties of its container, as a marker the {@link ListenerPolicyApplier} reads and
 * removes before the container starts.
 *
 * @author follower-fetch authors
 */
final class FetchPolicyAnnotationEnhancer implements AnnotationEnhancer {

	static final String MARKER = "follower-fetch.policy";

	@Override
	public Map<String, Object> apply(Map<String, Object> attributes, AnnotatedElement element) {
		Marker marker = find(element);
		if (marker == null) {
			return attributes;
		}
		List<String> properties = new ArrayList<>();
		if (attributes.get("properties") instanceof String[] existing) {
			properties.addAll(Arrays.asList(existing));
		}
		properties.add(MARKER + "=" + marker.policy().value().name() + "," + marker.origin().name());
		Map<String, Object> enhanced = new HashMap<>(attributes);
		enhanced.put("properties", properties.toArray(String[]::new));
		return enhanced;
	}

	private static Marker find(AnnotatedElement element) {
		if (element instanceof Method method) {
			FetchPolicy onMethod = AnnotatedElementUtils.findMergedAnnotation(method, FetchPolicy.class);
			if (onMethod != null) {
				return new Marker(onMethod, Origin.METHOD_ANNOTATION);
			}
			element = method.getDeclaringClass();
		}
		FetchPolicy onClass = AnnotatedElementUtils.findMergedAnnotation(element, FetchPolicy.class);
		return (onClass != null) ? new Marker(onClass, Origin.CLASS_ANNOTATION) : null;
	}

	private record Marker(FetchPolicy policy, Origin origin) {

	}

}
