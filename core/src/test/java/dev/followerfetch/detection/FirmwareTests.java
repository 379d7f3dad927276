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
package dev.followerfetch.detection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import dev.followerfetch.ZoneFormat;
import dev.followerfetch.detection.Firmware.Cloud;
import dev.followerfetch.detection.MetadataStubServer.ImdsMode;
import dev.followerfetch.detection.MetadataStubServer.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Firmware}: for each fake firmware tree, which metadata sources ask the
 * network. The well-known addresses are played by a loopback stub that records every
 * request.
 *
 * @author follower-fetch authors
 */
class FirmwareTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private static final Function<String, String> NO_ENVIRONMENT = (name) -> null;

	@RegisterExtension
	final MetadataStubExtension metadata = new MetadataStubExtension();

	@TempDir
	Path root;

	@ParameterizedTest
	@EnumSource(FirmwareTree.class)
	void eachMachineAsksOnlyTheMetadataAddressOfTheCloudItsFirmwareDoesNotRuleOut(FirmwareTree tree)
			throws Exception {
		Firmware firmware = tree.writeTo(this.root);
		MetadataStubServer stub = this.metadata.stub()
			.imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2")
			.gcp("projects/123456/zones/us-central1-b")
			.azure("2", "eastus");
		MetadataHttpClient client = new MetadataHttpClient();
		new Ec2MetadataRackSource(client, true, null, ZoneFormat.AUTO, NO_ENVIRONMENT, firmware, stub.uri(),
				stub.uri())
			.lookup(TIMEOUT);
		new GcpMetadataRackSource(client, true, null, NO_ENVIRONMENT, firmware, stub.uri()).lookup(TIMEOUT);
		new AzureMetadataRackSource(client, true, null, firmware, stub.uri()).lookup(TIMEOUT);
		assertThat(cloudsAsked(stub)).isEqualTo(switch (tree) {
			case EC2_NITRO, EC2_XEN -> Set.of("aws");
			case AZURE -> Set.of("azure");
			case GCP -> Set.of("gcp");
			case KVM, HYPER_V_OUTSIDE_AZURE, XEN_OUTSIDE_EC2 -> Set.of();
			case NO_FIRMWARE -> Set.of("aws", "azure", "gcp");
		});
	}

	@Test
	void sourceThatDoesNotAskSaysWhatTheFirmwareSaysAndWhichAddressItSkipped() throws Exception {
		Firmware firmware = FirmwareTree.KVM.writeTo(this.root);
		RackLookup lookup = new Ec2MetadataRackSource(new MetadataHttpClient(), true, null, ZoneFormat.AUTO,
				NO_ENVIRONMENT, firmware, this.metadata.stub().uri(), this.metadata.stub().uri())
			.lookup(TIMEOUT);
		assertThat(lookup.isFound()).isFalse();
		assertThat(lookup.reason()).isEqualTo("not an EC2 instance (" + this.root.resolve("sys/class/dmi/id/sys_vendor")
				+ " is \"QEMU\"), so " + this.metadata.stub().uri() + " was not asked");
		assertThat(this.metadata.stub().requests()).isEmpty();
	}

	@Test
	void hyperVOutsideAzureIsToldApartByTheChassisAssetTagAlone() {
		Firmware firmware = FirmwareTree.HYPER_V_OUTSIDE_AZURE.writeTo(this.root);
		assertThat(firmware.rulesOut(Cloud.AZURE)).isEqualTo("not an Azure VM ("
				+ this.root.resolve("sys/class/dmi/id/chassis_asset_tag") + " is \"1234-5678-9012-3456-7890-1234-56\")");
	}

	@Test
	void xenWithoutAHypervisorUuidMayBeAnOlderEc2InstanceSoItIsAsked() throws Exception {
		Files.createDirectories(this.root.resolve("sys/class/dmi/id"));
		Files.writeString(this.root.resolve("sys/class/dmi/id/sys_vendor"), "Xen\n");
		assertThat(new Firmware(this.root).rulesOut(Cloud.AWS)).isNull();
	}

	@Test
	void microsoftHardwareWithoutAChassisAssetTagMayBeAzureSoItIsAsked() throws Exception {
		Files.createDirectories(this.root.resolve("sys/class/dmi/id"));
		Files.writeString(this.root.resolve("sys/class/dmi/id/sys_vendor"), "Microsoft Corporation\n");
		Firmware firmware = new Firmware(this.root);
		assertThat(firmware.rulesOut(Cloud.AZURE)).isNull();
		assertThat(firmware.rulesOut(Cloud.AWS)).isNotNull();
	}

	@Test
	void attributeIsReadWhateverSizeTheFileSystemReportsButAnImplausiblyLongOneIsIgnored() throws Exception {
		Path name = Files.writeString(this.root.resolve("product_name"), "Google Compute Engine\n");
		Path huge = Files.writeString(this.root.resolve("huge"), "x".repeat(300));
		assertThat(Firmware.read(name)).isEqualTo("Google Compute Engine");
		assertThat(Firmware.read(huge)).isNull();
		assertThat(Firmware.read(this.root.resolve("absent"))).isNull();
		assertThat(Firmware.read(this.root)).isNull();
	}

	@Test
	void endpointsChosenByTheUserOrTheSdkVariablesAreAskedWhateverTheFirmwareSays() throws Exception {
		Firmware firmware = FirmwareTree.KVM.writeTo(this.root);
		MetadataStubServer stub = this.metadata.stub()
			.imds(ImdsMode.V2_REQUIRED, "us-east-1b", "use1-az2")
			.gcp("projects/123456/zones/us-central1-b")
			.azure("2", "eastus");
		MetadataHttpClient client = new MetadataHttpClient();
		Function<String, String> sdkVariables = Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", stub.uri().toString(),
				"GCE_METADATA_HOST", stub.hostAndPort())::get;
		assertThat(new Ec2MetadataRackSource(client, true, null, ZoneFormat.AUTO, sdkVariables, firmware,
				RawLoopbackServer.refusingUri(), RawLoopbackServer.refusingUri())
			.lookup(TIMEOUT)
			.isFound()).isTrue();
		assertThat(new GcpMetadataRackSource(client, true, null, sdkVariables, firmware,
				RawLoopbackServer.refusingUri())
			.lookup(TIMEOUT)
			.isFound()).isTrue();
		assertThat(new AzureMetadataRackSource(client, true, stub.uri(), firmware, RawLoopbackServer.refusingUri())
			.lookup(TIMEOUT)
			.isFound()).isTrue();
		assertThat(new Ec2MetadataRackSource(client, true, stub.uri(), ZoneFormat.ID, NO_ENVIRONMENT, firmware,
				RawLoopbackServer.refusingUri(), RawLoopbackServer.refusingUri())
			.lookup(TIMEOUT)
			.isFound()).isTrue();
		assertThat(cloudsAsked(stub)).containsExactly("aws", "azure", "gcp");
	}

	private static Set<String> cloudsAsked(MetadataStubServer stub) {
		Set<String> clouds = new TreeSet<>();
		for (RecordedRequest request : stub.requests()) {
			String path = request.path();
			clouds.add(path.startsWith("/latest/") ? "aws" : path.startsWith("/computeMetadata/") ? "gcp"
					: path.startsWith("/metadata/") ? "azure" : path);
		}
		return clouds;
	}

}
