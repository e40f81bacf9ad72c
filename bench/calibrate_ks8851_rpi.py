#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fits the one calibrated parameter of the KS8851-on-Raspberry-Pi setup to the calibration point
of docs/sources.md#cal-ks8851-revpi: KSZ8851SNL at 25 MHz SPI on a RevPi (Raspberry Pi Compute
Module), iperf3 -c, board receiving as labelled by the tester: 15960 Kbit/s.

The parameter is spi_host.per_message_overhead of configs/platforms/rpi-class.yaml: the software
cost of one spi_sync on the board's CPU. The measurement ran a PREEMPT_RT 4.19 kernel, before the
6.0 spi_sync fast path, so the 6.x figure of docs/sources.md#linux-host-latencies (about 12 us per message on a
RPi) does not carry over; every other value of the profile keeps its stated source or
assumption. The goodput falls monotonically with the overhead, so bisection finds it.

It prints the fitted value and the run that confirms it; copy the value into
configs/platforms/rpi-class.yaml.
usage: bench/calibrate_ks8851_rpi.py <build dir> [bytes]"""
import json, os, subprocess, sys, tempfile

build = sys.argv[1] if len(sys.argv) > 1 else "build"
nbytes = sys.argv[2] if len(sys.argv) > 2 else "16MiB"
scenario = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs",
                        "ks8851-spi-iperf-rx.yaml")
TARGET = 15960e3  # bit/s (iperf3 prints Kbit/s with 1 K = 1000)


def goodput(overhead_us):
    # The median of three seeds: at some overheads one seed's run falls into repeated RXQ
    # overruns and retransmission-timeout backoff (a cliff of a few Mbit/s), which a single run
    # would let steer the bisection.
    g = sorted(goodput_seed(overhead_us, seed) for seed in (1, 2, 3))
    return g[1]


def goodput_seed(overhead_us, seed):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        cmd = [os.path.join(build, "nicsim"), "run", scenario, "--quiet", "--json", f.name,
               "--set", "traffic.bytes=" + nbytes, "--set", "seed=%d" % seed,
               "--set", "platform.spi_host.per_message_overhead=%.2fus" % overhead_us]
        # Exit 4: the run ended at its duration limit before all bytes arrived; its report still
        # has the goodput the bisection needs.
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        if rc not in (0, 4):
            raise SystemExit("calibrate: %s exited %d" % (" ".join(cmd), rc))
        r = json.load(open(f.name))
    return r["totals"]["goodput_bps"]


lo, hi = 0.0, 200.0
if goodput(lo) < TARGET:
    sys.exit("even with zero spi_sync overhead the model is below the target: nothing to fit")
for _ in range(14):
    mid = (lo + hi) / 2
    if goodput(mid) > TARGET:
        lo = mid
    else:
        hi = mid
fit = round((lo + hi) / 2, 1)
g = goodput(fit)
print("spi_host.per_message_overhead = %.1fus" % fit)
print("iperf rx goodput: %.0f Kbit/s (target %.0f, %+.1f %%)" % (g / 1e3, TARGET / 1e3,
                                                               100 * (g / TARGET - 1)))
