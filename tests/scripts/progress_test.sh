#!/usr/bin/env bash
# scripts/progress.sh, the filter `make` runs apt, cmake and the build through: the whole output
# in the log, one line on the terminal (redrawn in place on a tty), the log's end on failure,
# the command's exit status.
# Usage: progress_test.sh <source dir> <scratch dir>
set -euo pipefail
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
progress="$src/scripts/progress.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

# A build-like command: 600 lines, cmake's "[ NN%]" progress among them, some on stderr.
cat >"$work/chatty.sh" <<'EOS'
#!/usr/bin/env bash
for i in $(seq 1 600); do
    if [ $((i % 3)) -eq 0 ]; then echo "[$(printf '%3d' $((i / 6)))%] Building CXX object f$i.o in/a/directory/deep/enough/to/need/cutting"
    elif [ $((i % 3)) -eq 1 ]; then echo "warning: line $i" >&2
    else echo "line $i"; fi
done
exit "${1:-0}"
EOS
chmod +x "$work/chatty.sh"

# Not a terminal: only the closing line; every line of the command in the log.
out=$(COLUMNS= "$progress" build "$work/ok.log" "$work/chatty.sh" 0)
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "not a tty: expected 1 line, got: $out"
[[ "$out" == "build: done in "*" s (log: $work/ok.log)" ]] || fail "closing line: $out"
[ "$(wc -l <"$work/ok.log")" -eq 600 ] || fail "log has $(wc -l <"$work/ok.log") of 600 lines"
grep -qx 'warning: line 598' "$work/ok.log" || fail "stderr not in the log"

# Failure: the command's status, and the end of the log on the terminal.
set +e
out=$("$progress" build "$work/bad.log" "$work/chatty.sh" 3)
status=$?
set -e
[ "$status" -eq 3 ] || fail "exit status $status, expected the command's 3"
printf '%s\n' "$out" | head -1 | grep -q '^build: failed (exit 3)' || fail "failure line: $out"
printf '%s\n' "$out" | tail -1 | grep -qx "\[100%\] Building CXX object f600.o in/a/directory/deep/enough/to/need/cutting" ||
    fail "the log's last line is not shown: $out"
[ "$(printf '%s\n' "$out" | wc -l)" -eq 41 ] || fail "failure: expected 1 + 40 lines"

# On a terminal (script(1) gives it one): one visible line, redrawn with the progress, at most
# COLUMNS wide.
if command -v script >/dev/null; then
    COLUMNS=60 script -qec "'$progress' build '$work/tty.log' '$work/chatty.sh' 0" /dev/null \
        >"$work/tty.out" </dev/null
    tr -d '\r' <"$work/tty.out" | grep -c '' | grep -qx 1 ||
        fail "tty: expected 1 line, got $(grep -c '' "$work/tty.out")"
    grep -q 'build: \[ 50%\] Building CXX object f300.o in/a/dir' "$work/tty.out" ||
        fail "tty: no progress shown"
    # Every redrawn progress segment fits the 60 columns (the closing line is an ordinary one).
    tr '\r' '\n' <"$work/tty.out" | sed 's/\x1b\[K//g' |
        awk '/\[ *[0-9]+%\]/ && length > 59 { bad = 1 } END { exit bad }' ||
        fail "tty: a progress line is wider than COLUMNS - 1"
fi
echo "progress.sh: ok"
