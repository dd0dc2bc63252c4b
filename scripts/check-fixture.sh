#!/usr/bin/env bash
# A third party's package that depends on SchedulerKit with none of its traits (Tests/Fixtures/BenchYourOwn): it must
# resolve none of swift-nio, OpenCombine and swift-clocks, build, and pass its tests (the kit on its own scheduler, and the bench).
# It builds under .build-fixture/ at the repository root and leaves nothing in the fixture's folder, which is also
# the source folder of the PublicAPITests target.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fixture="$root/Tests/Fixtures/BenchYourOwn"
trap 'rm -f "$fixture/Package.resolved"' EXIT
cd "$fixture"
scratch=(--scratch-path "$root/.build-fixture")
deps=$(swift package "${scratch[@]}" show-dependencies --format flatlist)
printf 'resolved: %s\n' "$(tr '\n' ' ' <<<"$deps")"
if grep -qiE 'swift-nio|opencombine|swift-clocks' <<<"$deps"; then
    echo "check-fixture: a package with traits: [] resolved a peer (above); guard its uses with the NIO, Combine or SwiftClocks trait" >&2
    exit 1
fi
SCHEDULERKIT_CONFORMANCE_SCALE=${SCHEDULERKIT_CONFORMANCE_SCALE:-0.1} swift test "${scratch[@]}"
# It links the bench's runtime (SchedulerBench) only: its build must have compiled none of the tool's files
# (SchedulerBenchTool: reports, history, exports, power, calibration). SwiftPM plans a folder for every target of the
# graph (<target>.build/ with a file map), so the check is on what a compile leaves: object files and a module.
built=$(swift build "${scratch[@]}" --show-bin-path)
tool=$(find "$built/SchedulerBenchTool.build" "$built/Modules" -name '*.o' -path '*SchedulerBenchTool*' 2>/dev/null
    find "$built/Modules" -name 'SchedulerBenchTool.swiftmodule' 2>/dev/null)
runtime=$(find "$built/SchedulerBench.build" -name '*.o' 2>/dev/null | wc -l)
if [ -n "$tool" ] || [ "$runtime" -eq 0 ]; then
    echo "check-fixture: the fixture's build must compile SchedulerBench and none of SchedulerBenchTool ($built): $tool" >&2
    exit 1
fi
printf 'compiled SchedulerBench (%s object files) and none of SchedulerBenchTool\n' "$runtime"
