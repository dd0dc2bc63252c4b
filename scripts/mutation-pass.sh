#!/usr/bin/env bash
# The kit's mutation pass (Docs/Conformance.md, "Mutation pass"): each patch in Tests/Mutants plants one plausible
# bug in SchedulerKit; the pass builds `bench` with it, runs the conformance rules on the schedulers, clocks and
# executors built over the file it touches, and calls it killed when a verdict that passed without the mutant fails
# with it. Works in a worktree of HEAD under .build/mutation (the checkout is never touched).
#   scripts/mutation-pass.sh            every mutant
#   scripts/mutation-pass.sh 17 28      only these
#   MUTATION_BY=tests scripts/mutation-pass.sh 88   judged by the project's own tests instead (`swift test` of the
#                                       test target of the file it touches; killed when a test that passed fails)
#   MUTANTS=Tests/Mutants/fresh-2026-12 scripts/mutation-pass.sh    the patches of another set (a folder of them)
#   MUTATION_AT=a353f7f scripts/mutation-pass.sh    judged at another commit than HEAD (a score before a change)
# A matrix that does not finish within MUTATION_MATRIX_TIMEOUT seconds (default 1500) is stopped, and its mutant is
# reported as "hung": the kit's run did not end, which a user sees, though no verdict says why.
# Prints one line per mutant and a summary; writes .build/mutation/results-<set>.tsv. Slow: a build and a matrix each.
# MUTATION_RESUME=1 keeps the results of an interrupted pass and judges only the mutants it had not reached.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$root/.build/mutation
tree=$work/tree
by=${MUTATION_BY:-verdicts}
case "$by" in
verdicts) ;;
tests) work=$root/.build/mutation-tests ;; # the same tree (its build is shared), results of their own
*) echo "MUTATION_BY must be verdicts or tests, got '$by'" >&2; exit 2 ;;
esac
mkdir -p "$work"
if [ ! -d "$tree" ]; then git worktree add --detach "$tree" HEAD >/dev/null; fi
commit=$(git rev-parse "${MUTATION_AT:-HEAD}")
git -C "$tree" checkout -q --detach "$commit"
git -C "$tree" checkout -q -- .
set_dir=$root/${MUTANTS:-Tests/Mutants}
[ -d "$set_dir" ] || { echo "no folder of mutants at ${MUTANTS}; give one such as Tests/Mutants/fresh-2026-12" >&2; exit 2; }
patches=()
if [ $# -eq 0 ]; then
    patches=("$set_dir"/*.patch)
else
    for n in "$@"; do
        match=("$set_dir"/"$n"-*.patch)
        [ -e "${match[0]}" ] || { echo "no mutant $n in ${set_dir#"$root"/}; give its number, e.g. 17" >&2; exit 2; }
        patches+=("${match[0]}")
    done
fi

all_schedulers=(ImmediateScheduler SubscriptionScheduler DispatchQueueScheduler ThreadPoolScheduler
    OperationQueueScheduler TestScheduler MainThreadScheduler ConcurrentDispatchQueueScheduler
    ThreadPoolConcurrentScheduler "OperationQueueScheduler (width 2)" "OperationQueueScheduler (caller's queue)")
kit_clocks=("SchedulerClock(Dispatch)" "SchedulerClock(ThreadPool)" "SchedulerClock(TestScheduler)")
kit_executors=("SchedulerExecutor(Dispatch)" "SchedulerExecutor(ThreadPool)" "SchedulerTaskExecutor(ThreadPool)")
# The exploring scheduler is judged through the clocks and executors built over it.
explorer_subjects=("SchedulerClock(ExploringScheduler, first-in-first-out)" "SchedulerClock(ExploringScheduler, random)"
    "SchedulerExecutor(ExploringScheduler, first-in-first-out)" "SchedulerTaskExecutor(ExploringScheduler, first-in-first-out)"
    "SchedulerExecutor(ExploringScheduler, random)" "SchedulerTaskExecutor(ExploringScheduler, random)")
# The explorer itself, strategy by strategy (the EX rules).
explorers=("SchedulerExplorer (random)" "SchedulerExplorer (PCT (depth 2, 50 steps))"
    "SchedulerExplorer (exhaustive (at most 2 preemptions))")
nio_subjects=(EventLoopScheduler NIOThreadPoolScheduler "NIO EventLoop.executor" "NIOAsyncTestingEventLoop.executor")
combine_subjects=("Combine DispatchQueue" "Combine OperationQueue" "Combine RunLoop" "Combine ImmediateScheduler")
# The subjects built over each source file (its path under Sources/), one per line: a mutant is judged on these.
subject_lines() {
    case "$1" in
    SchedulerKitNIO/*) printf '%s\n' "${nio_subjects[@]}" ;;
    # T8 judges the SchedulerKit-to-Combine direction (`scheduler.combine`) over every timed scheduler.
    SchedulerKitCombine/*) printf '%s\n' "${combine_subjects[@]}" "${all_schedulers[@]}" ;;
    SchedulerExplorer/* | SchedulerKit/GlobalExecutor/*) printf '%s\n' "${explorer_subjects[@]}" "${explorers[@]}" ;;
    SchedulerKit/VirtualTime/TestScheduler.swift) printf '%s\n' TestScheduler "SchedulerClock(TestScheduler)" ;;
    SchedulerKit/VirtualTime/*)
        printf '%s\n' TestScheduler "SchedulerClock(TestScheduler)" "${explorer_subjects[@]}" "${explorers[@]}" ;;
    */*) subject_lines "$(basename "$1")" ;;
    ImmediateScheduler.swift) printf '%s\n' ImmediateScheduler SubscriptionScheduler ;;
    SubscriptionScheduler.swift) printf '%s\n' SubscriptionScheduler ;;
    MainThreadScheduler.swift) printf '%s\n' MainThreadScheduler ;;
    DispatchQueueScheduler.swift | DispatchTimers.swift | DispatchBackedScheduler.swift | ConcurrentDispatchQueueScheduler.swift)
        printf '%s\n' DispatchQueueScheduler ConcurrentDispatchQueueScheduler "SchedulerClock(Dispatch)" \
            "SchedulerExecutor(Dispatch)" ;;
    ThreadPool*.swift | ConditionLock.swift | PoolTimer.swift | WorkerThread.swift)
        printf '%s\n' ThreadPoolScheduler ThreadPoolConcurrentScheduler "SchedulerClock(ThreadPool)" \
            "SchedulerExecutor(ThreadPool)" "SchedulerTaskExecutor(ThreadPool)" ;;
    TestScheduler.swift) printf '%s\n' TestScheduler "SchedulerClock(TestScheduler)" ;;
    OperationQueueScheduler.swift)
        printf '%s\n' OperationQueueScheduler "OperationQueueScheduler (width 2)" "OperationQueueScheduler (caller's queue)" ;;
    SchedulerClock.swift) printf '%s\n' "${kit_clocks[@]}" ;;
    *) printf '%s\n' "${all_schedulers[@]}" "${kit_clocks[@]}" "${kit_executors[@]}" ;;
    esac
}

