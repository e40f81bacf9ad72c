#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`--vcd-format sigrok` opens in sigrok: sigrok-cli's own SPI decoder, run over the VCD of a
WILC1000 and a KS8851 SPI run, finds the transactions `--log` lists, with the same start (to the
1 ns of the VCD), the same byte count and, where the log names a command byte, the same first
MOSI byte. Skips (exit 77) when sigrok-cli is not installed (Debian: apt-get install sigrok-cli).

Usage: sigrok_spi_decode.py <nicsim binary> <source dir>
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

nicsim, src = sys.argv[1], sys.argv[2]
if not shutil.which("sigrok-cli"):
    print("SKIP: sigrok-cli is not installed (apt-get install sigrok-cli)")
    sys.exit(77)

RUNS = [  # scenario, overrides, window start in ms (after bring-up: the firmware download is big)
    ("wilc1000-spi-ttcp-tx.yaml", ["traffic.bytes=4KiB", "traffic.write_size=4KiB"], 78, 88),
    ("ks8851-spi-iperf-rx.yaml", ["traffic.bytes=8KiB"], 14, 20),
]
failures = []
tmp = tempfile.mkdtemp(prefix="nicsim-sigrok-")
atexit.register(shutil.rmtree, tmp, True)  # nothing left in /tmp, whatever the exit
for cfg, sets, start_ms, end_ms in RUNS:
    vcd, log = os.path.join(tmp, cfg + ".vcd"), os.path.join(tmp, cfg + ".log")
    cmd = [nicsim, "run", os.path.join(src, "configs", cfg), "-q", "--vcd", vcd,
           "--vcd-format", "sigrok", "--log", log, "--trace-window", f"{start_ms}ms:{end_ms}ms"]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, capture_output=True)
    logged = []
    for line in open(log):
        if line.startswith("#"):
            continue
        f = line.split(" ", 7)
        logged.append((int(f[0]), int(f[3]), f[7] if len(f) > 7 else ""))
    out = subprocess.run(["sigrok-cli", "-I", "vcd", "-i", vcd, "-P",
                          "spi:clk=sck:mosi=mosi:miso=miso:cs=cs_n0", "-A",
                          "spi=mosi-transfer", "--protocol-decoder-samplenum"],
                         check=True, capture_output=True, text=True).stdout
    decoded = []
    for line in out.splitlines():
        m = re.match(r"(\d+)-(\d+) spi-1: (.*)", line)
        if m:
            decoded.append((start_ms * 1000000 + int(m.group(1)), m.group(3).split()))
    if len(decoded) != len(logged):
        failures.append(f"{cfg}: sigrok decodes {len(decoded)} transactions, the log has "
                        f"{len(logged)}")
    for (t_log, n, what), (t_dec, data) in zip(logged, decoded):
        if abs(t_log - t_dec) > 1 or len(data) != n:
            failures.append(f"{cfg}: log {t_log} ns {n} B '{what.strip()}' vs sigrok {t_dec} ns "
                            f"{len(data)} B")
        m = re.match(r"0x([0-9a-f]{2}) ", what)
        if m and data and data[0].lower() != m.group(1):
            failures.append(f"{cfg}: at {t_log} ns the log says command 0x{m.group(1)}, sigrok "
                            f"decodes MOSI {data[0]}")
    print(f"{cfg}: {len(decoded)} SPI transactions decoded by sigrok-cli, {len(logged)} logged")
for f in failures[:20]:
    print("  " + f)
sys.exit(1 if failures else 0)
