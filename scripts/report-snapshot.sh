#!/usr/bin/env bash
# Runs every shipped scenario (and the WILC1000 ones again with chip sleep off) and keeps each
# report (--json without its "host" part, and the text report) plus a short trace window (VCD,
# timeline, log) in <out dir>. Two snapshots taken before and after a refactoring are compared
# with `diff -r`: a refactoring that must not change behaviour leaves them identical.
# Usage: scripts/report-snapshot.sh <build dir or nicsim binary> <out dir>
#        scripts/report-snapshot.sh --compare <dir a> <dir b>
set -euo pipefail
if [[ "${1:-}" == "--compare" ]]; then
    diff -r "$2" "$3" && echo "identical: $2 $3"
    exit
fi
build=${1:?build dir}
nicsim=$build/nicsim
[[ -f $build && -x $build ]] && nicsim=$build # a nicsim binary instead of a build dir
out=${2:?out dir}
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
strip_host() { # the report without "host" (machine, wall time) and with file names only
    python3 - "$1" <<'PY'
import json, os, sys
def norm(v):
    if isinstance(v, dict):
        return {k: (os.path.basename(x) if k.endswith("_file") and isinstance(x, str) else norm(x))
                for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    return v
j = json.load(open(sys.argv[1]))
j.pop("host", None)
print(json.dumps(norm(j), indent=1, sort_keys=True))
PY
}
run_one() { # <tag> <config> [--set ...]
    local tag=$1 cfg=$2
    shift 2
    # A run that completes but falls short of its traffic exits 4 and still writes its report:
    # the exit code is kept (only when non-zero) so a change of verdict shows in the comparison.
    local rc=0
    "$nicsim" run "$cfg" "$@" --quiet --json "$out/$tag.raw.json" >/dev/null 2>"$out/$tag.stderr" ||
        rc=$?
    [[ $rc == 0 ]] || echo "$rc" >"$out/$tag.rc"
    if [[ -f $out/$tag.raw.json ]]; then
        strip_host "$out/$tag.raw.json" >"$out/$tag.json"
        rm "$out/$tag.raw.json"
    fi
    local short=(--set traffic.bytes=256KiB)
    grep -q 'kind: *ping' "$cfg" && short=(--set traffic.count=3)
    "$nicsim" run "$cfg" "$@" "${short[@]}" \
        --vcd "$out/$tag.vcd" --timeline "$out/$tag.timeline.json" --log "$out/$tag.log" \
        --set trace.window_end=30ms --quiet >/dev/null 2>&1 || true
    # the VCD header carries the date
    sed -i '/^\$date/,/^\$end/d' "$out/$tag.vcd"
}
# NICSIM_SNAPSHOT_CONFIGS: the configs/ of another checkout (e.g. the tree before a change).
for cfg in "${NICSIM_SNAPSHOT_CONFIGS:-$here/configs}"/*.yaml; do
    tag=$(basename "$cfg" .yaml)
    echo "== $tag"
    run_one "$tag" "$cfg"
    case $tag in wilc1000-*) run_one "$tag-ps-off" "$cfg" --set driver.power_save=false ;; esac
done
