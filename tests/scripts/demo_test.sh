#!/usr/bin/env bash
# scripts/demo.sh, what `make demo` runs after the build: its output fits what a first-time user
# reads (make demo under 80 lines in all: the demo itself at most 76, besides the install,
# configure and build lines; at most 100 columns) and shows the key figures of every run.
# Usage: demo_test.sh <source dir> <build dir with nicsim>
set -euo pipefail
src=$1
build=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
# As make runs it: the build directory relative to the working directory.
cd "$(dirname "$build")"
build=$(basename "$build")
out=$("$src/scripts/demo.sh" "$build")
printf '%s\n' "$out"
lines=$(printf '%s\n' "$out" | wc -l)
[ "$lines" -le 76 ] || fail "the demo prints $lines lines"
printf '%s\n' "$out" | awk 'length > 100 { bad = 1 } END { exit bad }' || fail "a line is wider than 100"
for want in 'goodput .* KB/s .* KB/s .* KB/s' 'chip wake-ups +0 +[1-9]' 'chip average power .* mW' \
    'power_save=false: chip average power [0-9.]+ mW' 'power_save=true: chip average power [0-9.]+ mW'; do
    printf '%s\n' "$out" | grep -Eq "$want" || fail "no line matches '$want'"
done
# The reports stay for nicsim compare, as the demo says.
"$build/nicsim" compare "$build/demo/ps-false.json" "$build/demo/ps-true.json" >/dev/null
echo "demo.sh: ok ($lines lines)"
