#!/usr/bin/env bash
# How long a whole conformance matrix takes on the worst subjects (Tests/ConformanceTests/WorstCaseTests.swift): one
# that deadlocks in every rule, with the deadlines a user's suite gets, and one that crashes in every rule. Prints
# the figures Docs/Conformance.md quotes ("A scheduler that never answers"). Minutes; not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
SCHEDULERKIT_WORST_CASES=1 swift test --filter 'WorstCases' "$@" 2>&1 | tee /dev/stderr | grep -E '^worst case' || true
