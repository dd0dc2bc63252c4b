#!/usr/bin/env bash
# Installs what the project needs beyond the Swift toolchain: jemalloc, the allocator the benchmarks measure with.
# Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: the Swift toolchain is missing; install Swift 6 (https://www.swift.org/install) and run again" >&2
    exit 1
fi

if ! ldconfig -p 2>/dev/null | grep -q 'libjemalloc\.so\.2'; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing libjemalloc-dev" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libjemalloc-dev >/dev/null
fi
