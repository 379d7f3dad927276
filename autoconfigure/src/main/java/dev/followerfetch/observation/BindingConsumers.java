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

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.application.BinderBindings;
import dev.followerfetch.policy.ConsumerKind;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The consumers of each Spring Cloud Stream Kafka binding, observed as one section per
 * binding name: the metrics of the consumers its consumer factory has open, and the
 * configuration the binder built for it (the binder's {@code bootstrap.servers} included,
 * so its own cluster is inspected). Partitions are the ones its fetch metrics name: the
 * binder's listener containers are not reachable from outside the binder.
 *
 * @author follower-fetch authors
 */
final class BindingConsumers implements ObservedConsumers {

	private final BinderBindings bindings;

	BindingConsumers(BinderBindings bindings) {
		this.bindings = bindings;
	}

	@Override
	public Collection<ObservedConsumer> find() {
		return this.bindings.all().stream().map(BindingConsumers::observed).toList();
	}

	private static ObservedConsumer observed(BinderBindings.Binding binding) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("destinations", List.copyOf(binding.destinations()));
		Object clientRack = binding.config().get(ConsumerConfig.CLIENT_RACK_CONFIG);
		if (clientRack != null) {
			details.put(ReadLocalityJudge.CLIENT_RACK, clientRack.toString());
		}
		details.put(ReadLocalityJudge.ORIGIN, binding.policy().origin().name());
		return new ObservedConsumer(ConsumerKind.BINDING, binding.name(), binding.policy().policy(), binding.config(),
				null, binding::consumers, details);
	}

}
