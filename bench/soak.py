#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Soak (issue 13 deliverable 6): long runs that must show flat memory and no leaked skbs.

Runs each scenario with its TCP traffic sized for FRAMES data frames (traffic.bytes = FRAMES x
1448 B, the MSS with timestamps; the duration limit is lifted so the traffic decides the end),
samples the nicsim process's resident memory (VmRSS in /proc/PID/status) every INTERVAL seconds
of wall time, and reports per run: frames and bytes delivered, peak RSS, the RSS slope (least
squares over the samples after the first 20 % of the run, the bring-up and the TCP window's
growth) in MB per minute and in MB per 10^5 frames, and skbs_in_flight from the JSON report
(the emulation's live skbs at the end) and skbs_leaked (still alive after the ifdown that follows
the run). A run passes when it delivered what it asked for, skbs_leaked is 0 (skbs_in_flight may
be a frame or two the driver still held when the traffic completed; the ifdown frees those), no
finding mentions a leak and the RSS grew by less than --max-growth MB
per 10^5 frames. Not part of `make test` (minutes per run); results in bench/README.md.

Usage: bench/soak.py [--frames N] [--interval S] [--max-growth MB] [--json OUT] BUILD_OR_NICSIM
                     [CONFIG...]
  default configs: configs/ks8851-spi-iperf-rx.yaml configs/wilc1000-spi-ttcp-tx.yaml
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MSS = 1448


def rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return None


def slope(points):
    """Least-squares slope of (x, y) points; 0 for fewer than two."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    if sxx == 0:
        return 0.0
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx


def soak(nicsim, config, frames, interval, max_growth):
    out = tempfile.mkdtemp(prefix="nicsim-soak-")
    report = os.path.join(out, "report.json")
    cmd = [nicsim, "run", config, "--set", f"traffic.bytes={frames * MSS}",
           "--set", "duration=100000s", "-q", "--json", report]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    samples = []  # (wall s, RSS MB)
    while proc.poll() is None:
        r = rss_mb(proc.pid)
        if r is not None:
            samples.append((time.monotonic() - t0, r))
        time.sleep(interval)
    err = proc.stderr.read()
    wall = time.monotonic() - t0
    res = {"config": os.path.relpath(config, ROOT), "command": " ".join(cmd[1:]),
           "exit": proc.returncode, "wall_s": round(wall, 1), "samples": len(samples)}
    if not os.path.exists(report):
        res.update(ok=False, error="no report: " + err.strip()[-500:])
        return res
    rep = json.load(open(report))
    flow = rep["flows"][0]
    tail = [s for s in samples if s[0] >= 0.2 * wall]
    per_s = slope(tail)
    delivered_frames = flow.get("frames") or 0
    frames_per_s = delivered_frames / wall if wall > 0 else 0
    growth_per_1e5 = per_s / frames_per_s * 1e5 if frames_per_s else 0.0
    leak_findings = [f["message"] for f in rep.get("findings", [])
                     if "leak" in f["message"].lower()]
    res.update(
        sim_time_s=rep["sim_time_s"], end_reason=rep.get("end_reason"),
        bytes=flow.get("bytes"), frames=delivered_frames,
        goodput_mbps=round((flow.get("goodput_bps") or 0) / 1e6, 3),
        skbs_in_flight=rep.get("skbs_in_flight"),
        skbs_leaked=rep.get("skbs_leaked"),
        rss_first_mb=round(samples[0][1], 1) if samples else None,
        rss_after_warmup_mb=round(tail[0][1], 1) if tail else None,
        rss_last_mb=round(samples[-1][1], 1) if samples else None,
        rss_peak_mb=round(max(s[1] for s in samples), 1) if samples else None,
        report_peak_rss_mb=rep.get("host", {}).get("peak_rss_mb"),
        rss_slope_mb_per_min=round(per_s * 60, 3),
        rss_growth_mb_per_1e5_frames=round(growth_per_1e5, 3),
        leak_findings=leak_findings)
    res["ok"] = (proc.returncode == 0 and res["skbs_leaked"] == 0 and not leak_findings
                 and flow.get("bytes") == frames * MSS and abs(growth_per_1e5) < max_growth)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nicsim", help="build directory or nicsim binary")
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--frames", type=int, default=1_000_000)
    ap.add_argument("--interval", type=float, default=0.25, help="RSS sample period, wall s")
    ap.add_argument("--max-growth", type=float, default=1.0,
                    help="largest RSS slope that passes, MB per 10^5 frames")
    ap.add_argument("--json", help="write the results as JSON to this file")
    a = ap.parse_args()
    nicsim = a.nicsim
    if os.path.isdir(nicsim):
        nicsim = os.path.join(nicsim, "nicsim")
    configs = a.configs or [os.path.join(ROOT, "configs", c) for c in
                            ("ks8851-spi-iperf-rx.yaml", "wilc1000-spi-ttcp-tx.yaml")]
    results = []
    for c in configs:
        r = soak(nicsim, c, a.frames, a.interval, a.max_growth)
        results.append(r)
        if "error" in r:
            print(f"{r['config']}: FAILED: {r['error']}")
            continue
        print(f"{r['config']}: {r['frames']} frames, {r['bytes']} B in {r['sim_time_s']:.1f} s "
              f"simulated ({r['goodput_mbps']} Mbit/s), {r['wall_s']} s wall, exit {r['exit']}")
        print(f"  RSS: first {r['rss_first_mb']} MB, after warm-up {r['rss_after_warmup_mb']} MB, "
              f"last {r['rss_last_mb']} MB, peak {r['rss_peak_mb']} MB ({r['samples']} samples); "
              f"slope {r['rss_slope_mb_per_min']} MB/min = "
              f"{r['rss_growth_mb_per_1e5_frames']} MB per 10^5 frames")
        print(f"  skbs_in_flight {r['skbs_in_flight']}, skbs_leaked {r['skbs_leaked']}, "
              f"leak findings {len(r['leak_findings'])}"
              f" -> {'ok' if r['ok'] else 'FAILED'}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    sys.exit(0 if all(r["ok"] for r in results) else 1)


if __name__ == "__main__":
    main()
