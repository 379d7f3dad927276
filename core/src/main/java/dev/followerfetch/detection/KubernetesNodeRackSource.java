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

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import dev.followerfetch.detection.MetadataHttpClient.Response;
import org.jspecify.annotations.Nullable;


/**
 * Reads the zone label of the node this pod runs on from the Kubernetes API server
 * ({@code GET /api/v1/nodes/<name>}), which the downward API cannot give a pod. Inside a
 * pod only: the API server's address from {@code KUBERNETES_SERVICE_HOST} and
 * {@code KUBERNETES_SERVICE_PORT}, the node's name from a variable the downward API fills
 * with {@code spec.nodeName}, the service account's token and CA certificate from its
 * mounted directory. Outside Kubernetes it asks nothing and costs a variable lookup. The
 * token is sent to the API server only, and never written to a log or a reason.
 *
 * @author follower-fetch authors
 */
public final class KubernetesNodeRackSource extends MetadataRackSource {

	/**
	 * The node labels that carry the zone, the current one first.
	 */
	static final List<String> ZONE_LABELS = List.of("topology.kubernetes.io/zone",
			"failure-domain.beta.kubernetes.io/zone");

	/**
	 * The label EKS gives its nodes with the AZ id, the form Amazon MSK labels brokers with.
	 */
	static final String AWS_ZONE_ID_LABEL = "topology.k8s.aws/zone-id";

	static final String HOST_VARIABLE = "KUBERNETES_SERVICE_HOST";

	static final String PORT_VARIABLE = "KUBERNETES_SERVICE_PORT";

	/**
	 * A node object lists the images on the node, hundreds of kilobytes on a busy one.
	 */
	private static final int MAX_NODE_BYTES = 4 * 1024 * 1024;

	/**
	 * A service account token or CA bundle is a few kilobytes; more is not one.
	 */
	private static final int MAX_FILE_BYTES = 64 * 1024;

	private static final Pattern NODE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");

	private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

	private final String nodeNameVariable;

	private final Path serviceAccount;

	private final Function<String, @Nullable String> environment;

	KubernetesNodeRackSource(boolean enabled, String nodeNameVariable, Path serviceAccount,
			Function<String, @Nullable String> environment) {
		super("kubernetes", MetadataHttpClient.INSTANCE, enabled);
		this.nodeNameVariable = nodeNameVariable;
		this.serviceAccount = serviceAccount;
		this.environment = environment;
	}

	/**
	 * Outside a pod the source answers from a variable lookup, in place, with no thread.
	 */
	@Override
	public boolean isRemote() {
		return MetadataEndpoints.variable(this.environment, HOST_VARIABLE) != null;
	}

	@Override
	RackLookup query(Duration timeout) throws MetadataException {
		long deadline = System.nanoTime() + timeout.toNanos();
		String host = MetadataEndpoints.variable(this.environment, HOST_VARIABLE);
		if (host == null) {
			return RackLookup.notFound("not in a Kubernetes pod (" + HOST_VARIABLE + " not set)");
		}
		Path tokenFile = this.serviceAccount.resolve("token");
		if (!Files.isReadable(tokenFile)) {
			return RackLookup.notFound("no service account token at " + tokenFile
					+ " (automountServiceAccountToken: false, or " + setting("detection.kubernetes.service-account")
					+ ")");
		}
		String nodeName = MetadataEndpoints.variable(this.environment, this.nodeNameVariable);
		if (nodeName == null) {
			return RackLookup.notFound(this.nodeNameVariable + " not set: give it the node's name with the downward "
					+ "API (env valueFrom fieldRef fieldPath: spec.nodeName)");
		}
		if (!NODE_NAME.matcher(nodeName).matches()) {
			throw new MetadataException(this.nodeNameVariable + "=" + RackValues.quote(nodeName)
					+ " is not a Kubernetes node name");
		}
		URI uri = nodeUri(host, nodeName);
		String token = new String(read(tokenFile, "service account token"), StandardCharsets.UTF_8).strip();
		MetadataHttpClient client = new MetadataHttpClient(MAX_NODE_BYTES, trusting(this.serviceAccount.resolve("ca.crt")));
		Response response = client.send("GET", uri,
				Map.of("Authorization", "Bearer " + token, "Accept", "application/json"), remaining(deadline));
		if (response.status() == 401) {
			throw new MetadataException(uri + " answered HTTP 401: the API server does not accept the service "
					+ "account token");
		}
		if (response.status() == 403) {
			throw new MetadataException(uri + " answered HTTP 403: the pod's service account may not get nodes; "
					+ "bind it to a ClusterRole with verbs [get] on resources [nodes] (see kubernetes.md)");
		}
		if (!response.isOk()) {
			throw new MetadataException(response.describeStatus(uri));
		}
		List<RackCandidate> candidates = new ArrayList<>();
		for (String label : ZONE_LABELS) {
			String zone = label(response.body(), label, uri);
			if (zone != null && !zone.isBlank()) {
				candidates.add(new RackCandidate(zone, label));
				break;
			}
		}
		if (candidates.isEmpty()) {
			throw new MetadataException(uri + " answered node " + nodeName + " without a " + ZONE_LABELS.get(0)
					+ " label");
		}
		String zoneId = label(response.body(), AWS_ZONE_ID_LABEL, uri);
		if (zoneId != null && !zoneId.isBlank()) {
			candidates.add(new RackCandidate(zoneId, AWS_ZONE_ID_LABEL));
		}
		return RackLookup.found(candidates);
	}

