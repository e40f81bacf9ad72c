#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Temporal decoupling is exact (bus/common/local_time.h): every shipped scenario, and the four
# WILC1000 power-save rows of the studies, give the same --json report with sim.quantum=0 (exact
# mode: every bus phase a wait) and with the default quantum, apart from the `host` block and the
# recorded --set list. Runs are shortened (--set duration) so the suite stays fast; the parallel
# bus scenarios, where decoupling does the most, get the shortest window that still carries
# traffic. It also requires that decoupling did something where it should (local steps > 0 on
# the parallel, SPI and SDIO buses), so a build that silently fell back to exact mode fails, and that
# the traces (VCD, timeline, transaction log, pcapng) of one window per decoupled bus are byte
# for byte the same in both modes.
import filecmp
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

nicsim, configs = sys.argv[1], sys.argv[2]
# Optional third argument: run one part only, so CTest can spread the parts over the cores (the
# sanitizer build runs every scenario several times slower): a scenario file's base name without
# .yaml, "power-save-rows", or "traces". Without it, everything.
part = sys.argv[3] if len(sys.argv) > 3 else None


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


# Where a mechanism keeps a thread on local time, a bound on the decoupled run's waits per frame
# (deterministic counts, not timings), so losing the mechanism fails even though the reports
# stay identical: the parallel-bus TX spin (host_stack's NETDEV_TX_BUSY retry on local time: 6.8
# per frame, 37.6 when every retry waited) and the WILC1000 SDIO card (register reads at local
# time, the interrupt period synced only for a waiter: 15.3 and 11.9, 59.7 and 35.6 before).
WAITS_PER_FRAME_MAX = {"ks8851-par-iperf-tx.yaml": 15, "wilc1000-sdio-ttcp-tx.yaml": 30,
                       "wilc1000-sdio-ttcp-rx.yaml": 20}

cases = []
for cfg in sorted(glob.glob(os.path.join(configs, "*.yaml"))):
    name = os.path.basename(cfg)
    window = "0.3s" if name.startswith("ks8851-par") else "6s"
    if part in (None, name[:-len(".yaml")]):
        cases.append((cfg, [f"duration={window}"]))
tx = os.path.join(configs, "wilc1000-spi-ttcp-tx.yaml")
rx = os.path.join(configs, "wilc1000-spi-ttcp-rx.yaml")
for cfg in (tx, rx) if part in (None, "power-save-rows") else ():
    for ps in ("false", "true"):  # the power-save study rows: chip sleep off and on
        cases.append((cfg, ["duration=6s", f"driver.power_save={ps}"]))

if part is not None and not cases and part != "traces":
    sys.exit(f"no part named {part!r}")
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
    if any(b in cfg for b in ("-par-", "-spi-", "-sdio-")) and h1["local_time_steps"] == 0:
        d.append("the bus took no local steps: decoupling is off")
    bound = WAITS_PER_FRAME_MAX.get(os.path.basename(cfg))
    frames = sum(dev["frames"] for dev in dec["devices"])
    if bound and len(sets) == 1 and frames and h1["local_time_waits"] / frames > bound:
        d.append(f"{h1['local_time_waits'] / frames:.1f} waits per frame decoupled, at most "
                 f"{bound} expected: a local-time path fell back to waiting")
    label = f"{os.path.basename(cfg)} {' '.join(sets)}"
    if d:
        failures += 1
        print(f"DIFFERENT {label}")
        for line in sorted(d)[:20]:
            print(f"    {line}")
    else:
        print(f"identical {label}: waits {h0['local_time_waits']} -> {h1['local_time_waits']}, "
              f"delta cycles {h0['delta_cycles']} -> {h1['delta_cycles']}")
# Traces stay exact: every transaction, IRQ edge, power state and frame at its own time, so the
# VCD, the timeline, the transaction log and the pcapng are byte for byte the same in both modes
# (one short window per decoupled bus).
if part not in (None, "traces"):
    sys.exit(1 if failures else 0)
tmp = tempfile.mkdtemp(prefix="nicsim-decoupling-")
try:
    windows = {"wilc1000-spi-ttcp-tx": ("0.3s", "0.29s:0.3s"),
               "ks8851-spi-iperf-rx": ("0.06s", "0.05s:0.06s"),
               "ks8851-par-iperf-tx": ("0.045s", "0.042s:0.045s"),
               "wilc1000-sdio-ttcp-tx": ("0.3s", "0.29s:0.3s")}
    for name, (duration, window) in windows.items():
        cfg = os.path.join(configs, name + ".yaml")
        outs = {}
        for mode, q in (("exact", "0"), ("decoupled", "1ms")):
            base = os.path.join(tmp, f"{name}-{mode}")
            args = [nicsim, "run", cfg, "--quiet", "--set", f"duration={duration}",
                    "--set", f"sim.quantum={q}", "--trace-window", window, "--vcd", base + ".vcd", "--timeline", base + ".json",
                    "--log", base + ".log", "--pcap", base + ".pcap"]
            p = subprocess.run(args, capture_output=True, text=True, timeout=600)
            if p.returncode not in (0, 4):  # 4: the short window ends the transfer early
                sys.exit(f"{name} traces ({mode}): exit {p.returncode}: {p.stderr[-500:]}")
            outs[mode] = base
        for ext in ("vcd", "json", "log", "pcap"):
            a, b = outs["exact"] + "." + ext, outs["decoupled"] + "." + ext
            if os.path.getsize(a) == 0:
                failures += 1
                print(f"EMPTY {name}.{ext}")
            elif not filecmp.cmp(a, b, shallow=False):
                failures += 1
                print(f"DIFFERENT {name}.{ext} trace")
            else:
                print(f"identical {name}.{ext} trace ({os.path.getsize(a)} bytes)")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failures else 0)