# The test target (a swift test filter) that covers each source file (its path under Sources/).
test_filter() {
    case "$1" in
    SchedulerKitNIO/*) echo SchedulerKitNIOTests ;;
    SchedulerKitCombine/*) echo SchedulerKitCombineTests ;;
    SchedulerExplorer/* | SchedulerKit/GlobalExecutor/*) echo 'SchedulerExplorerTests|PoolGlobalExecutorTests|GlobalEnqueueHookTests' ;;
    # The virtual-time engine is also the explorer's.
    SchedulerKit/VirtualTime/*) echo 'SchedulerKitTests|SchedulerExplorerTests' ;;
    *) echo SchedulerKitTests ;;
    esac
}

if [ "$by" = tests ]; then
    build() { swift build --package-path "$tree" --build-tests >"$work/build.log" 2>&1; }
    # The tests of $1 (a file name), run once: the names of those that failed into directory $2.
    judge() {
        mkdir -p "$2"
        (cd "$tree" && swift test --skip-build --filter "$(test_filter "$1")" >"$2/test.log" 2>&1) || true
        sed -n 's/^✘ Test \(.*\) failed after .*/\1/p' "$2/test.log" | { grep -v '^run with ' || true; } | sort -u >"$2/failed.txt"
        # Its last line ("✔", "✘" or, with known issues, "━ Test run with …"); a run that crashed has none.
        grep -q "^. Test run with" "$2/test.log" || echo "(the test run did not finish)" >>"$2/failed.txt"
    }
    newly_failed() { comm -13 "$1" "$2"; }
    report=failed.txt
