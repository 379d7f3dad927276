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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Fake firmware trees, as Linux shows them under {@code /sys}, of the machines the
 * metadata sources must tell apart. Values are those the providers document or their
 * agents match; the rest are typical.
 *
 * @author follower-fetch authors
 */
enum FirmwareTree {

	EC2_NITRO(Map.of("sys/class/dmi/id/sys_vendor", "Amazon EC2", "sys/class/dmi/id/product_name", "m5.large",
			"sys/class/dmi/id/board_asset_tag", "i-0af01c0123456789a", "sys/class/dmi/id/chassis_asset_tag",
			"Amazon EC2")),

	EC2_XEN(Map.of("sys/class/dmi/id/sys_vendor", "Xen", "sys/class/dmi/id/product_name", "HVM domU",
			"sys/class/dmi/id/bios_version", "4.11.amazon", "sys/class/dmi/id/chassis_asset_tag", "",
			"sys/hypervisor/uuid", "ec2e1916-9099-7caf-fd21-012345abcdef")),

	AZURE(Map.of("sys/class/dmi/id/sys_vendor", "Microsoft Corporation", "sys/class/dmi/id/product_name",
			"Virtual Machine", "sys/class/dmi/id/chassis_asset_tag", Firmware.AZURE_CHASSIS_ASSET_TAG)),

	GCP(Map.of("sys/class/dmi/id/sys_vendor", "Google", "sys/class/dmi/id/product_name", "Google Compute Engine",
			"sys/class/dmi/id/chassis_asset_tag", "")),

	KVM(Map.of("sys/class/dmi/id/sys_vendor", "QEMU", "sys/class/dmi/id/product_name",
			"Standard PC (Q35 + ICH9, 2009)", "sys/class/dmi/id/chassis_asset_tag", "")),

	HYPER_V_OUTSIDE_AZURE(Map.of("sys/class/dmi/id/sys_vendor", "Microsoft Corporation",
			"sys/class/dmi/id/product_name", "Virtual Machine", "sys/class/dmi/id/chassis_asset_tag",
			"1234-5678-9012-3456-7890-1234-56")),

	XEN_OUTSIDE_EC2(Map.of("sys/class/dmi/id/sys_vendor", "Xen", "sys/class/dmi/id/product_name", "HVM domU",
			"sys/class/dmi/id/chassis_asset_tag", "", "sys/hypervisor/uuid", "4e9ad1a2-3c55-4b1e-9d7c-0c7f1c1e2a3b")),

	NO_FIRMWARE(Map.of());

	private final Map<String, String> files;

	FirmwareTree(Map<String, String> files) {
		this.files = files;
	}

	/**
	 * Write this tree under a directory.
	 * @param root the directory that plays {@code /}
	 * @return the firmware as seen from that root
	 */
	Firmware writeTo(Path root) {
		try {
			for (Map.Entry<String, String> file : this.files.entrySet()) {
				Path path = root.resolve(file.getKey());
				Files.createDirectories(path.getParent());
				Files.writeString(path, file.getValue() + "\n");
			}
			return new Firmware(root);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
