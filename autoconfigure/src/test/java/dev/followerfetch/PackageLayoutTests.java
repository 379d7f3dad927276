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
package dev.followerfetch;

import java.util.Optional;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.followerfetch.policy.ClientRackDecider;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages tell the story in order, each using only those before it: the public
 * types ({@code dev.followerfetch}), detection of the zone, the zone-aware assignment
 * (Spring-free), the policy of each consumer, its application to Kafka clients, and the
 * observation of all of it. The adapter uses only what the core makes public (the shared
 * package names would let it use more), so that narrowing a visibility in the core fails
 * here instead of going unnoticed.
 *
 * @author follower-fetch authors
 */
class PackageLayoutTests {

	private static final JavaClasses CLASSES = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption((location) -> !location.contains("/dev/followerfetch/test/"))
		.withImportOption((location) -> !location.contains("-tests.jar"))
		.importPackages("dev.followerfetch");

	@Test
	void thePackagesDependOnEachOtherWithoutCycles() {
		slices().matching("dev.followerfetch.(*)..").should().beFreeOfCycles().check(CLASSES);
	}

	@Test
	void eachPackageUsesOnlyThePackagesBeforeItInTheStory() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("Public types")
			.definedBy("dev.followerfetch")
			.layer("Detection")
			.definedBy("dev.followerfetch.detection..")
			.layer("Assignment")
			.definedBy("dev.followerfetch.assignment..")
			.layer("Policy")
			.definedBy("dev.followerfetch.policy..")
			.layer("Application")
			.definedBy("dev.followerfetch.application..")
			.layer("Observation")
			.definedBy("dev.followerfetch.observation..")
			.whereLayer("Observation")
			.mayNotBeAccessedByAnyLayer()
			.whereLayer("Application")
			.mayOnlyBeAccessedByLayers("Observation")
			.whereLayer("Policy")
			.mayOnlyBeAccessedByLayers("Application", "Observation")
			.whereLayer("Assignment")
			.mayOnlyBeAccessedByLayers("Policy", "Application", "Observation")
			.whereLayer("Detection")
			.mayOnlyBeAccessedByLayers("Policy", "Application", "Observation")
			.check(CLASSES);
	}

	@Test
	void everyPackageIsNullMarkedSoThatNullAwayChecksIt() {
		assertThat(CLASSES.stream().map(JavaClass::getPackage).distinct())
			.allSatisfy((javaPackage) -> assertThat(javaPackage.isAnnotatedWith(NullMarked.class))
				.as(javaPackage.getName())
				.isTrue())
			.isNotEmpty();
	}

	@Test
	void theAssignmentNeedsNeitherSpringNorTheRestOfTheStarter() {
		noClasses()
			.that()
			.resideInAPackage("dev.followerfetch.assignment..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework..", "dev.followerfetch.detection..",
					"dev.followerfetch.policy..", "dev.followerfetch.application..", "dev.followerfetch.observation..")
			.check(CLASSES);
	}

	@Test
	void theAdapterUsesOnlyWhatTheCoreMakesPublic() {
		DescribedPredicate<JavaClass> inTheCore = DescribedPredicate.describe("follower-fetch-core",
				(javaClass) -> from(javaClass, ClientRackDecider.class));
		assertThat(CLASSES.stream().filter(inTheCore)).isNotEmpty();
		classes()
			.that(DescribedPredicate.describe("are not in follower-fetch-core",
					(javaClass) -> !inTheCore.test(javaClass)))
			.should(usePublicMembersOnly(inTheCore))
			.check(CLASSES);
	}

	private static ArchCondition<JavaClass> usePublicMembersOnly(DescribedPredicate<JavaClass> inTheCore) {
		return new ArchCondition<>("use only public classes and members of " + inTheCore.getDescription()) {

			@Override
			public void check(JavaClass javaClass, ConditionEvents events) {
				javaClass.getDirectDependenciesFromSelf().forEach((dependency) -> {
					JavaClass target = dependency.getTargetClass().getBaseComponentType();
					if (inTheCore.test(target) && !accessible(target)) {
						events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()
								+ ", and " + target.getName() + " is not public in the core"));
					}
				});
				for (JavaAccess<?> access : javaClass.getAccessesFromSelf()) {
					Optional<? extends JavaMember> member = access.getTarget().resolveMember();
					if (inTheCore.test(access.getTargetOwner()) && member.isPresent()
							&& !member.get().getModifiers().contains(JavaModifier.PUBLIC)) {
						events.add(SimpleConditionEvent.violated(access,
								access.getDescription() + ", a member the core does not make public"));
					}
				}
			}

		};
	}

	private static boolean accessible(JavaClass javaClass) {
		return javaClass.getModifiers().contains(JavaModifier.PUBLIC)
				&& javaClass.getEnclosingClass().map(PackageLayoutTests::accessible).orElse(true);
	}

	private static boolean from(JavaClass javaClass, Class<?> sameJarAs) {
		String location = sameJarAs.getProtectionDomain().getCodeSource().getLocation().getPath();
		return javaClass.getSource().map((source) -> source.getUri().toString().contains(location)).orElse(false);
	}

}
