#!/usr/bin/env bash
# The API documentation of SchedulerKit, SchedulerConformance, SchedulerExplorer and SchedulerBench, the runtime of the bench (DocC, swift-docc-plugin), built with warnings as
# errors: a symbol link that does not resolve fails. Writes .build/plugins/Swift-DocC/outputs/<target>.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift package generate-documentation --target SchedulerKit --target SchedulerConformance --target SchedulerExplorer --target SchedulerBench --warnings-as-errors "$@"
