#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Simulation speed of the KS8851 SPI RX scenario (configs/ks8851-spi-iperf-rx.yaml, the
# calibration point): simulated seconds per wall-clock second of the simulation, from the JSON
# report (sim_time_s / host.wall_time_s), and per CPU second of the process (user + sys from
# getrusage), which is less sensitive to other load on the machine. Acceptance: >= 100x.
# usage: bench/bench_ks8851.sh <build dir> [runs (default 3)]
set -euo pipefail
build=${1:?usage: bench/bench_ks8851.sh <build dir> [runs]}
runs=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
exe="$build/nicsim"
[ -x "$exe" ] || { echo "bench_ks8851: no nicsim executable at $exe" >&2; exit 1; }
exec python3 - "$exe" "$here/../configs/ks8851-spi-iperf-rx.yaml" "$runs" <<'PY'
import json, os, resource, subprocess, sys, tempfile
exe, scenario, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
best_wall = best_cpu = 0.0
for i in range(1, runs + 1):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run([exe, "run", scenario, "--quiet", "--json", f.name],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            sys.exit("bench_ks8851: nicsim failed (%d):\n%s" % (p.returncode, p.stderr))
        r = json.load(open(f.name))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    sim, wall = r["sim_time_s"], r["host"]["wall_time_s"]
    rw, rc = sim / wall, sim / max(cpu, 1e-6)
    best_wall, best_cpu = max(best_wall, rw), max(best_cpu, rc)
    print("run %d: simulated %.3f s, wall %.3f s, cpu %.3f s: %.1fx real time (wall), %.1fx (cpu);"
          " goodput %.0f Kbit/s" % (i, sim, wall, cpu, rw, rc, r["totals"]["goodput_bps"] / 1e3))
print("ks8851-spi-iperf-rx: best %.1fx real time (simulated/wall), %.1fx per CPU second "
      "(acceptance >= 100x)" % (best_wall, best_cpu))
PY
