#!/usr/bin/env bash
# The conformance run and unit tests: every backend against every rule, plus each type's own tests.
# The tests need nothing beyond the Swift toolchain (jemalloc is for the benchmarks only).
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift test "$@"