	private static @Nullable String label(String node, String label, URI uri) throws MetadataException {
		try {
			return JsonFields.string(node, "metadata", "labels", label);
		}
		catch (IllegalArgumentException ex) {
			throw new MetadataException(uri + " answered a body that is not a JSON object: " + ex.getMessage());
		}
	}

	private URI nodeUri(String host, String nodeName) throws MetadataException {
		String port = MetadataEndpoints.variable(this.environment, PORT_VARIABLE);
		if (port != null && !PORT.matcher(port).matches()) {
			throw new MetadataException(PORT_VARIABLE + "=" + RackValues.quote(port) + " is not a port");
		}
		String authority = (host.contains(":") ? "[" + host + "]" : host)
				+ ((port != null) ? ":" + port : "");
		URI base = MetadataEndpoints.parse("https://" + authority, HOST_VARIABLE + " and " + PORT_VARIABLE);
		return base.resolve("/api/v1/nodes/" + nodeName);
	}

	/**
	 * A small regular file, whole: never a pipe that blocks nor a file too large to be one.
	 */
	private static byte[] read(Path file, String what) throws MetadataException {
		try {
			if (!Files.isRegularFile(file) || Files.size(file) > MAX_FILE_BYTES) {
				throw new MetadataException("the " + what + " at " + file + " is not a file of at most " + MAX_FILE_BYTES
						+ " bytes");
			}
			return Files.readAllBytes(file);
		}
		catch (IOException ex) {
			throw new MetadataException("could not read the " + what + " at " + file + ": " + ex);
		}
	}

	/**
	 * TLS sockets that trust the certificates in a PEM file, the service account's CA.
	 */
	static SSLSocketFactory trusting(Path caFile) throws MetadataException {
		byte[] pem = read(caFile, "API server's CA certificate");
		try (InputStream in = new ByteArrayInputStream(pem)) {
			Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
				.generateCertificates(in);
			if (certificates.isEmpty()) {
				throw new MetadataException("no certificate in " + caFile);
			}
			KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
			trusted.load(null, null);
			int index = 0;
			for (Certificate certificate : certificates) {
				trusted.setCertificateEntry("ca-" + index++, certificate);
			}
			TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
			trust.init(trusted);
			SSLContext context = SSLContext.getInstance("TLS");
			context.init(null, trust.getTrustManagers(), null);
			return context.getSocketFactory();
		}
		catch (IOException ex) {
			throw new MetadataException("could not read the API server's CA certificate at " + caFile + ": " + ex);
		}
		catch (GeneralSecurityException | RuntimeException ex) {
			throw new MetadataException("the API server's CA certificate at " + caFile + " is not usable: " + ex);
		}
	}

}
