#!/usr/bin/env bash
# The code's format (.swift-format: 120 columns, 4 spaces). `scripts/format.sh` rewrites the sources in place;
# `scripts/format.sh --check` only reports, and fails on any difference (CI runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Benchmarks)
if [ "${1:-}" = "--check" ]; then
    exec swift format lint --strict --recursive --parallel "${paths[@]}"
fi
exec swift format format --in-place --recursive --parallel "${paths[@]}"
