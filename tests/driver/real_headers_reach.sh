#!/bin/sh
# usage: real_headers_reach.sh <driver object> <function>...
# Fails when the driver's files compiled against the real kernel headers (one relocatable
# object, kernel/cmake/KernelHeaders.cmake) no longer call one of the functions: a config option
# of kernel/arch/nicsim.config left off made its header's stub cut the path that calls it.
set -eu
obj=$1; shift
[ -f "$obj" ] || { echo "real_headers_reach: $obj missing (build first)" >&2; exit 2; }
undef=$(nm -u "$obj" | awk '{print $2}')
missing=""
for f in "$@"; do
    printf '%s\n' "$undef" | grep -qx "$f" || missing="$missing $f"
done
if [ -n "$missing" ]; then
    echo "real_headers_reach: $obj does not call:$missing" >&2
    echo "(a config option off in kernel/arch/nicsim.config turned a header function into a stub?)" >&2
    exit 1
fi
echo "real_headers_reach: $obj calls all $# named functions"
