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

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages tell the story in order, each using only those before it: the public
 * types ({@code dev.followerfetch}), detection of the zone, the zone-aware assignment
 * (Spring-free), the policy of each consumer, its application to Kafka clients, and the
 * observation of all of it.
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

}
