#!/usr/bin/env bash
# The main demo (make demo): what chip sleep costs a WILC1000 on a SAMA5-class SPI board.
# The real Linux 6.1 wilc1000 driver sends 16 MiB with ttcp -t, once with chip sleep off and
# once with it on; the two reports are printed side by side.
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
echo "Calibration points (docs/sources.md#cal-wilc1000-sama5, ttcp -t on a SAMA5 board): ~1500 KB/s with"
echo "chip sleep off, ~400 KB/s with chip sleep on."
echo "Those are means of four and five runs; one simulated run (seed 1 above) lands on one of two"
echo "levels of the host's timing. '$build/nicsim validate' compares the mean of seeds 1-5 with them"
echo "(docs/calibration.md)."
