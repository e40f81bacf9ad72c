#!/usr/bin/env bash
# The main demo (make demo): what chip sleep costs a WILC1000 on a SAMA5-class SPI board.
# The real Linux 6.1 wilc1000 driver sends 16 MiB with ttcp -t, once with chip sleep off and
# once with it on, and the driver before Linux 5.17, whose wake-up the calibration points
# measured, with chip sleep on: their key figures side by side; then the chip's idle power.
# Short on purpose (make demo prints under 80 lines in all): the reports stay in <build>/demo/
# for `nicsim compare` (every figure), each run's stderr (the driver's kernel log) next to them.
# Usage: scripts/demo.sh <build dir>
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
out="$build/demo"
mkdir -p "$out"
scenario="$here/configs/wilc1000-spi-ttcp-tx.yaml"

# run NAME --set ...: one quiet run, its report in $out/NAME.json, its stderr in $out/NAME.log
# (shown when the run fails).
run() {
    local name=$1
    shift
    "$build/nicsim" run "$scenario" "$@" --quiet --json "$out/$name.json" 2>"$out/$name.log" || {
        echo "demo: nicsim run configs/wilc1000-spi-ttcp-tx.yaml $* failed:" >&2
        cat "$out/$name.log" >&2
        exit 1
    }
}

echo "== 16 MiB ttcp -t: nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.power_save=..."
echo "   (the 5.16 column: --set driver.variant=chip-sleep-5.16, every wake-up sleeps 2-2.5 ms,"
echo "    and --set platform.kernel.spi_sync_fast_path=false, the SPI core before 6.0)"
run ps-false --set driver.power_save=false
run ps-true --set driver.power_save=true
run old --set driver.variant=chip-sleep-5.16 --set platform.kernel.spi_sync_fast_path=false \
    --set driver.power_save=true
python3 "$here/scripts/demo_figures.py" "6.1, sleep off=$out/ps-false.json" \
    "6.1, sleep on=$out/ps-true.json" "5.16, sleep on=$out/old.json"
# Two lines: the build directory's name (build-asan under make test) must not push it past 100
# columns.
echo "   every figure, side by side:"
echo "     $build/nicsim compare $out/ps-false.json $out/ps-true.json"
echo
# The other side of the trade-off: the same board idle and associated, where power save lets the
# radio doze between DTIM beacons (docs/studies.md, the DTIM studies).
echo "== idle and associated for 10 s: --set 'traffic={kind: idle}' --set duration=10s"
for ps in false true; do
    run "idle-$ps" --set 'traffic={kind: idle}' --set duration=10s --set driver.power_save=$ps
    power=$(python3 -c 'import json, sys
print("%.1f mW" % (1e3 * json.load(open(sys.argv[1]))["devices"][0]["avg_power_w"]))' \
        "$out/idle-$ps.json")
    echo "   driver.power_save=$ps: chip average power $power"
done
echo
echo "Calibration points (docs/sources.md#cal-wilc1000-sama5, ttcp -t on a SAMA5 board, Dec 2021):"
echo "~1500 KB/s with chip sleep off, ~400 KB/s with it on, on the driver before 5.17 and the SPI"
echo "core before 6.0 (the last column). The 6.1 driver polls the chip's clock instead of sleeping,"
echo "and the chip keeps its clock while it has work, so chip sleep costs it far less; the 6.x SPI"
echo "core also skips the message pump after every message. '$build/nicsim validate' compares the"
echo "mean of seeds 1-5 with the points (docs/calibration.md)."
