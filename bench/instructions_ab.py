#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Instructions per simulated second and per payload byte of two nicsim builds, counted by
# valgrind's callgrind: a deterministic A/B for speed work on a machine whose timings drift
# (the 2-core VM's CPU seconds moved by up to 70 % between minutes on 6 Dec 2026). It counts
# instructions only: cache misses, branch mispredictions and coroutine switches cost cycles it
# does not see, so bench/all_scenarios.py (CPU time) stays the measure of speed; this says
# whether a change did less work.
#
#   bench/instructions_ab.py A/nicsim B/nicsim --configs DIR [--against-configs DIR] [--set K=V]
#
# Prints per scenario: simulated seconds, payload bytes the flows moved, instructions of A and
# B, and the ratios B/A per simulated second and per payload byte (above 1: A does less work).
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("--configs", required=True)
ap.add_argument("--against-configs", help="B's own configs directory (default: --configs)")
ap.add_argument("--set", action="append", default=[], help="extra --set for every run")
args = ap.parse_args()


def count(nicsim, cfg):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", nicsim, "run",
               cfg, "--quiet", "--json", out.name]
        for s in args.set:
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True)
        m = re.search(r"Collected : (\d+)", p.stderr)
        try:
            with open(out.name) as f:
                r = json.load(f)
        except (OSError, json.JSONDecodeError):
            r = None
        if not m or r is None:
            sys.exit(f"{cfg}: no count or report (exit {p.returncode}): {p.stderr[-400:]}")
    payload = sum(f.get("bytes") or 0 for f in r.get("flows", []))
    return int(m.group(1)), r["sim_time_s"], payload


print(f"{'scenario':26} {'sim s A':>8} {'sim s B':>8} {'Ir A (M)':>9} {'Ir B (M)':>9}"
      f" {'B/A per sim s':>13} {'B/A per byte':>12}")
for cfg in sorted(glob.glob(os.path.join(args.configs, "*.yaml"))):
    bcfg = os.path.join(args.against_configs or args.configs, os.path.basename(cfg))
    ia, sa, pa = count(args.a, cfg)
    ib, sb, pb = count(args.b, bcfg)
    per_byte = f"{(ib / pb) / (ia / pa):12.2f}" if pa and pb else f"{'-':>12}"
    print(f"{os.path.basename(cfg)[:-5]:26} {sa:8.3f} {sb:8.3f} {ia / 1e6:9.1f} {ib / 1e6:9.1f}"
          f" {(ib / sb) / (ia / sa):13.2f} {per_byte}", flush=True)
