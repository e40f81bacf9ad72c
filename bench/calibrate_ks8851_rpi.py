#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fits the one calibrated parameter of the KS8851-on-Raspberry-Pi setup,
spi_host.per_message_overhead of configs/platforms/rpi-class.yaml, to the calibration point
configs/validation/ks8851-spi-iperf-rx.yaml (docs/sources.md#cal-ks8851-revpi: KSZ8851SNL at
25 MHz SPI on a RevPi, iperf3 -c, board receiving, 15960 Kbit/s), by `nicsim calibrate`
(docs/your-board.md): each candidate is judged by the mean of the file's seeds 1-5.

The measurement ran a PREEMPT_RT 4.19 kernel, before the 6.0 spi_sync fast path, so the 6.x
figure of docs/sources.md#linux-host-latencies does not carry over; every other value of the
profile keeps its stated source or assumption.

It writes the fitted profile to OUT (default /tmp/rpi-class-fitted.yaml) and prints what moved;
copy the value into configs/platforms/rpi-class.yaml.
usage: bench/calibrate_ks8851_rpi.py <build dir> [OUT] [-- more nicsim calibrate options]"""
from calibrate_point import calibrate

calibrate(["ks8851-spi-iperf-rx.yaml"], ["--key", "spi_host.per_message_overhead"],
          "/tmp/rpi-class-fitted.yaml")
