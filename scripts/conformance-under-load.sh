#!/usr/bin/env bash
# Runs the whole conformance matrix (`bench conformance`) several times under a load, and counts the verdicts that
# differ from a reference matrix (by default the committed Results/conformance.csv, made on a quiet machine):
#
#   scripts/conformance-under-load.sh busy [RUNS]     # every CPU kept busy by other processes (one spinning shell each)
#   scripts/conformance-under-load.sh pinned [RUNS]   # the matrix and its children on one CPU (taskset -c 0)
#   scripts/conformance-under-load.sh quiet [RUNS]    # no load: the run-to-run spread on its own
#
# Prints one line per run (passed/failed counts, seconds) and, at the end, every (rule, backend) whose outcome differed
# from the reference in any run, with how often. Needs a release bench (swift build -c release --product bench).
# Writes only under a temporary folder, removed at the end; REFERENCE=path/to/conformance.csv picks another reference.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
runs=${2:-10}
case "$mode" in busy | pinned | quiet) ;; *)
    echo "usage: scripts/conformance-under-load.sh busy|pinned|quiet [RUNS]" >&2
    exit 2
    ;;
esac
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "conformance-under-load: RUNS must be a positive whole number, got '$runs'" >&2; exit 2; }
bench=.build/release/bench
[ -x "$bench" ] || { echo "conformance-under-load: build the bench first: swift build -c release --product bench" >&2; exit 2; }
reference=${REFERENCE:-Results/conformance.csv}
[ -f "$reference" ] || { echo "conformance-under-load: no reference matrix at $reference" >&2; exit 2; }

work=$(mktemp -d)
spinners=()
stop_spinners() {
    for pid in "${spinners[@]}"; do kill "$pid" 2>/dev/null || true; done
    spinners=()
}
trap 'stop_spinners; rm -rf "$work"' EXIT
done_runs=0
# The verdicts of the runs that finished, against the reference; also when stopped early (Ctrl-C, kill).
tally() {
    stop_spinners
    [ "$done_runs" -gt 0 ] || return 0
    python3 - "$reference" "$work" "$done_runs" <<'EOF'
import csv, os, sys
reference, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def outcomes(path):
    with open(path, newline="") as f:
        return {(r["rule"], r["backend"]): r for r in csv.DictReader(f)}
ref = outcomes(reference)
differ = {}
for run in range(1, runs + 1):
    path = os.path.join(work, str(run), "conformance.csv")
    if not os.path.exists(path):
        print(f"run {run}: no conformance.csv")
        continue
    for key, row in outcomes(path).items():
        before = ref.get(key, {}).get("outcome", "absent")
        if row["outcome"] != before:
            differ.setdefault(key, []).append((run, before, row["outcome"], row["detail"][:160]))
print(f"\n{len(differ)} (rule, backend) cells differed from {reference} in at least one of {runs} runs")
for (rule, backend), changes in sorted(differ.items()):
    print(f"- {rule} · {backend}: {len(changes)} of {runs} runs, e.g. run {changes[0][0]}: "
          f"{changes[0][1]} -> {changes[0][2]} ({changes[0][3]})")
EOF
}
trap 'tally; exit 130' INT TERM

for run in $(seq "$runs"); do
    if [ "$mode" = busy ]; then
        for _ in $(seq "$(nproc)"); do
            bash -c 'while :; do :; done' &
            spinners+=($!)
        done
    fi
    command=("$bench" conformance --output "$work/$run" --rules-page "$work/rules-$run.md")
    [ "$mode" = pinned ] && command=(taskset -c 0 "${command[@]}")
    start=$SECONDS
    status=0
    "${command[@]}" >"$work/$run.log" 2>&1 || status=$?
    stop_spinners
    summary=$(grep '^conformance:' "$work/$run.log" | tail -1 || true)
    # Exit 1: a failure that no backend expects by design (bench conformance prints it above its summary).
    echo "run $run ($mode): ${summary:-no summary} (exit $status) in $((SECONDS - start)) s"
    done_runs=$run
done

tally
