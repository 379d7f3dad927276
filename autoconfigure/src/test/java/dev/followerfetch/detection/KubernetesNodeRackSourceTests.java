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

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.followerfetch.detection.MetadataHttpClient.MetadataException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.followerfetch.detection.MetadataHttpClientTests.elapsedSince;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link KubernetesNodeRackSource} against a loopback API server over TLS, with
 * a service account directory of the test's own. No test contacts a real API server.
 *
 * @author follower-fetch authors
 */
class KubernetesNodeRackSourceTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private static final Duration MARGIN = Duration.ofSeconds(2);

	private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.service-account-token.signature";

	private static final String NODE_PATH = "/api/v1/nodes/ip-10-0-2-106.eu-west-1.compute.internal";

	@TempDir
	static Path certificates;

	private static SelfSignedCertificate apiServer;

	private static SelfSignedCertificate stranger;

	private static SelfSignedCertificate otherName;

	@TempDir
	Path serviceAccount;

	private MetadataStubServer stub;

	private final Map<String, String> environment = new HashMap<>();

	@BeforeAll
	static void makeCertificates() throws Exception {
		apiServer = SelfSignedCertificate.create(certificates, "api-server");
		stranger = SelfSignedCertificate.create(certificates, "stranger");
		otherName = SelfSignedCertificate.create(certificates, "other-name", "dns:kubernetes.default.svc");
	}

	@BeforeEach
	void startApiServer() throws Exception {
		this.stub = MetadataStubServer.startTls(apiServer.server());
		Files.writeString(this.serviceAccount.resolve("token"), TOKEN + "\n");
		Files.copy(apiServer.pem(), this.serviceAccount.resolve("ca.crt"));
		this.environment.put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
		this.environment.put("KUBERNETES_SERVICE_PORT", String.valueOf(this.stub.uri().getPort()));
		this.environment.put("NODE_NAME", "ip-10-0-2-106.eu-west-1.compute.internal");
	}

	@AfterEach
	void stopApiServer() {
		this.stub.close();
	}

	@Test
	void theZoneIsTheNodesTopologyLabelReadWithTheServiceAccountOverTls() throws Exception {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(200, node("\"topology.kubernetes.io/zone\":\"eu-west-1b\","
				+ "\"failure-domain.beta.kubernetes.io/zone\":\"eu-west-1c\"")));
		assertThat(source().lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("eu-west-1b", "topology.kubernetes.io/zone"));
		assertThat(this.stub.requests()).singleElement().satisfies((request) -> {
			assertThat(request.method()).isEqualTo("GET");
			assertThat(request.path()).isEqualTo(NODE_PATH);
			assertThat(request.header("Authorization")).isEqualTo("Bearer " + TOKEN);
			assertThat(request.header("Accept")).isEqualTo("application/json");
		});
	}

	@Test
	void theBetaLabelIsReadOnNodesWithoutTheCurrentOne() throws Exception {
		this.stub.route(NODE_PATH,
				MetadataStubServer.answer(200, node("\"failure-domain.beta.kubernetes.io/zone\":\"eu-west-1c\"")));
		assertThat(source().lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("eu-west-1c", "failure-domain.beta.kubernetes.io/zone"));
	}

	@Test
	void aNodeWithoutAZoneLabelFailsNamingTheLabel() {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(200, node("\"kubernetes.io/os\":\"linux\"")));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(nodeUri() + " answered node ip-10-0-2-106.eu-west-1.compute.internal without a "
					+ "topology.kubernetes.io/zone label");
	}

	@Test
	void aForbiddenAnswerNamesTheRbacRuleAndNeverTheToken() {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(403, "{\"kind\":\"Status\",\"reason\":\"Forbidden\"}"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(nodeUri() + " answered HTTP 403: the pod's service account may not get nodes; bind it to a "
					+ "ClusterRole with verbs [get] on resources [nodes] (see kubernetes.md)")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(TOKEN));
	}

	@Test
	void anUnauthorizedAnswerSaysTheTokenIsRefusedWithoutShowingIt() {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(401, ""));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(nodeUri() + " answered HTTP 401: the API server does not accept the service account token")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(TOKEN));
	}

	@Test
	void outsideAPodNothingIsAsked() throws Exception {
		assertThat(source().isRemote()).as("in a pod").isTrue();
		this.environment.remove("KUBERNETES_SERVICE_HOST");
		assertThat(source().isRemote()).as("read in place, no thread").isFalse();
		RackLookup lookup = source().lookup(TIMEOUT);
		assertThat(lookup.candidates()).isEmpty();
		assertThat(lookup.reason()).isEqualTo("not in a Kubernetes pod (KUBERNETES_SERVICE_HOST not set)");
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void aPodWithoutAServiceAccountTokenAsksNothing() throws Exception {
		Files.delete(this.serviceAccount.resolve("token"));
		RackLookup lookup = source().lookup(TIMEOUT);
		assertThat(lookup.reason()).startsWith("no service account token at " + this.serviceAccount.resolve("token"));
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void aPodWithoutTheNodeNameIsToldHowToGetItFromTheDownwardApi() throws Exception {
		this.environment.remove("NODE_NAME");
		RackLookup lookup = source().lookup(TIMEOUT);
		assertThat(lookup.reason()).isEqualTo("NODE_NAME not set: give it the node's name with the downward API "
				+ "(env valueFrom fieldRef fieldPath: spec.nodeName)");
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void aNodeNameThatIsNotOneIsRefusedBeforeAnyRequest() {
		this.environment.put("NODE_NAME", "../../namespaces/kube-system/secrets");
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage("NODE_NAME=\"../../namespaces/kube-system/secrets\" is not a Kubernetes node name");
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void anApiServerWhoseCertificateTheServiceAccountCaDidNotSignGetsNoToken() throws Exception {
		Files.copy(stranger.pem(), this.serviceAccount.resolve("ca.crt"), StandardCopyOption.REPLACE_EXISTING);
		this.stub.route(NODE_PATH, MetadataStubServer.answer(200, node("\"topology.kubernetes.io/zone\":\"eu-west-1b\"")));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessageStartingWith(nodeUri() + " failed: ")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(TOKEN));
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void anApiServerWhoseTrustedCertificateNamesAnotherHostGetsNoToken() throws Exception {
		try (MetadataStubServer misnamed = MetadataStubServer.startTls(otherName.server())) {
			Files.copy(otherName.pem(), this.serviceAccount.resolve("ca.crt"), StandardCopyOption.REPLACE_EXISTING);
			misnamed.route(NODE_PATH, MetadataStubServer.answer(200, node("\"topology.kubernetes.io/zone\":\"eu-west-1b\"")));
			this.environment.put("KUBERNETES_SERVICE_PORT", String.valueOf(misnamed.uri().getPort()));
			assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
				.withMessageContaining("failed: ")
				.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain(TOKEN));
			assertThat(misnamed.requests()).isEmpty();
		}
	}

	@Test
	void onEksTheAzIdLabelIsASecondCandidateForBrokersLabelledByAzId() throws Exception {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(200, node("\"topology.kubernetes.io/zone\":\"us-east-1a\","
				+ "\"topology.k8s.aws/zone-id\":\"use1-az4\"")));
		assertThat(source().lookup(TIMEOUT).candidates()).containsExactly(
				new RackCandidate("us-east-1a", "topology.kubernetes.io/zone"),
				new RackCandidate("use1-az4", "topology.k8s.aws/zone-id"));
	}

	@Test
	void anEmptyZoneLabelGivesWayToTheBetaOne() throws Exception {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(200, node("\"topology.kubernetes.io/zone\":\"\","
				+ "\"failure-domain.beta.kubernetes.io/zone\":\"eu-west-1c\"")));
		assertThat(source().lookup(TIMEOUT).candidates())
			.containsExactly(new RackCandidate("eu-west-1c", "failure-domain.beta.kubernetes.io/zone"));
	}

	@Test
	void aPortThatIsNotOneIsRefusedBeforeAnyRequest() {
		this.environment.put("KUBERNETES_SERVICE_PORT", "443@attacker.example");
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage("KUBERNETES_SERVICE_PORT=\"443@attacker.example\" is not a port");
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void aTokenFileTooLargeToBeATokenIsNotReadNorSent() throws Exception {
		Files.writeString(this.serviceAccount.resolve("token"), "x".repeat(1024 * 1024));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage("the service account token at " + this.serviceAccount.resolve("token")
					+ " is not a file of at most 65536 bytes");
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void aCaFileThatHoldsNoCertificateIsNamed() throws Exception {
		Files.writeString(this.serviceAccount.resolve("ca.crt"), "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n",
				StandardOpenOption.TRUNCATE_EXISTING);
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessageStartingWith("the API server's CA certificate at " + this.serviceAccount.resolve("ca.crt")
					+ " is not usable: ");
		assertThat(this.stub.requests()).isEmpty();
	}

	@Test
	void aRedirectIsNotFollowed() {
		this.stub.route(NODE_PATH, MetadataStubServer.redirect(302, URI.create("https://attacker.example/nodes")));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessage(nodeUri() + " answered HTTP 302 redirect to \"https://attacker.example/nodes\" (not followed)");
		assertThat(this.stub.requests()).hasSize(1);
	}

	@Test
	void aBodyThatIsNotJsonIsNamed() {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(200, "<html>proxy error</html>"));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT))
			.withMessageStartingWith(nodeUri() + " answered a body that is not a JSON object: ");
	}

	@Test
	void anApiServerThatNeverAnswersCostsTheTimeoutAndNoMore() {
		this.stub.route(NODE_PATH, this.stub.hang());
		long start = System.nanoTime();
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT));
		assertThat(elapsedSince(start)).isLessThan(TIMEOUT.plus(MARGIN));
	}

	@Test
	void aTricklingAnswerIsCutAtTheTimeout() {
		this.stub.route(NODE_PATH,
				this.stub.trickle(node("\"topology.kubernetes.io/zone\":\"eu-west-1b\""), Duration.ofMillis(100)));
		long start = System.nanoTime();
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(TIMEOUT));
		assertThat(elapsedSince(start)).isLessThan(TIMEOUT.plus(MARGIN));
	}

	@Test
	void aBodyLargerThanAnyNodeIsCut() {
		this.stub.route(NODE_PATH, this.stub.huge(64L * 1024 * 1024));
		assertThatExceptionOfType(MetadataException.class).isThrownBy(() -> source().lookup(Duration.ofSeconds(10)))
			.withMessageContaining(nodeUri().toString());
	}

	@Test
	void anApiServerOnAnIpv6AddressIsAsked() throws Exception {
		try (MetadataStubServer ipv6 = MetadataStubServer.startTls(apiServer.server(), InetAddress.getByName("::1"))) {
			ipv6.route(NODE_PATH, MetadataStubServer.answer(200, node("\"topology.kubernetes.io/zone\":\"eu-west-1b\"")));
			this.environment.put("KUBERNETES_SERVICE_HOST", "::1");
			this.environment.put("KUBERNETES_SERVICE_PORT", String.valueOf(ipv6.uri().getPort()));
			assertThat(source().lookup(TIMEOUT).candidates())
				.containsExactly(new RackCandidate("eu-west-1b", "topology.kubernetes.io/zone"));
			assertThat(ipv6.requests()).hasSize(1);
		}
	}

	@Test
	void anApplicationInAPodStartsWithItsNodesZoneInTheDefaultOrder() {
		this.stub.route(NODE_PATH, MetadataStubServer.answer(200, node("\"topology.kubernetes.io/zone\":\"eu-west-1b\"")));
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RackDetectionAutoConfiguration.class))
			.withPropertyValues("KUBERNETES_SERVICE_HOST=127.0.0.1",
					"KUBERNETES_SERVICE_PORT=" + this.stub.uri().getPort(), "MY_NODE=" + NODE_PATH.substring(14),
					"follower-fetch.detection.kubernetes.node-name-variable=MY_NODE",
					"follower-fetch.detection.kubernetes.service-account=" + this.serviceAccount,
					"follower-fetch.detection.aws.enabled=false", "follower-fetch.detection.gcp.enabled=false",
					"follower-fetch.detection.azure.enabled=false")
			.run((context) -> {
				DetectedRack detected = context.getBean(DetectedRack.class);
				assertThat(detected.rack()).hasValue("eu-west-1b");
				assertThat(detected.source()).hasValue("kubernetes:topology.kubernetes.io/zone");
			});
		assertThat(this.stub.requests()).singleElement()
			.satisfies((request) -> assertThat(request.header("Authorization")).isEqualTo("Bearer " + TOKEN));
	}

	@Test
	void aDisabledSourceAsksNothing() throws Exception {
		RackLookup lookup = new KubernetesNodeRackSource(false, "NODE_NAME", this.serviceAccount, this.environment::get)
			.lookup(TIMEOUT);
		assertThat(lookup.reason()).isEqualTo("disabled by follower-fetch.detection.kubernetes.enabled=false");
		assertThat(this.stub.requests()).isEmpty();
	}

	private KubernetesNodeRackSource source() {
		return new KubernetesNodeRackSource(true, "NODE_NAME", this.serviceAccount, this.environment::get);
	}

	private URI nodeUri() {
		return URI.create("https://127.0.0.1:" + this.stub.uri().getPort() + NODE_PATH);
	}

	/**
	 * A node object as the API server answers it, with the given labels and a list of
	 * images after them.
	 */
	private static String node(String labels) {
		return "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"ip-10-0-2-106.eu-west-1.compute.internal\","
				+ "\"labels\":{\"kubernetes.io/hostname\":\"ip-10-0-2-106\"," + labels + "}},"
				+ "\"spec\":{\"providerID\":\"aws:///eu-west-1b/i-0abc\"},\"status\":{\"images\":[{\"names\":"
				+ "[\"registry.k8s.io/pause:3.9\"],\"sizeBytes\":321520}]}}";
	}

}
