#!/usr/bin/env bash
# Runs a command as on a machine that has only the Swift toolchain: what scripts/setup.sh installs (jemalloc's
# library, valgrind, libcurl's link-time library) is made to look absent for that command alone. CI runs the README's
# test command this way, so a test that needs more than the toolchain fails here rather than on a newcomer's machine.
#
#   scripts/without-setup.sh scripts/test.sh
#
# How: a private mount namespace (nothing outside it changes, nothing is uninstalled) in which each folder holding
# such a file is covered by an overlay whose upper layer has a whiteout (a 0/0 character device) of that name.
# Needs root, as CI has; elsewhere run the command itself on a machine without those packages.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: scripts/without-setup.sh COMMAND [ARGUMENTS...]" >&2; exit 2; }
if [ "$(id -u)" != 0 ]; then
    echo "without-setup: needs root for a private mount namespace; run as root, or on a machine without jemalloc and valgrind" >&2
    exit 2
fi

hidden=()
for path in /usr/lib/*/libjemalloc.so* /usr/lib/libjemalloc.so* /usr/local/lib/libjemalloc.so* /usr/bin/jemalloc-config \
    /usr/bin/valgrind /usr/bin/valgrind.bin /usr/bin/callgrind_annotate /usr/bin/callgrind_control \
    /usr/lib/*/libcurl.so; do
    if [ -e "$path" ] || [ -L "$path" ]; then hidden+=("$path"); fi
done
echo "without-setup: ${#hidden[@]} files out of reach: ${hidden[*]:-none}" >&2

layers=$(mktemp -d)
trap 'rm -rf "$layers"' EXIT
# Inside the namespace: one overlay per folder, then the command in the current directory.
exec_hidden='
    set -e
    layers=$1; shift
    mount -t tmpfs layers "$layers"
    declare -A names=()
    while [ "$1" != -- ]; do names["$(dirname "$1")"]+="$(basename "$1")/"; shift; done
    shift
    for folder in "${!names[@]}"; do
        layer="$layers/$(echo "$folder" | tr / _)"
        mkdir -p "$layer/upper" "$layer/work"
        IFS=/ read -ra files <<< "${names[$folder]}"
        for file in "${files[@]}"; do [ -n "$file" ] && mknod "$layer/upper/$file" c 0 0; done
        mount -t overlay overlay -o "lowerdir=$folder,upperdir=$layer/upper,workdir=$layer/work" "$folder"
    done
    exec "$@"'
# A status of its own, so that the caller sees the command's exit code and not the trap's.
status=0
unshare --mount --propagation private bash -c "$exec_hidden" _ "$layers" "${hidden[@]}" -- "$@" || status=$?
exit $status
