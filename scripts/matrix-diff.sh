#!/usr/bin/env bash
# Two conformance matrices (conformance.csv, as `bench conformance` writes them) cell by cell: prints every
# (rule, subject) whose outcome differs, and every cell only one of them has, then a one-line count. Exit 0 when the
# outcomes are the same everywhere, 1 otherwise.
#   scripts/matrix-diff.sh /tmp/before/conformance.csv /tmp/after/conformance.csv
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/matrix-diff.sh BEFORE.csv AFTER.csv (conformance.csv files of bench conformance)" >&2; exit 2; }
for file in "$1" "$2"; do
    [ -r "$file" ] || { echo "matrix-diff: cannot read $file; give two conformance.csv files" >&2; exit 2; }
done
exec python3 - "$1" "$2" <<'PY'
import csv, sys
def cells(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or not {"rule", "backend", "outcome"} <= set(rows[0]):
        sys.exit(f"matrix-diff: {path} has no rule, backend and outcome columns: is it a conformance.csv?")
    return {(r["rule"], r["backend"]): r["outcome"] for r in rows}
before, after = cells(sys.argv[1]), cells(sys.argv[2])
changed = 0
for key in sorted(before.keys() | after.keys()):
    a, b = before.get(key, "(absent)"), after.get(key, "(absent)")
    if a != b:
        changed += 1
        print(f"{key[0]} · {key[1]}: {a} -> {b}")
print(f"{len(before)} cells before, {len(after)} after, {changed} differ")
sys.exit(1 if changed else 0)
PY
