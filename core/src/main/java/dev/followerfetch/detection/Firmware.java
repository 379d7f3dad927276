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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * What the machine's firmware and hypervisor say about the cloud it runs in: Linux DMI
 * ({@code /sys/class/dmi/id}) and {@code /sys/hypervisor/uuid}. A metadata source asks its
 * provider's well-known address only when these do not rule that provider out; when they
 * cannot be read (another operating system, a sandbox that hides them), they rule nothing
 * out.
 *
 * @author follower-fetch authors
 */
final class Firmware {

	static final Firmware SYSTEM = new Firmware(Path.of("/"));

	// cloud-init tools/ds-identify is_azure_chassis(): the asset tag every Azure VM carries
	static final String AZURE_CHASSIS_ASSET_TAG = "7783-7084-3265-9085-8269-3286-77";

	private static final int MAX_LENGTH = 256;

	private final Path dmi;

	private final Path hypervisorUuid;

	/**
	 * Firmware as seen under a root directory.
	 * @param root {@code /} on a real machine, a fake tree in tests
	 */
	Firmware(Path root) {
		this.dmi = root.resolve("sys/class/dmi/id");
		this.hypervisorUuid = root.resolve("sys/hypervisor/uuid");
	}

	/**
	 * Why the firmware says this machine is not in the given cloud.
	 * @param cloud the cloud
	 * @return the reason, such as {@code not an EC2 instance (/sys/class/dmi/id/sys_vendor
	 * is "QEMU")}, or {@code null} when the firmware names that cloud, may belong to it, or
	 * cannot be read
	 */
	@Nullable String rulesOut(Cloud cloud) {
		return switch (cloud) {
			case AWS -> rulesOutAws();
			case AZURE -> rulesOutAzure();
			case GCP -> rulesOutGcp();
		};
	}

	private @Nullable String rulesOutAws() {
		Path vendorFile = this.dmi.resolve("sys_vendor");
		String vendor = read(vendorFile);
		if (vendor == null) {
			return null;
		}
		// systemd src/basic/virt.c dmi vendor table (added by AWS): Nitro instances say "Amazon EC2"
		if (vendor.equals("Amazon EC2")) {
			return null;
		}
		// AWS EC2 user guide, "Detect whether a host is an EC2 instance": board_asset_tag holds the instance id on Nitro
		String assetTag = read(this.dmi.resolve("board_asset_tag"));
		if (assetTag != null && assetTag.matches("i-[0-9a-f]{8,17}")) {
			return null;
		}
		// same guide and cloud-init ds-identify ec2_identify_platform(): Xen instances have /sys/hypervisor/uuid "ec2..."
		String hypervisor = read(this.hypervisorUuid);
		if (hypervisor != null && hypervisor.regionMatches(true, 0, "ec2", 0, 3)) {
			return null;
		}
		if (hypervisor != null) {
			return Cloud.AWS.ruledOutBy(this.hypervisorUuid, hypervisor);
		}
		return (vendor.equals("Xen")) ? null : Cloud.AWS.ruledOutBy(vendorFile, vendor);
	}

	private @Nullable String rulesOutAzure() {
		Path assetTagFile = this.dmi.resolve("chassis_asset_tag");
		String assetTag = read(assetTagFile);
		if (assetTag != null) {
			return (assetTag.equals(AZURE_CHASSIS_ASSET_TAG)) ? null : Cloud.AZURE.ruledOutBy(assetTagFile, assetTag);
		}
		Path vendorFile = this.dmi.resolve("sys_vendor");
		String vendor = read(vendorFile);
		return (vendor == null || vendor.equals("Microsoft Corporation")) ? null
				: Cloud.AZURE.ruledOutBy(vendorFile, vendor);
	}

	private @Nullable String rulesOutGcp() {
		// google-auth-library-java ComputeEngineCredentials.checkProductNameOnLinux(): product_name names Google
		Path productFile = this.dmi.resolve("product_name");
		String product = read(productFile);
		return (product == null || product.contains("Google")) ? null : Cloud.GCP.ruledOutBy(productFile, product);
	}

	/**
	 * Read a firmware attribute. Sysfs reports a size of 4096 for every attribute, so the
	 * length is bounded while reading, not by the file's size.
	 * @param file the attribute
	 * @return its value without surrounding whitespace, or {@code null} when it cannot be
	 * read or is implausibly long
	 */
	static @Nullable String read(Path file) {
		if (!Files.isRegularFile(file)) {
			return null;
		}
		try (InputStream in = Files.newInputStream(file)) {
			byte[] bytes = in.readNBytes(MAX_LENGTH + 1);
			return (bytes.length > MAX_LENGTH) ? null : new String(bytes, StandardCharsets.ISO_8859_1).strip();
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * A cloud whose metadata address the firmware may rule out.
	 */
	enum Cloud {

		AWS("an EC2 instance"), AZURE("an Azure VM"), GCP("a Google Compute Engine VM");

		private final String machine;

		Cloud(String machine) {
			this.machine = machine;
		}

		private String ruledOutBy(Path file, String value) {
			return "not " + this.machine + " (" + file + " is " + RackValues.quote(value) + ")";
		}

	}

}
