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

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Which share groups a refresh describes to find the share consumers of the process. JMX
 * does not say which share group a share consumer is in, so a consumer not seen yet is
 * looked for in every share group of the cluster; once seen, only its group is
 * described. A consumer found in none (it may not have joined its group yet) is looked
 * for again at the next refresh, then after {@link #FIRST_RETRY}, twice as long each
 * time, up to {@link #RETRY}, so a cluster with many share groups is not described in
 * full at every refresh.
 *
 * @author follower-fetch authors
 */
final class ShareGroupSearch {

	static final Duration FIRST_RETRY = Duration.ofSeconds(10);

	static final Duration RETRY = Duration.ofMinutes(5);

	private final Map<String, String> groupOf = new HashMap<>();

	private final Map<String, Search> searched = new HashMap<>();

	/**
	 * What to read for some share consumers.
	 * @param clientIds the share consumers' client ids
	 * @param nanoTime the current {@link System#nanoTime()}
	 * @return the plan
	 */
	synchronized Plan plan(Set<String> clientIds, long nanoTime) {
		this.groupOf.keySet().retainAll(clientIds);
		this.searched.keySet().retainAll(clientIds);
		Set<String> groups = new TreeSet<>();
		boolean everyGroup = false;
		for (String clientId : clientIds) {
			String group = this.groupOf.get(clientId);
			if (group != null) {
				groups.add(group);
			}
			else {
				Search last = this.searched.get(clientId);
				everyGroup |= last == null || nanoTime - last.at() >= last.delay();
			}
		}
		return new Plan(groups, everyGroup);
	}

	/**
	 * Remember where the share consumers were found.
	 * @param clientIds the share consumers' client ids
	 * @param found the share group each was found in, by client id
	 * @param everyGroup whether every share group of the cluster was described
	 * @param nanoTime the current {@link System#nanoTime()}
	 */
	synchronized void found(Set<String> clientIds, Map<String, String> found, boolean everyGroup, long nanoTime) {
		for (String clientId : clientIds) {
			String group = found.get(clientId);
			if (group != null) {
				this.groupOf.put(clientId, group);
				this.searched.remove(clientId);
			}
			else {
				this.groupOf.remove(clientId);
				if (everyGroup) {
					Search last = this.searched.get(clientId);
					this.searched.put(clientId, new Search(nanoTime, (last != null) ? last.misses() + 1 : 1));
				}
			}
		}
	}

	/**
	 * This process's member among a share group's members with one client id: the only
	 * one, else the only one connected from an address of this machine. Instances of an
	 * application name their share consumers alike ({@code <listener id>-0}), so a group
	 * of several instances has several members with each client id.
	 * @param <M> the type of a member
	 * @param members the group's members with the client id
	 * @param host a member's address as the broker sees it (for example {@code /10.0.0.5})
	 * @param localAddresses the addresses of this machine
	 * @return the member, or empty when that does not tell (several instances on one
	 * machine, or an address translated on the way)
	 */
	static <M> Optional<M> own(List<M> members, Function<M, String> host, Set<String> localAddresses) {
		if (members.size() == 1) {
			return Optional.of(members.get(0));
		}
		List<M> local = members.stream()
			.filter((member) -> localAddresses.contains(address(host.apply(member))))
			.toList();
		return (local.size() == 1) ? Optional.of(local.get(0)) : Optional.empty();
	}

	private static String address(String host) {
		String address = host.startsWith("/") ? host.substring(1) : host;
		int scope = address.indexOf('%');
		return (scope >= 0) ? address.substring(0, scope) : address;
	}

	/**
	 * The addresses of this machine's network interfaces, as
	 * {@link InetAddress#getHostAddress()} writes them, without IPv6 scope.
	 * @return the addresses, empty when the interfaces cannot be read
	 */
	static Set<String> localAddresses() {
		Set<String> addresses = new HashSet<>();
		try {
			Enumeration<NetworkInterface> interfaces = NetworkInterface.getNetworkInterfaces();
			while (interfaces != null && interfaces.hasMoreElements()) {
				Collections.list(interfaces.nextElement().getInetAddresses())
					.forEach((address) -> addresses.add(address(address.getHostAddress())));
			}
		}
		catch (SocketException ex) {
			// no address: a group with several members per client id stays unknown
		}
		return addresses;
	}

	/**
	 * The last search in every share group that did not find a consumer.
	 *
	 * @param at its {@link System#nanoTime()}
	 * @param misses how many searches in a row found it nowhere
	 */
	private record Search(long at, int misses) {

		long delay() {
			// 10 s << 5 is past the 5 minutes already; a larger shift would overflow
			return (misses() == 1) ? 0 : Math.min(FIRST_RETRY.toNanos() << Math.min(misses() - 2, 5), RETRY.toNanos());
		}

	}

	/**
	 * The share groups to describe.
	 * @param groups the groups where the consumers were last found
	 * @param everyGroup whether to list and describe every share group of the cluster,
	 * for consumers not found yet
	 */
	record Plan(Set<String> groups, boolean everyGroup) {

		Plan {
			groups = Set.copyOf(groups);
		}

	}

}
