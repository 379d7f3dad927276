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
package dev.followerfetch.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the sample's producer, report, run time and instances.
 *
 * @author follower-fetch authors
 */
@ConfigurationProperties("demo")
public class DemoProperties {

	/**
	 * Topic the producer writes to and the listeners read from. Created when missing.
	 */
	private String topic;

	/**
	 * Number of partitions of the topic, when the sample creates it.
	 */
	private int partitions = 6;

	/**
	 * Replication factor of the topic, when the sample creates it. Three puts a replica
	 * in every zone of a three-zone cluster.
	 */
	private short replicationFactor = 3;

	/**
	 * Time between two records sent. The longer it is, the longer a follower takes to
	 * serve a new record, up to the brokers' replica.fetch.wait.max.ms.
	 */
	private Duration sendInterval = Duration.ofMillis(200);

	/**
	 * Size of the value of every record sent.
	 */
	private DataSize recordSize = DataSize.ofKilobytes(1);

	/**
	 * Time between two read-locality tables printed.
	 */
	private Duration reportInterval = Duration.ofSeconds(5);

	/**
	 * How long the sample runs before it stops by itself. Without it, the sample runs
	 * until it is stopped.
	 */
	private Duration duration;

	/**
	 * Number of instances of the application to run in this JVM, each its own application
	 * context in a zone of its own: az-b, az-c, az-a, then around again. Only with the
	 * local cluster. The first instance starts the others, sends the records and prints
	 * the table of all of them.
	 */
	private int instances = 1;

	/**
	 * Which of the instances this one is, from 1. Only the first sends records, prints
	 * the table, starts the other instances and stops after the duration; the first sets
	 * this for each instance it starts.
	 */
	private int instance = 1;

	public String getTopic() {
		return this.topic;
	}

	public void setTopic(String topic) {
		this.topic = topic;
	}

	public int getPartitions() {
		return this.partitions;
	}

	public void setPartitions(int partitions) {
		this.partitions = partitions;
	}

	public short getReplicationFactor() {
		return this.replicationFactor;
	}

	public void setReplicationFactor(short replicationFactor) {
		this.replicationFactor = replicationFactor;
	}

	public Duration getSendInterval() {
		return this.sendInterval;
	}

	public void setSendInterval(Duration sendInterval) {
		this.sendInterval = sendInterval;
	}

	public DataSize getRecordSize() {
		return this.recordSize;
	}

	public void setRecordSize(DataSize recordSize) {
		this.recordSize = recordSize;
	}

	public Duration getReportInterval() {
		return this.reportInterval;
	}

	public void setReportInterval(Duration reportInterval) {
		this.reportInterval = reportInterval;
	}

	public Duration getDuration() {
		return this.duration;
	}

	public void setDuration(Duration duration) {
		this.duration = duration;
	}

	public int getInstances() {
		return this.instances;
	}

	public void setInstances(int instances) {
		this.instances = instances;
	}

	public int getInstance() {
		return this.instance;
	}

	public void setInstance(int instance) {
		this.instance = instance;
	}

}
