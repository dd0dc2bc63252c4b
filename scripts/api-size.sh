#!/usr/bin/env bash
# How large a target's surface is, reproducibly: its public lines, its public types, its `@_spi` declarations, and its
# `package` declarations, with how many of those the tool's sources name.
#   scripts/api-size.sh                                   the bench's runtime (Sources/SchedulerBench) against the tool
#   scripts/api-size.sh Sources/SchedulerBench Sources/SchedulerBenchTool Benchmarks/bench
# The first folder is the target; the others are the sources that use it (default: the tool and `bench`). Folders are
# relative to this repository, or to API_SIZE_ROOT where it is set (another checkout, e.g. of an earlier commit).
# - public lines: lines that begin with `public` or `open` (grep -rE '^\s*(public|open) '); a declaration that carries
#   an `@_spi(…)` attribute on its own line is not one of them, and is counted under spi declarations instead;
# - public types: structs, enums, classes, actors and protocols declared public or open;
# - spi declarations: declarations with an `@_spi(…)` attribute (the extension points), by group;
# - package declarations: lines that begin with `package`; used by the tool: those whose declared name (for an
#   `init`, its type's) is a word of the tool's sources.
set -euo pipefail
cd "${API_SIZE_ROOT:-$(dirname "$0")/..}"
target=${1:-Sources/SchedulerBench}
shift || true
users=("$@")
[ ${#users[@]} -gt 0 ] || users=(Sources/SchedulerBenchTool Benchmarks/bench)
[ -d "$target" ] || { echo "api-size: no folder $target" >&2; exit 2; }

swift_files() { find "$@" -name '*.swift' -print0 2>/dev/null; }

public_lines=$(swift_files "$target" | xargs -0 grep -hE '^\s*(public|open) ' | wc -l)
public_types=$(swift_files "$target" | xargs -0 grep -hE \
    '^\s*(public|open) ((final|indirect|nonisolated|@[A-Za-z]+) )*(struct|enum|class|actor|protocol) ' | wc -l)
spi=$(swift_files "$target" | xargs -0 grep -hoE '@_spi\([A-Za-z]+\) *(public|open)|^\s*@_spi\([A-Za-z]+\)\s*$' || true)
spi_count=$(grep -c . <<<"$spi" || true)
spi_groups=$( (grep -oE '@_spi\([A-Za-z]+\)' <<<"$spi" || true) | sort | uniq -c |
    awk '{printf "%s%s %s", sep, $2, $1; sep=", "}')

# Each `package` declaration's name: the word after its keyword, or for an init the type it is declared in.
names=$(swift_files "$target" | xargs -0 awk '
    FNR == 1 { type = "" }
    match($0, /^[ \t]*(public |package |private |fileprivate )?(final )?(struct|enum|class|actor|protocol|extension) [A-Za-z_][A-Za-z0-9_]*/) {
        split(substr($0, RSTART, RLENGTH), words, " "); type = words[length(words)]
    }
    /^[ \t]*package / {
        line = $0
        if (line ~ /^[ \t]*package ((static|final|mutating|nonisolated|override|lazy|indirect) )*init[(<?]/) { print type; next }
        sub(/^[ \t]*package ((static|final|mutating|nonisolated|override|lazy|indirect) )*(func|var|let|struct|enum|class|actor|protocol|typealias|case|subscript) */, "", line)
        match(line, /^[A-Za-z_][A-Za-z0-9_]*/)
        print (RLENGTH > 0 ? substr(line, 1, RLENGTH) : "?")
    }')
package_count=$(grep -c . <<<"$names" || true)
used=0
while read -r name; do
    [ -n "$name" ] || continue
    if swift_files "${users[@]}" | xargs -0 grep -qwF -- "$name"; then used=$((used + 1)); fi
done <<<"$names"

printf '%s\n' "$target"
printf '  public lines:          %s\n' "$public_lines"
printf '  public types:          %s\n' "$public_types"
printf '  spi declarations:      %s%s\n' "$spi_count" "${spi_groups:+ ($spi_groups)}"
printf '  package declarations:  %s (%s named by %s)\n' "$package_count" "$used" "${users[*]}"
