#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Temporal decoupling is exact (bus/common/local_time.h): every shipped scenario, and the four
# WILC1000 power-save rows of the studies, give the same --json report with sim.quantum=0 (exact
# mode: every bus phase a wait) and with the default quantum, apart from the `host` block and the
# recorded --set list. Runs are shortened (--set duration) so the suite stays fast; the parallel
# bus scenarios, where decoupling does the most, get the shortest window that still carries
# traffic. It also requires that decoupling did something where it should (local steps > 0 on
# the parallel bus), so a build that silently fell back to exact mode fails.
import glob
import json
import os
import subprocess
import sys

nicsim, configs = sys.argv[1], sys.argv[2]


def run(cfg, sets):
    args = [nicsim, "run", cfg, "--quiet", "--json", "-"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    try:
        return p.returncode, json.loads(p.stdout)
    except json.JSONDecodeError:
        sys.exit(f"{cfg} {sets}: no JSON report (exit {p.returncode}): {p.stderr[-500:]}")


def diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{path}.{k}: only in one" for k in set(a) ^ set(b)]
        for k in set(a) & set(b):
            out += diff(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} entries"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: {a} (exact) vs {b} (decoupled)"]


cases = []
for cfg in sorted(glob.glob(os.path.join(configs, "*.yaml"))):
    name = os.path.basename(cfg)
    window = "0.3s" if name.startswith("ks8851-par") else "6s"
    cases.append((cfg, [f"duration={window}"]))
tx = os.path.join(configs, "wilc1000-spi-ttcp-tx.yaml")
rx = os.path.join(configs, "wilc1000-spi-ttcp-rx.yaml")
for cfg in (tx, rx):  # the power-save study rows: chip sleep off and on
    for ps in ("false", "true"):
        cases.append((cfg, ["duration=6s", f"driver.power_save={ps}"]))

failures = 0
for cfg, sets in cases:
    rc0, exact = run(cfg, sets + ["sim.quantum=0"])
    rc1, dec = run(cfg, sets)
    h0, h1 = exact.pop("host"), dec.pop("host")
    for r in (exact, dec):
        r["run"].pop("overrides", None)
    d = diff(exact, dec)
    if rc0 != rc1:
        d.insert(0, f"exit code {rc0} (exact) vs {rc1} (decoupled)")
    if h0["local_time_steps"] != 0:
        d.append(f"exact mode took {h0['local_time_steps']} local steps")
    if "ks8851-par" in cfg and h1["local_time_steps"] == 0:
        d.append("the parallel bus took no local steps: decoupling is off")
    label = f"{os.path.basename(cfg)} {' '.join(sets)}"
    if d:
        failures += 1
        print(f"DIFFERENT {label}")
        for line in sorted(d)[:20]:
            print(f"    {line}")
    else:
        print(f"identical {label}: waits {h0['local_time_waits']} -> {h1['local_time_waits']}, "
              f"delta cycles {h0['delta_cycles']} -> {h1['delta_cycles']}")
sys.exit(1 if failures else 0)
