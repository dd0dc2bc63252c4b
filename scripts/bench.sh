#!/usr/bin/env bash
# The main job (README): installs jemalloc when missing, then runs the benchmarks in a release build.
# With no arguments: the full run (every workload on every backend, jemalloc), written to Results/<run-id>/.
# Any arguments go to bench: scripts/bench.sh --quick, scripts/bench.sh report, scripts/bench.sh list, ...
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec swift run -c release bench "$@"
