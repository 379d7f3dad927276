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

/**
 * The zone-aware assignor of the previous release (0.1.0-SNAPSHOT before the assignor
 * wrapped Kafka's strategies), under other class names and the same protocol name, for
 * tests of groups that mix releases during a rolling upgrade.
 */
@NullMarked
package dev.followerfetch.e2e.previous;

import org.jspecify.annotations.NullMarked;
