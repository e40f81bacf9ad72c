#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Speed of every shipped scenario (issue 11): simulated seconds per wall second and per CPU
# second (whole process: start-up and config loading included, which dominates runs shorter
# than a second), and the SystemC activity per simulated frame (frames the chips moved, both
# directions) that explains them: local_time_waits (the driver threads' waits through
# bus/common/local_time.h: advances that could not run ahead and syncs) and delta cycles (every
# timed and delta step of the kernel: the figure to compare between builds). With a second
# binary it prints its speed, its delta cycles per frame and the ratio (A/B speed comparison,
# e.g. before and after a change; build the other tree at the same CMAKE_BUILD_TYPE).
#
#   bench/all_scenarios.py build/nicsim [--reps 3] [--against OTHER/nicsim] [--set K=V ...]
#   bench/all_scenarios.py build/nicsim --against OLD/build/nicsim --against-configs OLD/configs
#
# --against-configs: the other binary runs its own tree's scenario of the same name (a former
# tree's scenarios may use keys the other binary does not know, or lack ones this one needs);
# the A/B column is then simulated seconds per CPU second of each, so scenarios whose simulated
# time changed between the trees compare fairly ("former speed", issue 10). "A/B work" compares
# CPU per payload byte the flows moved instead: when the two trees' models move the same bytes
# in different simulated times, the A/B of simulated seconds per CPU second moves with the
# simulated throughput although the work per byte did not. Scenarios missing in the other tree
# are shown without a B column.
#
# The figures are host measurements: they depend on the machine and on what else runs on it,
# so they are printed here and recorded in bench/README.md, never asserted by tests.
import argparse
import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("nicsim")
ap.add_argument("--against", help="a second nicsim binary to compare with")
ap.add_argument("--reps", type=int, default=3)
ap.add_argument("--configs", default=os.path.join(here, "..", "configs"))
ap.add_argument("--against-configs", help="the other binary's own configs directory")
ap.add_argument("--set", action="append", default=[], help="extra --set for every run")
args = ap.parse_args()


def run_once(nicsim, cfg):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = [nicsim, "run", cfg, "--quiet", "--json", out.name]
        for s in args.set:
            cmd += ["--set", s]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(cmd, capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            with open(out.name) as f:
                r = json.load(f)
        except (OSError, json.JSONDecodeError):
            sys.exit(f"{cfg}: no report (exit {p.returncode}): {p.stderr[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    frames = sum(d.get("frames") or 0 for d in r["devices"]) or 1
    payload = sum(f.get("bytes") or 0 for f in r.get("flows", []))
    h = r["host"]
    # Builds older than the decoupling (3 Dec 2026) count neither: 0.
    return {"sim": r["sim_time_s"], "wall": h["wall_time_s"], "cpu": cpu,
            "waits": h.get("local_time_waits", 0) / frames,
            "delta": h.get("delta_cycles", 0) / frames,
            "rss": h["peak_rss_mb"], "frames": frames, "payload": payload}


def summary(runs):
    med = lambda k: statistics.median(x[k] for x in runs)
    sim = runs[0]["sim"]
    return {"sim": sim, "x_wall": sim / med("wall"), "x_cpu": sim / med("cpu"),
            "waits": runs[0]["waits"], "delta": runs[0]["delta"], "rss": max(x["rss"] for x in runs),
            "frames": runs[0]["frames"], "cpu": med("cpu"), "payload": runs[0]["payload"]}


cfgs = sorted(glob.glob(os.path.join(args.configs, "*.yaml")))
head = f"{'scenario':26} {'sim s':>8} {'frames':>7} {'x wall':>7} {'x CPU':>7} {'waits/fr':>9} {'deltas/fr':>9} {'RSS MB':>7}"
if args.against:
    head += f" | {'B x CPU':>8} {'B deltas/fr':>11} {'A/B':>6} {'A/B work':>8}"
print(head)
for cfg in cfgs:
    bcfg = None
    if args.against:
        bcfg = os.path.join(args.against_configs, os.path.basename(cfg)) if args.against_configs else cfg
        bcfg = bcfg if os.path.isfile(bcfg) else None
    # A and B take turns, so a machine whose speed drifts meanwhile affects both alike.
    ra, rb = [], []
    for _ in range(args.reps):
        ra.append(run_once(args.nicsim, cfg))
        if bcfg:
            rb.append(run_once(args.against, bcfg))
    a = summary(ra)
    line = (f"{os.path.basename(cfg)[:-5]:26} {a['sim']:8.3f} {a['frames']:7d} {a['x_wall']:6.1f}x"
            f" {a['x_cpu']:6.1f}x {a['waits']:9.1f} {a['delta']:9.1f} {a['rss']:7.1f}")
    if bcfg:
        b = summary(rb)
        line += f" | {b['x_cpu']:7.1f}x {b['delta']:11.1f} {a['x_cpu'] / b['x_cpu']:5.2f}x"
        # The same comparison per payload byte the flows moved: the trees' models may move the
        # same bytes in different simulated times (a faster simulated transfer is fewer
        # simulated seconds for the same CPU work).
        if a["payload"] and b["payload"]:
            line += f" {(b['cpu'] / b['payload']) / (a['cpu'] / a['payload']):7.2f}x"
    print(line, flush=True)
