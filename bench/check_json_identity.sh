#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Behaviour check for simulator speed work: runs two nicsim binaries (e.g. before and after an
# optimisation) on the same scenarios and requires byte-identical `--json` output apart from the
# "host" block (wall time, peak RSS), which is the only part allowed to differ.
#
# usage: bench/check_json_identity.sh <nicsim A> <nicsim B> [configs dir] [-- extra --set ...]
#   configs dir defaults to the repo's configs/; pass a frozen copy when others are editing it.
# Scenarios: TX and RX ttcp, chip sleep off and on, each with the repo defaults and at the
# benchmark operating point (bench/run_benchmarks.sh, BENCH_SETS). Exit status 0 = all identical.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 <nicsim A> <nicsim B> [configs dir] [-- extra --set key=value ...]" >&2
    exit 2
fi
A=$1
B=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
configs="$here/../configs"
if [[ $# -gt 0 && $1 != "--" ]]; then
    configs=$1
    shift
fi
[[ $# -gt 0 && $1 == "--" ]] && shift
extra=("$@")
for bin in "$A" "$B"; do
    [[ -x $bin ]] || { echo "$0: '$bin' is not an executable nicsim" >&2; exit 2; }
done

# Same operating point as run_benchmarks.sh (see bench/README.md).
op_point=(--set platform.kernel.per_packet_stack_cost=370us)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints the file's bytes with the "host": {...} member cut out (as text, not re-serialised, so
# every other byte is compared as written).
strip_host() {
    python3 - "$1" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
json.loads(text)  # must be valid JSON
m = re.search(r',\s*"host"\s*:\s*\{[^{}]*\}', text)
if not m:
    sys.exit(sys.argv[1] + ": no flat 'host' block found")
sys.stdout.write(text[:m.start()] + text[m.end():])
PY
}

fail=0
n=0
for dir in tx rx; do
    for ps in false true; do
        for point in default op; do
            sets=(--set "driver.power_save=$ps" "${extra[@]}")
            [[ $point == op ]] && sets+=("${op_point[@]}")
            name="$dir-ps_$ps-$point"
            for side in A B; do
                bin=$A
                [[ $side == B ]] && bin=$B
                if ! "$bin" run "$configs/wilc1000-spi-ttcp-$dir.yaml" "${sets[@]}" --quiet \
                    --json "$tmp/$name.$side.json" >"$tmp/$name.$side.log" 2>&1; then
                    echo "FAIL $name: $bin exited non-zero:"
                    tail -5 "$tmp/$name.$side.log"
                    fail=1
                    continue 2
                fi
                strip_host "$tmp/$name.$side.json" >"$tmp/$name.$side.txt"
            done
            n=$((n + 1))
            if cmp -s "$tmp/$name.A.txt" "$tmp/$name.B.txt"; then
                echo "identical  $name"
            else
                echo "DIFFERENT  $name"
                diff "$tmp/$name.A.txt" "$tmp/$name.B.txt" | head -20 || true
                fail=1
            fi
        done
    done
done
[[ $fail == 0 ]] && echo "all $n scenario runs identical apart from the host block"
exit $fail
