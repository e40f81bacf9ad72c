#!/usr/bin/env bash
# The main demo (make demo): what chip sleep costs a WILC1000 on a SAMA5-class SPI board.
# The real Linux 6.1 wilc1000 driver sends 16 MiB with ttcp -t, once with chip sleep off and
# once with it on; the two reports are printed side by side; then the driver before Linux 5.17,
# whose wake-up the calibration points measured, with chip sleep on; then the chip's idle power.
# Usage: scripts/demo.sh <build dir>
set -euo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

scenario="$here/configs/wilc1000-spi-ttcp-tx.yaml"
for ps in false true; do
    echo "== nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.power_save=$ps"
    "$build/nicsim" run "$scenario" --set driver.power_save=$ps --quiet --json "$out/ps-$ps.json"
done
echo
"$build/nicsim" compare "$out/ps-false.json" "$out/ps-true.json"
echo
echo "== the driver before 5.17 (every wake-up sleeps 2-2.5 ms): nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.variant=chip-sleep-5.16 --set driver.power_save=true"
"$build/nicsim" run "$scenario" --set driver.variant=chip-sleep-5.16 --set driver.power_save=true \
    --quiet --json "$out/old.json"
python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print("  goodput %.1f KB/s, %d chip wake-ups" % (r["totals"]["goodput_bps"] / 8192, r["devices"][0]["wakeups"]))' \
    "$out/old.json"
echo
# The other side of the trade-off: the same board idle and associated, where power save lets the
# radio doze between DTIM beacons (docs/studies.md, the DTIM studies).
echo "== idle and associated for 10 s: nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set 'traffic={kind: idle}'"
for ps in false true; do
    "$build/nicsim" run "$scenario" --set 'traffic={kind: idle}' --set duration=10s \
        --set driver.power_save=$ps --quiet --json "$out/idle-$ps.json" >/dev/null \
        2>"$out/idle-$ps.err" || { cat "$out/idle-$ps.err" >&2; exit 1; }
    power=$(python3 -c 'import json, sys
print("%.1f mW" % (1e3 * json.load(open(sys.argv[1]))["devices"][0]["avg_power_w"]))' \
        "$out/idle-$ps.json")
    echo "  driver.power_save=$ps: chip average power $power"
done
echo
echo "Calibration points (docs/sources.md#cal-wilc1000-sama5, ttcp -t on a SAMA5 board, Dec 2021):"
echo "~1500 KB/s with chip sleep off, ~400 KB/s with it on, on the driver before 5.17 (the last run)."
echo "The 6.1 driver polls the chip's clock instead of sleeping, and the chip keeps its clock while it"
echo "has work, so chip sleep costs it far less. '$build/nicsim validate' compares the mean of seeds"
echo "1-5 with the points (docs/calibration.md)."
