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

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.followerfetch.Policy;
import dev.followerfetch.application.BinderBindings.Binding;
import dev.followerfetch.assignment.ZoneAwareAssignor;
import dev.followerfetch.assignment.ZoneAwareAssignors;
import dev.followerfetch.detection.RackDetectionAutoConfiguration;
import dev.followerfetch.policy.FetchPolicyAutoConfiguration;
import dev.followerfetch.policy.ConsumerPolicy.Origin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.stream.binder.kafka.config.ClientFactoryCustomizer;
import org.springframework.cloud.stream.binder.kafka.support.ConsumerConfigCustomizer;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BinderClientRackAutoConfiguration} and the multi-binder recipe,
 * {@link BinderClientRackConfiguration}.
 *
 * @author follower-fetch authors
 */
@ExtendWith(OutputCaptureExtension.class)
class BinderClientRackAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RackDetectionAutoConfiguration.class,
				FetchPolicyAutoConfiguration.class, ClientRackAutoConfiguration.class, BinderClientRackAutoConfiguration.class))
		.withPropertyValues("follower-fetch.rack=az-b");

	@Test
	void aBindingWithoutARackOfItsOwnGetsTheDetectedRackAndTheReplicaLease() {
		this.contextRunner.run((context) -> {
			Map<String, Object> config = bind(context, "process-in-0", Map.of());
			assertThat(config).containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b")
				.containsEntry(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "30000");
			assertThat(binding(context, "process-in-0").policy().origin()).isEqualTo(Origin.DEFAULT);
		});
	}

	@Test
	void withAClientIdZoneConsumerAndProducerBindingsSendTheTagFirst() {
		this.contextRunner.withPropertyValues("follower-fetch.client-id-zone=automq").run((context) -> {
			assertThat(bind(context, "process-in-0", Map.of())).containsEntry("client.id", "automq_az=az-b&process-in-0");
			Map<String, Object> producer = new HashMap<>();
			context.getBean(BinderClientIdCustomizer.class).configure(producer, "process-out-0", "orders");
			assertThat(producer).containsOnly(Map.entry("client.id", "automq_az=az-b&process-out-0"));
			Map<String, Object> own = new HashMap<>(Map.of("client.id", "ledger"));
			context.getBean(BinderClientIdCustomizer.class).configure(own, "process-out-0", "orders");
			assertThat(own).containsOnly(Map.entry("client.id", "automq_az=az-b&ledger"));
		});
	}

	@Test
	void withAClientIdZoneATransactionalBindersFactoryAndTheProvisionersAdminClientSendTheTagToo() {
		this.contextRunner.withPropertyValues("follower-fetch.client-id-zone=warpstream").run((context) -> {
			BinderClientIdCustomizer customizer = context.getBean(BinderClientIdCustomizer.class);
			Map<String, Object> transactional = new HashMap<>();
			customizer.configure(transactional, null, null);
			assertThat(transactional).containsOnly(Map.entry("client.id", "warpstream_az=az-b,producer"));
			Map<String, Object> admin = new HashMap<>();
			customizer.configure(admin);
			assertThat(admin).containsOnly(Map.entry("client.id", "warpstream_az=az-b,binder-admin"));
		});
	}

	@Test
	void withoutAClientIdZoneAProducerBindingIsLeftAlone() {
		this.contextRunner.run((context) -> {
			Map<String, Object> producer = new HashMap<>();
			context.getBean(BinderClientIdCustomizer.class).configure(producer, "process-out-0", "orders");
			assertThat(producer).isEmpty();
		});
	}

	@Test
	void aBindingPolicyPropertyPutsThatBindingOnTheLeaders() {
		this.contextRunner.withPropertyValues("follower-fetch.policy.bindings.audit-in-0=freshness").run((context) -> {
			assertThat(bind(context, "audit-in-0", Map.of())).containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "");
			assertThat(bind(context, "process-in-0", Map.of())).containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG,
					"az-b");
			assertThat(binding(context, "audit-in-0").policy().policy()).isEqualTo(Policy.FRESHNESS);
			assertThat(binding(context, "audit-in-0").policy().origin()).isEqualTo(Origin.PROPERTY);
		});
	}

	@Test
	void anExplicitClientRackInTheBindingsConfigurationIsKept() {
		this.contextRunner.withPropertyValues("follower-fetch.policy.bindings.process-in-0=freshness")
			.run((context) -> {
				assertThat(bind(context, "process-in-0", Map.of(ConsumerConfig.CLIENT_RACK_CONFIG, "az-a")))
					.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-a");
				assertThat(binding(context, "process-in-0").policy().origin()).isEqualTo(Origin.OWN_CLIENT_RACK);
			});
	}

	@Test
	void theCustomizerRunsAfterTheApplicationsOwnSoItSeesWhatTheySet() {
		this.contextRunner
			.withBean("userCustomizer", ConsumerConfigCustomizer.class,
					() -> (config, binding, destination) -> config.put(ConsumerConfig.CLIENT_RACK_CONFIG, "az-c"))
			.run((context) -> {
				Map<String, Object> config = new HashMap<>();
				context.getBeanProvider(ConsumerConfigCustomizer.class)
					.orderedStream()
					.forEach((customizer) -> customizer.configure(config, "process-in-0", "orders"));
				assertThat(config).containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-c");
				assertThat(binding(context, "process-in-0").policy().origin()).isEqualTo(Origin.OWN_CLIENT_RACK);
			});
	}

	@Test
	void theConsumerFactoryBuiltNextIsFollowedAsThatBindingsConsumers() {
		this.contextRunner.run((context) -> {
			BinderClientRackCustomizer customizer = context.getBean(BinderClientRackCustomizer.class);
			Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "g",
					ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9"));
			customizer.configure(config, "process-in-0", "orders");
			assertThat(binding(context, "process-in-0").observed()).isFalse();
			customizer.configure(new DefaultKafkaConsumerFactory<>(config));
			Binding binding = binding(context, "process-in-0");
			assertThat(binding.observed()).isTrue();
			assertThat(binding.config()).containsEntry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9")
				.containsEntry(ConsumerConfig.CLIENT_RACK_CONFIG, "az-b");
			assertThat(binding.destinations()).containsExactly("orders");
		});
	}

	@Test
	void aBindingsConsumerRegistersItsZoneAwareAssignorInTheApplicationsRegistry() {
		this.contextRunner.run((context) -> {
			BinderClientRackCustomizer customizer = context.getBean(BinderClientRackCustomizer.class);
			ZoneAwareAssignors assignors = context.getBean(ZoneAwareAssignors.class);
			Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.GROUP_ID_CONFIG, "g",
					ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9", ConsumerConfig.CLIENT_ID_CONFIG,
					"process-in-0-client", ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
					ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
			customizer.configure(config, "process-in-0", "orders");
			DefaultKafkaConsumerFactory<Object, Object> factory = new DefaultKafkaConsumerFactory<>(config);
			customizer.configure(factory);
			assertThat(binding(context, "process-in-0").config()).containsEntry(ZoneAwareAssignor.REGISTRY_CONFIG,
					assignors);
			try (Consumer<Object, Object> consumer = factory.createConsumer()) {
				assertThat(consumer.groupMetadata().groupId()).isEqualTo("g");
				assertThat(assignors.chosen("process-in-0-client")).contains(false);
			}
		});
	}

	@Test
	void oneConfigurationReachingTheCustomizerTwiceIsDecidedOnce() {
		this.contextRunner.run((context) -> {
			BinderClientRackCustomizer customizer = context.getBean(BinderClientRackCustomizer.class);
			Map<String, Object> config = new HashMap<>();
			customizer.configure(config, "process-in-0", "orders");
			customizer.configure(config, "process-in-0", "orders");
			assertThat(binding(context, "process-in-0").policy().origin()).isEqualTo(Origin.DEFAULT);
		});
	}

	@Test
	void aBinderContextWhoseParentIsTheApplicationFindsTheCustomizersAfterTheUsersOwn() {
		this.contextRunner.withBean("userCustomizer", ConsumerConfigCustomizer.class,
				() -> (config, binding, destination) -> {
				})
			.run((context) -> {
				try (AnnotationConfigApplicationContext binder = new AnnotationConfigApplicationContext()) {
					binder.setParent(context);
					binder.refresh();
					Object ours = context.getBean(BinderClientRackCustomizer.class);
					List<ConsumerConfigCustomizer> configCustomizers = binder
						.getBeanProvider(ConsumerConfigCustomizer.class)
						.orderedStream()
						.toList();
					assertThat(configCustomizers).hasSize(2).last().isSameAs(ours);
					assertThat(binder.getBeanProvider(ClientFactoryCustomizer.class).orderedStream())
						.containsExactly((ClientFactoryCustomizer) ours);
				}
			});
	}

	@Test
	void theRecipeHandsABinderContextOfItsOwnTheApplicationsCustomizer() {
		this.contextRunner.run((context) -> {
			try (AnnotationConfigApplicationContext binder = isolatedBinderContext(context)) {
				Object ours = context.getBean(BinderClientRackCustomizer.class);
				assertThat(binder.getBeanProvider(ConsumerConfigCustomizer.class).orderedStream())
					.containsExactly((ConsumerConfigCustomizer) ours);
				assertThat(binder.getBeanProvider(ClientFactoryCustomizer.class).orderedStream())
					.containsExactly((ClientFactoryCustomizer) ours);
			}
		});
	}

	@Test
	void theRecipeAddsNothingWhenFollowerFetchIsDisabled() {
		this.contextRunner.withPropertyValues("follower-fetch.enabled=false").run((context) -> {
			try (AnnotationConfigApplicationContext binder = isolatedBinderContext(context)) {
				assertThat(binder.getBeanProvider(ConsumerConfigCustomizer.class).orderedStream()).isEmpty();
				assertThat(binder.getBeanProvider(ClientFactoryCustomizer.class).orderedStream()).isEmpty();
			}
		});
	}

	@Test
	void whenDisabledNoBindingIsTouched() {
		this.contextRunner.withPropertyValues("follower-fetch.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(BinderClientRackCustomizer.class)
				.doesNotHaveBean(BinderBindings.class));
	}

	@Test
	void whenTheKafkaBinderIsAbsentTheAutoConfigurationBacksOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ConsumerConfigCustomizer.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(BinderClientRackCustomizer.class)
				.doesNotHaveBean(BinderBindings.class));
	}

	@Test
	void onceTheBindingsExistTheirPoliciesAreLoggedAndAnUnknownBindingNameIsWarnedAbout(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(BindingsAtStartUp.class)
			.withPropertyValues("test.bindings=process-in-0,audit-in-0",
					"follower-fetch.policy.bindings.audit-in-0=freshness",
					"follower-fetch.policy.bindings.proces-in-0=freshness")
			.run((context) -> {
				assertThat(output).contains(
						"Kafka binding fetch policies: process-in-0=LOCALITY (default), audit-in-0=FRESHNESS (property)")
					.contains("follower-fetch.policy.bindings names [proces-in-0], but there is no Kafka consumer "
							+ "binding with that name. Known Kafka consumer binding names: [audit-in-0, process-in-0]");
			});
	}

	@Test
	void aBindingWhoseConsumerFactoryIsNeverSeenIsWarnedAboutWithTheRecipe(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(BindingsAtStartUp.class)
			.withPropertyValues("test.bindings=process-in-0")
			.run((context) -> {
			assertThat(output).contains("Kafka binding [process-in-0] got client.rack, but follower-fetch cannot "
					+ "observe its consumers: the binder runs in a context of its own. Add "
					+ "spring.cloud.stream.binders.<binder>.environment.spring.main.sources="
					+ "dev.followerfetch.application.BinderClientRackConfiguration");
		});
	}

	@Test
	void aBindingCreatedAfterStartUpIsLoggedOnItsOwn(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			bind(context, "late-in-0", Map.of());
			assertThat(output).contains("Kafka binding fetch policy: late-in-0=LOCALITY (default)");
		});
	}

	/**
	 * Binds consumers as the binder does: while the context starts, configuration only (no
	 * consumer factory follows, as in a binder context of its own without the recipe).
	 */
	@Configuration(proxyBeanMethods = false)
	static class BindingsAtStartUp {

		@Bean
		SmartLifecycle bindings(ObjectProvider<ConsumerConfigCustomizer> customizers,
				@Value("${test.bindings}") String names) {
			return new SmartLifecycle() {

				private volatile boolean running;

				@Override
				public void start() {
					List.of(names.split(",")).forEach((name) -> {
						Map<String, Object> config = new HashMap<>();
						customizers.orderedStream().forEach((customizer) -> customizer.configure(config, name, "orders"));
					});
					this.running = true;
				}

				@Override
				public void stop() {
					this.running = false;
				}

				@Override
				public boolean isRunning() {
					return this.running;
				}

			};
		}

	}

	private static AnnotationConfigApplicationContext isolatedBinderContext(AssertableApplicationContext application) {
		AnnotationConfigApplicationContext binder = new AnnotationConfigApplicationContext();
		binder.getBeanFactory().registerSingleton("outerContext", application);
		binder.register(BinderClientRackConfiguration.class);
		binder.refresh();
		return binder;
	}

	private static Map<String, Object> bind(AssertableApplicationContext context, String bindingName,
			Map<String, Object> bindingConfig) {
		Map<String, Object> config = new HashMap<>(bindingConfig);
		context.getBean(ConsumerConfigCustomizer.class).configure(config, bindingName, "orders");
		return config;
	}

	private static Binding binding(AssertableApplicationContext context, String name) {
		return context.getBean(BinderBindings.class)
			.all()
			.stream()
			.filter((binding) -> binding.name().equals(name))
			.findFirst()
			.orElseThrow();
	}

}
