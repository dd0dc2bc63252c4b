#!/usr/bin/env bash
# A planted bug as a rule's negative control: applies mutant N of Tests/Mutants in the mutation pass's worktree
# (.build/mutation/tree, at HEAD; the checkout is never touched), builds `bench`, and judges RULE on SUBJECT RUNS times
# (default 20). Prints "RULE · SUBJECT failed K of RUNS with mutant N"; exits 1 unless every run failed.
#   scripts/mutant-control.sh 101 EX3 "SchedulerExplorer (random)"
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { echo "usage: scripts/mutant-control.sh MUTANT RULE SUBJECT [RUNS], e.g. 101 EX3 \"SchedulerExplorer (random)\"" >&2; exit 2; }
number=$1 rule=$2 subject=$3 runs=${4:-20}
match=(Tests/Mutants/"$number"-*.patch)
[ -e "${match[0]}" ] || { echo "no mutant $number in Tests/Mutants; give its number, e.g. 101" >&2; exit 2; }
patch=$PWD/${match[0]}
work=$PWD/.build/mutation
tree=$work/tree
mkdir -p "$work"
[ -d "$tree" ] || git worktree add --detach "$tree" HEAD >/dev/null
git -C "$tree" checkout -q --detach "$(git rev-parse HEAD)"
git -C "$tree" checkout -q -- .
trap 'git -C "$tree" checkout -q -- .' EXIT
git -C "$tree" apply "$patch" || { echo "mutant $number does not apply to HEAD" >&2; exit 2; }
swift build --package-path "$tree" --product bench >"$work/control-build.log" 2>&1 \
    || { echo "the mutated tree does not build: see $work/control-build.log" >&2; exit 2; }
failed=0
out=$(mktemp -d)
for _ in $(seq "$runs"); do
    (cd "$tree" && .build/debug/bench conformance --rule "$rule" --backend "$subject" --output "$out" >/dev/null 2>&1) || true
    outcome=$(python3 -c 'import csv, sys; print(" ".join(r["outcome"] for r in csv.DictReader(open(sys.argv[1]))))' \
        "$out/conformance.csv" 2>/dev/null || true)
    [ "$outcome" = failed ] && failed=$((failed + 1))
done
rm -rf "$out"
echo "$rule · $subject failed $failed of $runs with mutant $number"
[ "$failed" -eq "$runs" ]
