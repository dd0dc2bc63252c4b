#!/usr/bin/env bash
# A portable bench: the Swift standard library, Foundation and Dispatch linked in (--static-swift-stdlib), so that it
# runs on a Linux machine of the same architecture with no Swift toolchain and writes the same run folder. jemalloc is
# still loaded at run time where the machine has it (the allocator is recorded either way); the build's commit and
# compiler version are built in, since such a machine may have neither the repository nor `swift`.
#
#   scripts/portable.sh                  builds .build/portable/bench (debug information stripped, symbols kept:
#                                        bench check's callgrind finds the counted phases by name)
#   scripts/portable.sh --check          builds it, fails if it links any Swift library, runs `bench --quick` with the
#                                        toolchain out of reach (a private mount namespace with an empty file system
#                                        over it; needs root), and has `bench report` read that run
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
commit="$(git rev-parse --short=12 HEAD)"
[ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit-dirty"
swift build -c release --product bench --static-swift-stdlib --scratch-path .build-portable \
    -Xcc "-DSCHEDULERBENCH_PORTABLE_COMMIT=\"$commit\""
mkdir -p .build/portable
objcopy --strip-debug .build-portable/release/bench .build/portable/bench.tmp
mv .build/portable/bench.tmp .build/portable/bench
binary=.build/portable/bench

if linked=$(ldd "$binary" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime'); then
    echo "portable: $binary still links the toolchain's libraries:" >&2
    echo "$linked" >&2
    exit 1
fi
echo "portable: $binary ($(du -m "$binary" | cut -f1) MiB, commit $commit) links no Swift library:"
ldd "$binary" | sed 's/^/  /'

[ "${1:-}" = "--check" ] || exit 0

# The toolchain's root (/opt/swift for /opt/swift/usr/bin/swift); where it is /usr, only its libraries are hidden.
swift="$(readlink -f "$(command -v swift)")"
hidden="$(dirname "$(dirname "$(dirname "$swift")")")"
[ "$hidden" != "/" ] && [ "$hidden" != "/usr" ] || hidden="$(dirname "$(dirname "$swift")")/lib/swift"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
echo "portable: bench --quick with $hidden out of reach"
unshare --mount sh -c "mount -t tmpfs none '$hidden' && ! command -v swift >/dev/null && exec '$binary' --quick --output '$out'"
"$binary" report --run "$(ls -d "$out"/*/ | head -1)" --results "$out" --no-charts
