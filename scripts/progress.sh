#!/usr/bin/env bash
# Runs a long, chatty step (apt-get, cmake, the build) with its whole output in a log file and
# shows it as one line: on a terminal a line redrawn in place with the step's latest "[ NN%]"
# progress (cmake/make print it), elsewhere only the closing line. On failure the last lines of
# the log follow, so a compiler error is still seen without opening the log.
# Usage: scripts/progress.sh LABEL LOG COMMAND [ARG...]   (exit status: the command's)
set -uo pipefail
if [ $# -lt 3 ]; then
    echo "usage: $0 LABEL LOG COMMAND [ARG...]" >&2
    exit 2
fi
label=$1
log=$2
shift 2
mkdir -p "$(dirname "$log")"
: >"$log" || exit 1

tty=false
[ -t 1 ] && tty=true
cols=${COLUMNS:-}
if $tty && [ -z "$cols" ]; then
    cols=$(stty size </dev/tty 2>/dev/null | cut -d' ' -f2)
fi
[[ "$cols" =~ ^[0-9]+$ ]] && [ "$cols" -ge 20 ] || cols=80

start=$SECONDS
"$@" 2>&1 | while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    # "[ 45%] Building CXX object ..." -> "build: [ 45%] Building CXX object ..."
    if $tty && [[ "$line" =~ ^\[\ *[0-9]+%\] ]]; then
        text="$label: $line"
        printf '\r\033[K%s' "${text:0:$((cols - 1))}"
    fi
done
status=${PIPESTATUS[0]}
$tty && printf '\r\033[K'
elapsed=$((SECONDS - start))
if [ "$status" -eq 0 ]; then
    echo "$label: done in ${elapsed} s (log: $log)"
else
    echo "$label: failed (exit $status) after ${elapsed} s; the last 40 lines of $log:"
    tail -n 40 "$log"
fi
exit "$status"