else
    build() { swift build --package-path "$tree" --product bench >"$work/build.log" 2>&1; }
    report=conformance.csv
fi
# One matrix on the subjects of $1 (a file name) into directory $2.
[ "$by" = tests ] || judge() {
    local args=()
    while IFS= read -r subject; do args+=(--backend "$subject"); done < <(subject_lines "$1")
    (cd "$tree" && timeout "${MUTATION_MATRIX_TIMEOUT:-1500}" .build/debug/bench conformance "${args[@]}" --output "$2" \
        >"$2.log" 2>&1) || true
}
# The cells that passed in $1 and failed in $2 (CSV files): rule·subject, one per line.
[ "$by" = tests ] || newly_failed() {
    python3 - "$1" "$2" <<'PY'
import csv, sys
def cells(path):
    with open(path, newline="") as f:
        return {(r["rule"], r["backend"]): r["outcome"] for r in csv.DictReader(f)}
before, after = cells(sys.argv[1]), cells(sys.argv[2])
for key, outcome in sorted(after.items()):
    if outcome == "failed" and before.get(key) == "passed":
        print(f"{key[0]}·{key[1]}")
PY
}

echo "building the unmutated tree (baseline)…" >&2
build || { echo "the unmutated tree does not build: see $work/build.log" >&2; exit 1; }
results=$work/results-$(basename "$set_dir").tsv
[ "${MUTATION_RESUME:-}" = 1 ] || : >"$results"
touch "$results"
killed=0 survived=0 stillborn=0 stale=0
for patch in "${patches[@]}"; do
    name=$(basename "$patch" .patch)
    if grep -q "^$name	" "$results"; then continue; fi
    file=$(sed -n 's|^+++ b/Sources/||p' "$patch" | head -1)
    # One baseline per set of subjects, kept across resumed passes of the same commit.
    scope=$( (echo "$by"; subject_lines "$file"; test_filter "$file") | cksum | cut -d' ' -f1)
    baseline=$work/baseline-${commit:0:7}-$scope
    [ -f "$baseline/$report" ] || judge "$file" "$baseline"

    if ! git -C "$tree" apply "$patch" 2>/dev/null; then
        stale=$((stale + 1)); printf '%s\tdoes not apply\t\n' "$name" | tee -a "$results"; continue
    fi
    if ! build; then
        stillborn=$((stillborn + 1)); printf '%s\tdoes not build\t\n' "$name" | tee -a "$results"
        git -C "$tree" checkout -q -- . && continue
    fi
    judge "$file" "$work/$name"
    git -C "$tree" checkout -q -- .
    if [ ! -f "$work/$name/$report" ]; then
        printf '%s\thung\tthe judging run did not finish (see %s)\n' "$name" "$work/$name.log" | tee -a "$results"
        continue
    fi
    caught=$(newly_failed "$baseline/$report" "$work/$name/$report" | paste -sd' ' -)
    if [ -n "$caught" ]; then
        killed=$((killed + 1)); printf '%s\tkilled\t%s\n' "$name" "$caught" | tee -a "$results"
    else
        survived=$((survived + 1)); printf '%s\tsurvived\t\n' "$name" | tee -a "$results"
    fi
done
killed=$(grep -c '	killed	' "$results" || true)
survived=$(grep -c '	survived	' "$results" || true)
hung=$(grep -c '	hung	' "$results" || true)
echo "mutation pass ($by): $killed killed, $survived survived of $((killed + survived)) judged, $hung hung ($stillborn did not build, $stale did not apply in this run)"
