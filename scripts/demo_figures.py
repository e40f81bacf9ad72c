#!/usr/bin/env python3
"""The demo's key figures from `nicsim run --json` reports, one column per run.

Usage: demo_figures.py LABEL=REPORT.json ...   (standard library only; `nicsim compare` shows
every figure of the same reports side by side).
"""
import json
import sys


def figures(report):
    dev = report["devices"][0]
    frames = dev["frames_tx"] + dev["frames_rx"]
    power = dev.get("avg_power_w")
    energy = dev.get("energy_j")
    return [
        ("goodput", "%.1f KB/s" % (report["totals"]["goodput_bps"] / 8192)),
        ("chip wake-ups", "%d" % dev["wakeups"]),
        ("SPI transactions per frame",
         "%.2f" % (dev["bus_stats"]["transactions"] / frames) if frames else "-"),
        ("chip average power", "%.1f mW" % (power * 1e3) if power is not None else "-"),
        ("chip energy", "%.3f J" % energy if energy is not None else "-"),
        ("host CPU busy", "%.1f %%" % (report["host_cpu"]["busy_share"] * 100)),
        ("simulated time", "%.3f s" % report["sim_time_s"]),
    ]


def main(args):
    if not args or any("=" not in a for a in args):
        sys.exit("usage: demo_figures.py LABEL=REPORT.json ...")
    columns = []
    for a in args:
        label, path = a.split("=", 1)
        with open(path) as f:
            columns.append((label, figures(json.load(f))))
    names = [n for n, _ in columns[0][1]]
    wn = max(len(n) for n in names)
    w = max([len(label) for label, _ in columns] +
            [len(v) for _, fig in columns for _, v in fig])
    print("  " + " " * wn + "".join("  " + label.rjust(w) for label, _ in columns))
    for i, n in enumerate(names):
        print("  " + n.ljust(wn) + "".join("  " + fig[i][1].rjust(w) for _, fig in columns))


if __name__ == "__main__":
    main(sys.argv[1:])
