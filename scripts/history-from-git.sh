#!/usr/bin/env bash
# Adds every reference run ever committed under Results/<run-id>/ to Results/history/ (bench history add), taking
# each summary.csv out of the commit that added it; runs already in the history are skipped.
# Usage: scripts/history-from-git.sh [path to a bench executable; default: swift run -c release bench]
set -euo pipefail
cd "$(dirname "$0")/.."
bench=("${1:-}")
[ -n "${bench[0]}" ] || bench=(swift run -c release bench)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
folders=()
for path in $(git log --no-renames --diff-filter=A --name-only --format= -- 'Results/*/summary.csv' | grep -E '^Results/[^/]+/summary.csv$' | sort -u); do
    commit="$(git log --no-renames --diff-filter=A --format=%h -- "$path" | tail -1)"
    folder="$work/$(basename "$(dirname "$path")")"
    mkdir -p "$folder"
    git show "$commit:$path" >"$folder/summary.csv"
    folders+=("$folder")
done
"${bench[@]}" history add "${folders[@]}"
