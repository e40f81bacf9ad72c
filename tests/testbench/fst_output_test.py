#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# --vcd FILE.fst: the VCD converted by vcd2fst (GTKWave) holds the same value changes as a .vcd
# of the same run (read back with fst2vcd), the .gtkw save file opens the FST, no .part file is
# left; FST with the sigrok format is refused as bad input (exit 1), and without vcd2fst in PATH
# the run says what to install and exits 2 before simulating. Skips (77) without vcd2fst.
# usage: fst_output_test.py <nicsim> <source dir> <work dir>
import os, shutil, subprocess, sys

nicsim, src, work = sys.argv[1:4]
nicsim, src = os.path.abspath(nicsim), os.path.abspath(src)
if not shutil.which("vcd2fst") or not shutil.which("fst2vcd"):
    print("SKIPPED: vcd2fst/fst2vcd not installed (Debian package gtkwave)")
    sys.exit(77)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
scenario = os.path.join(src, "configs", "ks8851-spi-ping.yaml")
base = [nicsim, "run", scenario, "--set", "traffic.count=2", "-q"]

def run(*args, env=None):
    return subprocess.run(base + list(args), cwd=work, capture_output=True, text=True, env=env)

def changes(vcd_text):
    """{signal name: [(time, value)]} of the wires and vectors (GTKWave's string vars differ)."""
    ids, out, t, body = {}, {}, 0, False
    for line in vcd_text.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "$var" and w[1] in ("wire", "reg"):
            ids[w[3]] = w[4]
            out.setdefault(w[4], [])
        elif w[0] == "$enddefinitions":
            body = True
        elif body and w[0].startswith("#"):
            t = int(w[0][1:])
        elif body and w[0][0] in "01xzXZ" and w[0][1:] in ids:
            out[ids[w[0][1:]]].append((t, w[0][0].lower()))
        elif body and w[0][0] in "bB" and len(w) == 2 and w[1] in ids:
            out[ids[w[1]]].append((t, w[0][1:].lstrip("0") or "0"))
    return out

r = run("--vcd", "a.vcd")
assert r.returncode == 0, r.stderr
r = run("--vcd", "b.fst")
assert r.returncode == 0, r.stderr
assert os.path.getsize(os.path.join(work, "b.fst")) > 0
assert not [f for f in os.listdir(work) if f.endswith(".part")], os.listdir(work)
with open(os.path.join(work, "b.gtkw")) as f:
    assert '[dumpfile] "b.fst"' in f.read()
back = subprocess.run(["fst2vcd", os.path.join(work, "b.fst")], capture_output=True,
                      text=True, check=True).stdout
with open(os.path.join(work, "a.vcd")) as f:
    direct = changes(f.read())
via_fst = changes(back)
assert direct and sum(len(v) for v in direct.values()) > 1000, "too few changes to compare"
assert direct == via_fst, [n for n in direct if direct[n] != via_fst.get(n)]

r = run("--vcd", "c.fst", "--vcd-format", "sigrok")
assert r.returncode == 1 and "FST, a GTKWave format" in r.stderr, (r.returncode, r.stderr)
env = dict(os.environ, PATH="/nonexistent")
r = run("--vcd", "d.fst", env=env)
assert r.returncode == 2 and "needs vcd2fst" in r.stderr and "gtkwave" in r.stderr, r.stderr
print("fst output test: ok (%d signals, %d changes)" % (len(direct), sum(map(len, direct.values()))))
