#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Simulation speed benchmark (issue 3, item 7): runs the WILC1000 ttcp scenarios with chip sleep
# off and on, TX and RX, a few times each, and prints simulated seconds, wall seconds, simulated
# seconds per wall second, peak RSS and SPI transactions per wall second.
#
# usage: bench/run_benchmarks.sh <build dir> [--reps N] [--set key=value ...]
#   --set ...  passed to every run (e.g. an operating point the configs do not hold yet)
#   --reps N   repetitions per scenario (default 3)
# The figures are host measurements (they depend on the machine and its load): they are
# reported, never asserted by tests. Wall time and peak RSS are nicsim's own `host` block
# (wall time of the simulation, without process start-up and config loading).
set -euo pipefail

if [[ $# -lt 1 || $1 == -h || $1 == --help ]]; then
    sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
build=$1
shift
reps=3
sets=()
while [[ $# -gt 0 ]]; do
    case $1 in
    --reps)
        [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || { echo "$0: --reps needs a positive integer" >&2; exit 2; }
        reps=$2
        shift 2
        ;;
    --set)
        [[ $# -ge 2 ]] || { echo "$0: --set needs key=value" >&2; exit 2; }
        sets+=(--set "$2")
        shift 2
        ;;
    *)
        echo "$0: unknown argument '$1' (expected --reps N or --set key=value)" >&2
        exit 2
        ;;
    esac
done

nicsim=$build/nicsim
[[ -x $nicsim ]] || { echo "$0: no nicsim executable in '$build' (build target nicsim first)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
configs=$here/../configs


echo "nicsim benchmark: $nicsim, $reps repetition(s), extra settings: ${sets[*]:-(none)}"
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# The runs are started from Python so that each one's CPU time (user + sys of the whole process,
# from getrusage of the child) can be shown next to its wall time: on a loaded machine wall time
# exceeds CPU time and the sim/wall ratio understates the simulator's speed.
python3 - "$nicsim" "$configs" "$reps" "${sets[@]}" <<'PY'
import json, os, resource, statistics, subprocess, sys, tempfile

nicsim, configs, reps, sets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
summary = {}
print()
print("%-8s %-5s %3s %9s %8s %9s %8s %10s %7s %11s" % ("scenario", "ps", "rep", "sim_s", "wall_s",
      "sim/wall", "cpu_s", "sim/cpu", "rss_MB", "spi_txn/s"))
with tempfile.TemporaryDirectory() as tmp:
    for d in ("tx", "rx"):
        for ps in ("false", "true"):
            ratios, cpu_ratios, rss = [], [], []
            for r in range(1, reps + 1):
                out = os.path.join(tmp, "run.json")
                cmd = [nicsim, "run", os.path.join(configs, "wilc1000-spi-ttcp-%s.yaml" % d),
                       "--set", "driver.power_save=" + ps] + sets + ["--quiet", "--json", out]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if p.returncode != 0:
                    sys.exit("run failed (%s): %s\n%s" % (p.returncode, " ".join(cmd),
                                                          p.stdout[-2000:]))
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                j = json.load(open(out))
                sim, wall = j["sim_time_s"], j["host"]["wall_time_s"]
                txn = sum(dev["bus_stats"]["transactions"] for dev in j["devices"])
                ratios.append(sim / wall)
                cpu_ratios.append(sim / cpu if cpu > 0 else float("inf"))
                rss.append(j["host"]["peak_rss_mb"])
                print("%-8s %-5s %3d %9.3f %8.3f %8.1fx %8.3f %9.1fx %7.1f %11.0f" % (
                    "ttcp-" + d, "on" if ps == "true" else "off", r, sim, wall, sim / wall, cpu,
                    cpu_ratios[-1], rss[-1], txn / wall))
            summary[(d, ps)] = (statistics.median(ratios), statistics.median(cpu_ratios), max(rss))
print()
for (d, ps), (ratio, cratio, rss) in summary.items():
    print("ttcp-%s power save %-3s: median %6.1fx real time (wall), %6.1fx per CPU second, "
          "peak RSS %.1f MB" % (d, "on" if ps == "true" else "off", ratio, cratio, rss))
ratio, cratio, rss = summary[("tx", "false")]
print("issue 3 target, TX power save off: >= 100x real time and < 200 MB peak RSS -> %s" % (
    "met" if ratio >= 100 and rss < 200 else "NOT met (wall)"))
PY
