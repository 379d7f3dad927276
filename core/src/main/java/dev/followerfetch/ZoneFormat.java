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

/**
 * Which form of an AWS availability zone to use as the rack.
 *
 * @author follower-fetch authors
 */
public enum ZoneFormat {

	/**
	 * Whichever of the AZ id and the AZ name the brokers' racks use; the AZ id when that
	 * cannot be told.
	 */
	AUTO,

	/**
	 * The AZ id, for example {@code use1-az2}: the same physical zone in every account, as
	 * Amazon MSK labels its brokers.
	 */
	ID,

	/**
	 * The AZ name, for example {@code us-east-1b}: mapped to a physical zone per account.
	 */
	NAME

}
