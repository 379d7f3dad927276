#!/usr/bin/env bash
# Builds apache/kafka:<version> images on this machine, for Docker engines that reach no image registry
# (this project's machines and CI); elsewhere `docker pull apache/kafka:<version>` gives the real ones.
# The images run Kafka's broker jars from Maven Central on a Debian root file system with a JRE, made with
# debootstrap from the Debian mirror apt uses, and start as Testcontainers' KafkaContainer expects of the
# apache/kafka image (docker/kafka/run). Test infrastructure only: nothing here is published.
#   docker/build-kafka-images.sh [--force] [version...]     (default: 4.1.2; needs root, docker, debootstrap)
set -euo pipefail
cd "$(dirname "$0")"

base=follower-fetch/debian-jre:17
force=false
if [ "${1:-}" = --force ]; then
	force=true
	shift
fi
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(4.1.2)

mirror() {
	local uri
	uri="$(grep -hoE '^(URIs:|deb) *(\[[^]]*\] *)?https?://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list.d/*.list 2>/dev/null | grep -v security | head -1 | grep -oE 'https?://[^ ]+' || true)"
	echo "${uri:-http://deb.debian.org/debian}"
}

if $force || ! docker image inspect "$base" > /dev/null 2>&1; then
	command -v debootstrap > /dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
	rootfs="$(mktemp -d)"
	trap 'rm -rf "$rootfs"' EXIT
	start=$SECONDS
	debootstrap --variant=minbase --include=openjdk-17-jre-headless bookworm "$rootfs" "$(mirror)" > "$rootfs.log" 2>&1 \
		|| { cat "$rootfs.log" >&2; exit 1; }
	rm -f "$rootfs.log"
	rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
	mkdir -p "$rootfs/opt/kafka/libs" "$rootfs/opt/kafka/config" "$rootfs/etc/kafka/docker" "$rootfs/var/lib/kafka/data"
	tar -C "$rootfs" -c . | docker import - "$base" > /dev/null
	rm -rf "$rootfs"
	trap - EXIT
	echo "$base: Debian bookworm with a JRE 17 ($((SECONDS - start)) s)"
fi

# the image's recipe, in its label: an image built here from another recipe is built again
recipe="$(cat kafka/Dockerfile kafka/run kafka/log4j2.properties kafka/pom.xml | sha256sum | cut -c1-12)"
for version in "${versions[@]}"; do
	image="apache/kafka:$version"
	built="$(docker image inspect -f '{{index .Config.Labels "dev.followerfetch.kafka-image"}}' "$image" 2>/dev/null || true)"
	if ! $force; then
		case "$built" in
			"local $recipe") echo "$image: already built here"; continue ;;
			local*) echo "$image: built here from another recipe, built again" ;;
			*) docker image inspect "$image" > /dev/null 2>&1 && { echo "$image: present (pulled), kept"; continue; } ;;
		esac
	fi
	start=$SECONDS
	context="$(mktemp -d)"
	../mvnw -q -B -f kafka/pom.xml dependency:copy-dependencies -Dkafka.version="$version" \
		-DincludeScope=runtime -DoutputDirectory="$context/libs"
	cp kafka/Dockerfile kafka/run kafka/log4j2.properties "$context/"
	jars=$(ls "$context/libs" | wc -l)
	# the classic builder: BuildKit would need the buildx plug-in, and every step here is local
	DOCKER_BUILDKIT=0 docker build --build-arg "KAFKA_VERSION=$version" --build-arg "RECIPE=$recipe" -t "$image" "$context" > "$context.log" 2>&1 \
		|| { cat "$context.log" >&2; exit 1; }
	rm -rf "$context" "$context.log"
	echo "$image: built ($jars jars, $((SECONDS - start)) s)"
done
