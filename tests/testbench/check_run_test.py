#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# `nicsim check`: one line per expectation with the actual value, exit codes 0 / 1 / 3, and the
# JUnit XML (one testsuite per file, one testcase per expectation) read back with xml.etree.
# usage: check_run_test.py <nicsim> <source dir> <work dir>
import json, os, shutil, subprocess, sys
import xml.etree.ElementTree as ET

nicsim, src, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
plat = os.path.abspath(os.path.join(src, "configs", "platforms"))

def scenario(name, expect):
    path = os.path.join(work, name + ".yaml")
    with open(path, "w") as f:
        f.write("name: %s\nduration: 10s\nplatform: %s/rpi-class\n"
                "device: {type: ks8851, bus: spi}\ntraffic: {kind: ping, count: 3}\nexpect:\n" % (name, plat))
        for e in expect:
            f.write("  - '%s'\n" % e)
    return path

good = scenario("good", ["findings.error == 0", "flows[ping].packets_received == 3",
                         "rtt_ms.avg < 5ms", "end_reason == traffic complete",
                         "devices[0].frames_tx == 3", "wakeups == 0", "sim_time_s <= 1s",
                         "host_cpu.busy_share < 100%"])
bad = scenario("bad", ["devices[0].frames_tx == 4", "flows[0].packets_sent == 3 ± 1%"])
xml = os.path.join(work, "j.xml")

def run(*args):
    return subprocess.run([nicsim, "check", *args], capture_output=True, text=True)

r = run(good, "--junit", xml)
assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
lines = [l for l in r.stdout.splitlines() if l.startswith("  PASS")]
assert len(lines) == 9, r.stdout                      # 8 + the implied exit_code == 0
assert "(actual: devices[0].wakeups = 0)" in r.stdout, r.stdout

r = run(good, bad, "--junit", xml, "-j", "1")
assert r.returncode == 3, (r.returncode, r.stdout, r.stderr)
assert "FAIL   devices[0].frames_tx == 4  (actual: 3)" in r.stdout, r.stdout
root = ET.parse(xml).getroot()
assert root.tag == "testsuites" and root.get("tests") == "12" and root.get("failures") == "1", ET.tostring(root)
suites = root.findall("testsuite")
assert [s.get("name") for s in suites] == ["good", "bad"]
assert [len(s.findall("testcase")) for s in suites] == [9, 3]
failed = [c for c in suites[1].findall("testcase") if c.find("failure") is not None]
assert len(failed) == 1 and failed[0].get("name") == "devices[0].frames_tx == 4", ET.tostring(suites[1])
assert failed[0].get("line") == "7", failed[0].attrib
assert "actual: 3" in failed[0].find("failure").get("message")

# Loader errors name file, line and key; nothing runs (exit 1).
typo = scenario("typo", ["wakeup == 0"])
r = run(typo)
assert r.returncode == 1, (r.returncode, r.stderr)
assert "typo.yaml:7:5: expect[0]: unknown report key 'wakeup'; did you mean 'wakeups'?" in r.stderr, r.stderr
# A misspelt findings key counted nothing and passed (issue 36): now an error before any run.
for typo_expect, hint in (("findings.errors == 0", "findings.error"),
                          ("findings.drvier.error == 0", "findings.driver.error"),
                          ("findings.ks8851.warnings == 0", "findings.ks8851.warning")):
    typo = scenario("typo", [typo_expect])
    r = run(typo)
    assert r.returncode == 1, (typo_expect, r.returncode, r.stdout, r.stderr)
    assert ("typo.yaml:7:5: expect[0]: unknown findings key '%s'; did you mean '%s'?"
            % (typo_expect.split()[0], hint)) in r.stderr, r.stderr
unit = scenario("unit", ["goodput_bps >= 1 Mhz"])
r = run(unit)
assert r.returncode == 1 and "unit.yaml:7:5: expect[0]: totals.goodput_bps takes a bit rate" in r.stderr, r.stderr
# Expecting the failure exit code of a short run makes it a pass.
short = scenario("short", ["exit_code == 4"])
r = run(short, "--set", "device.bus_clock=1Hz", "--set", "duration=100ms")
assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
# A driver error path as a test: a failed run (exit 2) still writes its report so far, so
# expectations on it are judged (the firmware never says 'I': ifup fails with -ETIME).
silent = os.path.join(work, "silent.yaml")
with open(silent, "w") as f:
    f.write("name: silent\nduration: 10s\nplatform: %s/sama5-class\n"
            "device: {type: wilc1000, bus: spi}\ntraffic: {kind: ttcp_tx, bytes: 64KiB}\n"
            "faults: [{kind: fw_silent, at: 0s}]\n"
            "expect: ['exit_code == 2', 'end_reason == run failed', 'findings.driver.error >= 1',"
            " 'sim_time_s >= 5s']\n" % plat)
r = run(silent)
assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
assert "PASS   findings.driver.error >= 1" in r.stdout, r.stdout
# Every report key is checkable (issue 35 item 4): the faults block by kind, on the shipped
# link-down fault scenario.
link_down = os.path.join(src, "configs", "faults", "ks8851-spi-link-down.yaml")
r = run(link_down, "--set", "expect=['faults[link_down].outcome == recovered', "
        "'faults[link_down].injected == 2', 'findings.error == 0']")
assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
assert "PASS   faults[link_down].outcome == recovered" in r.stdout, r.stdout
# A clean SDIO run: the driver's dev_err of the chip ID at probe is a known benign line, counted
# apart (findings.benign), so findings.error == 0 holds; the report says why.
sdio = os.path.join(src, "configs", "wilc1000-sdio-ttcp-tx.yaml")
sdio_json = os.path.join(work, "sdio.json")
r = run(sdio, "--set", "traffic.bytes=64KiB", "--set",
        "expect=['findings.error == 0', 'findings.driver.benign == 1']", "--reports", work)
assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
with open(os.path.join(work, "wilc1000-sdio-ttcp-tx.json")) as f:
    benign = [x for x in json.load(f)["findings"] if x["severity"] == "benign"]
assert len(benign) == 1 and "chipid (" in benign[0]["message"], benign
assert "known benign" in benign[0]["message"] and "wilc_sdio_init" in benign[0]["message"], benign
# --reports DIR keeps each run's report as DIR/<stem>.json; two files with one stem are refused.
reports = os.path.join(work, "reports", "nested")
r = run(good, bad, "--reports", reports, "-j", "1")
assert r.returncode == 3, (r.returncode, r.stdout, r.stderr)
for stem, frames in (("good", 3), ("bad", 3)):
    with open(os.path.join(reports, stem + ".json")) as f:
        assert json.load(f)["devices"][0]["frames_tx"] == frames, stem
os.makedirs(os.path.join(work, "other"))
twin = os.path.join(work, "other", "good.yaml")
shutil.copy(good, twin)
r = run(good, twin, "--reports", reports)
assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
assert "would both write good.json" in r.stderr, r.stderr
print("check run test: ok")
