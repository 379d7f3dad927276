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
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A self-signed certificate for {@code 127.0.0.1} and {@code ::1}, made with the JDK's {@code keytool} in
 * a directory of the test's: the server side as an {@link SSLContext}, the certificate
 * as a PEM file a client can trust, as a pod trusts its service account's
 * {@code ca.crt}.
 *
 * @param pem the certificate in PEM
 * @param server the server's TLS context
 * @author follower-fetch authors
 */
record SelfSignedCertificate(Path pem, SSLContext server) {

	private static final char[] PASSWORD = "changeit".toCharArray();

	/**
	 * Make a certificate for {@code 127.0.0.1}.
	 * @param directory where to write the key store and the PEM file
	 * @param alias a name for this certificate, distinct within the directory
	 * @return the certificate
	 * @throws Exception if keytool fails
	 */
	static SelfSignedCertificate create(Path directory, String alias) throws Exception {
		return create(directory, alias, "ip:127.0.0.1,ip:::1,dns:localhost");
	}

	/**
	 * Make a certificate for the given names.
	 * @param directory where to write the key store and the PEM file
	 * @param alias a name for this certificate, distinct within the directory
	 * @param names the subject alternative names, as keytool takes them
	 * @return the certificate
	 * @throws Exception if keytool fails
	 */
	static SelfSignedCertificate create(Path directory, String alias, String names) throws Exception {
		Path store = directory.resolve(alias + ".p12");
		Path pem = directory.resolve(alias + ".crt");
		keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
				"-dname", "CN=kubernetes", "-ext", "SAN=" + names, "-storetype", "PKCS12",
				"-keystore", store.toString(), "-storepass", new String(PASSWORD));
		keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", store.toString(), "-storepass",
				new String(PASSWORD), "-file", pem.toString());
		return new SelfSignedCertificate(pem, serverContext(store));
	}

	private static SSLContext serverContext(Path store) throws IOException, GeneralSecurityException {
		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(store)) {
			keys.load(in, PASSWORD);
		}
		KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		keyManagers.init(keys, PASSWORD);
		SSLContext context = SSLContext.getInstance("TLS");
		context.init(keyManagers.getKeyManagers(), null, null);
		return context;
	}

	private static void keytool(String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
		command.addAll(List.of(arguments));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
			throw new IllegalStateException("keytool " + arguments[0] + " failed: " + output);
		}
	}

}
