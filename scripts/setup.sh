#!/usr/bin/env bash
# Installs what the project needs beyond the Swift toolchain: jemalloc, the allocator the benchmarks measure with;
# valgrind and binutils (objcopy), with which `bench check` counts instructions per task; libcurl's development
# files, which a bench built with --static-swift-stdlib links (static Foundation carries FoundationNetworking, whose
# URLSession is libcurl's: scripts/portable.sh).
# Idempotent; needs root (or sudo) only when something is missing.
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: the Swift toolchain is missing; install Swift 6 (https://www.swift.org/install) and run again" >&2
    exit 1
fi

missing=()
# The loader's cache may name a library whose file is gone: look for the file it names.
present() {
    local file
    file=$(ldconfig -p 2>/dev/null | awk -v name="$1" '$1 == name { print $NF; exit }')
    [ -n "$file" ] && [ -e "$file" ]
}
present libjemalloc.so.2 || missing+=(libjemalloc2 libjemalloc-dev)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
command -v objcopy >/dev/null 2>&1 || missing+=(binutils)
present libcurl.so || missing+=(libcurl4-openssl-dev)

if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    # --reinstall: a package the system counts as installed may still have lost its files.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --reinstall "${missing[@]}" >/dev/null
fi
