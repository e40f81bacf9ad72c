#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The board profiles (configs/platforms/{rpi3b,rpi4b,rpi5,stm32mp157,imx6ull,sama5d27}.yaml,
docs/scenarios.md#board-profiles) load and run every shipped scenario they can host, each at
the SCK / SD clock its controller's divider makes of the scenario's requested clock; a scenario
whose bus the board has no host for is refused with a message naming the missing section.

Each run is shortened (a few hundred KiB, or five pings): the test checks that the profile and
the scenario compose and move data, not the figures.

usage: board_profiles_test.py <nicsim> <source dir> [profile...]"""
import json
import os
import subprocess
import sys
import tempfile

import yaml

NICSIM, SRC = sys.argv[1], sys.argv[2]
ONLY = sys.argv[3:]
MHZ = 1_000_000

# The actual clock per board and requested clock, computed by hand from each driver's divider
# (docs/sources.md#spi-clock-dividers, #sd-clock-dividers). Requests: WILC1000 SPI 48 MHz,
# KS8851 SPI 25 MHz, ENC28J60 SPI 12 MHz, WILC1000 SDIO 50 MHz.
ACTUAL = {
    # spi-bcm2835, VPU 400 MHz: CDIV 10, 16, 34.
    "rpi3b": {48 * MHZ: 40_000_000, 25 * MHZ: 25_000_000, 12 * MHZ: 11_764_705},
    # spi-bcm2835, VPU 500 MHz: CDIV 12, 20, 42.
    "rpi4b": {48 * MHZ: 41_666_666, 25 * MHZ: 25_000_000, 12 * MHZ: 11_904_761},
    # RP1 dw-spi, clk_sys 200 MHz: BAUDR 6, 8, 18.
    "rpi5": {48 * MHZ: 33_333_333, 25 * MHZ: 25_000_000, 12 * MHZ: 11_111_111},
    # spi-stm32, HSI 64 MHz: 48 clamped to 32 (div 2), 25 -> div 3 -> 4, 12 -> div 5 -> 8.
    "stm32mp157": {48 * MHZ: 32_000_000, 25 * MHZ: 16_000_000, 12 * MHZ: 8_000_000},
    # spi-imx ECSPI, 60 MHz: pre 1, 2, 4, post 0; uSDHC, 198 MHz: prescaler 1, divisor 4.
    "imx6ull": {48 * MHZ: 30_000_000, 25 * MHZ: 20_000_000, 12 * MHZ: 12_000_000,
                50 * MHZ: 49_500_000},
    # spi-atmel, 83 MHz: SCBR 2, 4, 7; sdhci 12 MHz x 40 = 480 MHz over 10.
    "sama5d27": {48 * MHZ: 41_500_000, 25 * MHZ: 20_750_000, 12 * MHZ: 11_857_142,
                 50 * MHZ: 48_000_000},
}
# The host section each bus needs (docs/scenarios.md, "Platform profiles").
SECTION = {"spi": "spi_host", "sdio": "sdio_host", "par": "par_bus"}
failures = []


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def shortened(scn):
    if scn["traffic"]["kind"] == "ping":
        return ["traffic.count=5"]
    return ["traffic.bytes=256KiB"]


def run(scenario, profile, scn):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        cmd = [NICSIM, "run", scenario, "--quiet", "--json", out, "--set", "platform=" + profile]
        for s in shortened(scn):
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        report = None
        if os.path.exists(out):
            with open(out) as f:
                report = json.load(f)
        return cmd, p, report


# A board profile that takes over a calibrated class profile's values, every one of them: a
# refit of the class must be copied to the board.
SAME_AS = {"sama5d27": "sama5-class"}


def check(profile):
    prof = load(os.path.join(SRC, "configs", "platforms", profile + ".yaml"))
    if prof["name"] != profile:
        failures.append(f"{profile}.yaml: name is {prof['name']!r}")
    if profile in SAME_AS:
        cls = load(os.path.join(SRC, "configs", "platforms", SAME_AS[profile] + ".yaml"))
        strip = lambda p: {k: v for k, v in p.items() if k not in ("name", "description")}
        if strip(prof) != strip(cls):
            failures.append(f"{profile}.yaml differs from {SAME_AS[profile]}.yaml, whose values "
                            "it takes over (copy the class profile's values)")
    hosted = 0
    for name in sorted(os.listdir(os.path.join(SRC, "configs"))):
        if not name.endswith(".yaml"):
            continue
        scenario = os.path.join(SRC, "configs", name)
        scn = load(scenario)
        bus = scn["device"]["bus"]
        cmd, p, report = run(scenario, profile, scn)
        what = f"{profile} x {name} (`{' '.join(cmd)}`)"
        if SECTION[bus] not in prof:
            # Not hostable: refused before anything runs (exit 1, a configuration error,
            # docs/scenarios.md#exit-codes), naming the missing section.
            if p.returncode != 1 or SECTION[bus] not in p.stderr:
                failures.append(f"{what}: expected a refusal naming {SECTION[bus]}, exit "
                                f"{p.returncode}: {p.stderr[-400:]}")
            continue
        hosted += 1
        if p.returncode != 0 or report is None:
            failures.append(f"{what}: exit {p.returncode}: {p.stderr[-800:]}")
            continue
        if report["totals"]["goodput_bps"] <= 0 and scn["traffic"]["kind"] != "ping":
            failures.append(f"{what}: no goodput")
        if bus == "par":
            continue
        requested = report["run"]["bus_clock_hz"]
        want = ACTUAL[profile].get(int(requested))
        got = report["run"]["bus_clock_actual_hz"]
        if want is None or int(got) != want:
            failures.append(f"{what}: {requested} Hz requested ran at {got} Hz, expected {want}")
    if hosted == 0:
        failures.append(f"{profile}: hosts no shipped scenario")
    print(f"{profile}: {hosted} scenarios hosted")


for profile in ONLY or sorted(ACTUAL):
    check(profile)
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
