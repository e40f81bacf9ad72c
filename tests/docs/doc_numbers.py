#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Docs test: runs the commands the docs quote next to numbers and checks that the docs quote
what those commands print now.

Each check names the doc, the command exactly as the doc quotes it (the check fails if the doc
no longer quotes it), runs it against the built binary in a scratch directory (`nicsim` /
`build/nicsim` -> the binary, `configs/...` -> the source tree, `/tmp/...` -> the scratch
directory), and derives from its output the text the doc must contain, formatted the way the
doc writes it.

Usage: doc_numbers.py [--fix] <nicsim binary> <source dir> [check name...]   (no names: all checks)

--fix rewrites what it can instead of failing: a quoted fragment whose text matches one place
in the doc except for its numbers gets the new numbers (when several match, the place whose
leading numbers agree with the fragment's, a table row's label first; left alone on a tie), and
a study's results.csv and plots are copied from the fresh sweep. What it cannot place stays a failure. Review the diff.
"""
import atexit
import csv
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FIX = "--fix" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--fix"]
NICSIM, SRC = os.path.abspath(ARGS[0]), os.path.abspath(ARGS[1])
ONLY = ARGS[2:]
CHECKS = []
failures = []


def check(fn):
    CHECKS.append(fn)
    return fn


def doc(name):
    """The doc's text with whitespace (line breaks, indentation, `\\` continuations) collapsed."""
    with open(os.path.join(SRC, "docs", name), encoding="utf-8") as f:
        return " ".join(f.read().replace("\\\n", " ").split())


NUMBER = r"[-+−]?\d+(?:[.,]\d+)*"


def fix_numbers(docname, fragment):
    """--fix: puts the fragment's numbers into the one place of the doc that reads the same
    apart from its numbers. True when the doc was rewritten."""
    parts = re.split(f"({NUMBER})", " ".join(fragment.split()))
    numbers = parts[1::2]
    if not numbers:
        return False
    pattern = "".join(f"({NUMBER})" if i % 2 else r"\s+".join(map(re.escape, part.split(" ")))
                      for i, part in enumerate(parts))
    path = os.path.join(SRC, "docs", docname)
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    found = list(re.finditer(pattern, raw))
    if not found:
        return False
    # The place whose leading numbers agree (a row's label comes first), then the most of them.
    shared = [(tuple(a == b for a, b in zip(m.groups(), numbers)),
               sum(a == b for a, b in zip(m.groups(), numbers))) for m in found]
    best = max(shared)
    if shared.count(best) != 1:
        return False
    m = found[shared.index(best)]
    out, at = [], m.start()
    for k, number in enumerate(numbers, start=1):
        out += [raw[at:m.start(k)], number]
        at = m.end(k)
    with open(path, "w", encoding="utf-8") as f:
        f.write(raw[:m.start()] + "".join(out) + raw[at:])
    return True


def expect(docname, text, fragment, origin):
    if " ".join(fragment.split()) in text:
        return
    if FIX and fix_numbers(docname, fragment):
        print(f"  fixed docs/{docname}: «{fragment}»")
        return
    failures.append(f"docs/{docname}: expected «{fragment}» (from `{origin}`)")


class Scratch:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="nicsim-docs-")
        atexit.register(shutil.rmtree, self.dir, True)  # a docs run leaves nothing in /tmp

    def run(self, docname, text, quoted, expect_rc=0):
        """Runs `quoted` (which the doc must quote) and returns its stdout."""
        return self.process(docname, text, quoted, expect_rc).stdout

    def process(self, docname, text, quoted, expect_rc=0):
        """Runs `quoted` (which the doc must quote) and returns the finished process."""
        expect(docname, text, quoted, "the quoted command")
        args = []
        for i, a in enumerate(shlex.split(quoted)):
            if i == 0 and a in ("nicsim", "build/nicsim"):
                a = NICSIM
            elif i == 0 and a in ("nicsim-netstack", "build/nicsim-netstack"):
                a = os.path.join(os.path.dirname(NICSIM), "nicsim-netstack")
            elif a.startswith("configs/") or a.startswith("examples/"):
                a = os.path.join(SRC, a)
            elif a.startswith("/tmp/"):
                a = os.path.join(self.dir, os.path.basename(a))
            args.append(a)
        p = subprocess.run(args, cwd=self.dir, capture_output=True, text=True)
        if p.returncode != expect_rc:
            failures.append(f"`{quoted}` exited {p.returncode} (expected {expect_rc}):\n"
                            f"{p.stderr[-2000:]}")
        return p

    def path(self, *parts):
        return os.path.join(self.dir, *parts)


def rows(csv_path):
    with open(csv_path, newline="") as f:
        return list(csv.DictReader(f))


def clock(row):
    """A row's SPI/SDIO clock as the docs write it ("12MHz", "12.5MHz"); results.csv gives the
    setting as a number of Hz (device.bus_clock_hz)."""
    return mhz(float(row["device.bus_clock_hz"]) / 1e6) + "MHz"


def same_csv(fresh, committed, origin):
    """The committed results.csv (the docs quote it) holds what the sweep gives now."""
    if FIX:
        # The fresh sweep's table and plots replace the committed ones.
        for f in [fresh] + glob.glob(os.path.join(os.path.dirname(fresh), "plot-*.svg")):
            shutil.copyfile(f, os.path.join(os.path.dirname(committed), os.path.basename(f)))
    a, b = rows(fresh), rows(committed)
    for x, y in zip(a, b):
        for k in x:
            if k in ("point", "status"):
                continue
            try:
                same = abs(float(x[k] or 0) - float(y[k] or 0)) <= 1e-9 * max(1, abs(float(y[k] or 0)))
            except ValueError:
                same = x[k] == y[k]
            if not same:
                failures.append(f"{os.path.relpath(committed, SRC)}: {k} = {y[k]}, the sweep "
                                f"gives {x[k]} (`{origin}`; rerun it and copy results.csv)")
    if len(a) != len(b):
        failures.append(f"{committed}: {len(b)} rows, the sweep gives {len(a)}")


def pct(share):
    return f"{share * 100:.0f} %"


def goodput_kBps(text_report):
    m = re.search(r"goodput\s+([\d.]+) KB/s", text_report)
    return float(m.group(1)) if m else float("nan")


def kbit(text_report):
    m = re.search(r"goodput\s+[\d.]+ KB/s\s+([\d.]+) Mbit/s", text_report)
    return float(m.group(1)) * 1000 if m else float("nan")


def batches(text_report):
    """(tx batches, frames per batch) from the text report's `tx batches` line."""
    m = re.search(r"tx batches\s+(\d+) \(([\d.]+) frames per batch\)", text_report)
    return (int(m.group(1)), float(m.group(2))) if m else (None, float("nan"))


def run_json(config, sets):
    """The JSON report of `nicsim run configs/CONFIG` with each of `sets` as a --set."""
    args = [NICSIM, "run", os.path.join(SRC, config), "--json", "-", "-q"]
    for one in sets:
        args += ["--set", one]
    return json.loads(subprocess.run(args, capture_output=True, text=True).stdout)


def point_reports(sweep_dir):
    """The point reports of a sweep in sweep order (results.json's points), by settings."""
    with open(os.path.join(sweep_dir, "results.json")) as f:
        points = json.load(f)["points"]
    out = {}
    for pt in points:
        with open(os.path.join(sweep_dir, "points", pt["id"] + ".json")) as f:
            out[tuple(pt["settings"].values())] = json.load(f)
    return out


def wilc_power_save(name, study):
    """The two WILC1000 chip sleep x SPI clock tables of studies.md."""
    d = doc("studies.md")
    s = Scratch()
    cmd = f"nicsim sweep configs/studies/{study}.yaml -j 2"
    s.run("studies.md", d, cmd)
    fresh = s.path(f"sweep-{study}", "results.csv")
    same_csv(fresh, os.path.join(SRC, "docs", "studies", study, "results.csv"), cmd)
    by = {(clock(r), r["driver.power_save"]): r for r in rows(fresh)}
    for mhz in (12, 24, 48):
        off, on = by[(f"{mhz}MHz", "false")], by[(f"{mhz}MHz", "true")]
        a, b = float(off["goodput_kBps"]), float(on["goodput_kBps"])
        start = d.find(f"| {mhz} MHz |", d.find(f"`configs/studies/{study}.yaml`"))
        row = d[start:d.find("|", d.find("×", start))]
        for frag in (f"{a:.1f} KB/s", f"{b:.1f} KB/s", f"{a / b:.1f}×"):
            if frag not in row:
                failures.append(f"docs/studies.md, {study}, {mhz} MHz row: expected «{frag}» "
                                f"(from `{cmd}`), row is «{row}»")
    return d, by, cmd, s.path(f"sweep-{study}")


@check
def studies_wilc1000_tx():
    d, by, cmd, out = wilc_power_save("tx", "wilc1000-power-save")
    on = lambda m: f"{float(by[(m, 'true')]['goodput_kBps']):.1f}"
    expect("studies.md", d, f"follows the clock as much ({on('12MHz')}, {on('24MHz')} and "
           f"{on('48MHz')} KB/s at 12, 24 and 48 MHz)", cmd)
    on48, off48 = by[("48MHz", "true")], by[("48MHz", "false")]
    wakeups = {int(float(by[(f"{m}MHz", "true")]["wakeups"])) for m in (12, 24, 48)}
    reps = point_reports(out)
    # Two wake-ups per TX batch and one per interrupt, each finding the clock running.
    for m in (12, 24, 48):
        dev = reps[(f"{m}MHz", "true")]["devices"][0]
        per = 2 * dev["tx_batches"] + dev["irqs"]
        if abs(dev["wakeups"] - per) > 0.02 * per:
            failures.append(f"studies.md says the wake-ups are two per TX batch and one per "
                            f"interrupt: {m} MHz {dev['wakeups']} against 2 x {dev['tx_batches']} "
                            f"+ {dev['irqs']}")
        if dev["wake"]["found_clock_running"] != dev["wake"]["requests"]:
            failures.append(f"studies.md says every wake-up finds the clock running: {m} MHz "
                            f"{dev['wake']}")
    frames = {r["devices"][0]["frames_tx"] for r in reps.values()}
    w = f"{min(wakeups)}–{max(wakeups)}" if len(wakeups) > 1 else f"{min(wakeups)}"
    expect("studies.md", d, f"{w} wake-ups for {min(frames)} frames, two per TX batch and one per "
           "interrupt, at every clock)", cmd)
    on, off = reps[("48MHz", "true")]["devices"][0], reps[("48MHz", "false")]["devices"][0]
    expect("studies.md", d, f"{on['frames_per_tx_batch']:.2f} frames per batch with chip sleep on "
           f"({on['tx_batches']} batches), {off['frames_per_tx_batch']:.2f} with it off", cmd)
    t = reps[("48MHz", "true")]["sim_time_s"]
    host_if = next(m for m in on["meters"] if m["name"] == "host_interface")
    share = {p["state"]: p["time_s"] / t for p in host_if["states"]}
    expect("studies.md", d, f"The chip's host interface sleeps {pct(share['sleep'])} of the "
           f"transfer and spends {pct(share['waking'])} waking", cmd)
    expect("studies.md", d, f"{float(off48['energy_j']):.1f} J → {float(on48['energy_j']):.1f} J "
           f"at 48 MHz; the average power is {float(off48['avg_power_w']):.2f} W → "
           f"{float(on48['avg_power_w']):.2f} W", cmd)
    cpu = lambda m, ps: pct(float(by[(f"{m}MHz", ps)]["host_cpu_share"])).split()[0]
    expect("studies.md", d, f"{cpu(12, 'false')} % (12 MHz) to {cpu(48, 'false')} % (48 MHz) busy "
           f"with chip sleep off, and {cpu(12, 'true')}–{cpu(48, 'true')} % with it on", cmd)
    util = lambda m: pct(float(by[(f"{m}MHz", "false")]["bus_utilisation"]))
    expect("studies.md", d, f"({util(12)} → {util(48)} with sleep off)", cmd)


@check
def studies_wilc1000_rx():
    d, by, cmd, _ = wilc_power_save("rx", "wilc1000-power-save-rx")
    on48, off48 = by[("48MHz", "true")], by[("48MHz", "false")]
    tx = {(clock(r), r["driver.power_save"]): r for r in
          rows(os.path.join(SRC, "docs", "studies", "wilc1000-power-save", "results.csv"))}
    expect("studies.md", d, f"need {int(float(on48['wakeups']))} wake-ups instead of "
           f"{int(float(tx[('48MHz', 'true')]['wakeups']))}.", cmd)
    expect("studies.md", d, f"({float(off48['goodput_kBps']):.0f} vs "
           f"{float(tx[('48MHz', 'false')]['goodput_kBps']):.0f} KB/s at 48 MHz", cmd)
    expect("studies.md", d, f"Energy falls from {float(on48['energy_j']):.1f} J to "
           f"{float(off48['energy_j']):.1f} J when sleep is off at 48 MHz", cmd)


@check
def studies_wilc1000_streams():
    """studies.md: iperf -P streams x chip sleep (WILC1000 SPI TX)."""
    study = "wilc1000-streams"
    cmd = f"build/nicsim sweep configs/studies/{study}.yaml -j 2 --out /tmp/{study}"
    d = doc("studies.md")
    s = Scratch()
    s.run("studies.md", d, cmd)
    fresh = os.path.join(s.path(study), "results.csv")
    same_csv(fresh, os.path.join(SRC, "docs", "studies", study, "results.csv"), cmd)
    by = {(r["traffic.streams"], r["driver.power_save"]): r for r in rows(fresh)}
    n = ("1", "2", "4", "8")
    f = lambda k, ps, key: float(by[(k, ps)][key])
    row = lambda name, fmt: "| " + name + " | " + " | ".join(fmt(k) for k in n) + " |"
    for r in (row("sleep off: goodput, KB/s", lambda k: f"{f(k, 'false', 'goodput_kBps'):.1f}"),
              row("sleep off: frames per TX batch",
                  lambda k: f"{f(k, 'false', 'frames_per_tx_batch'):.2f}"),
              row("sleep on: goodput, KB/s", lambda k: f"{f(k, 'true', 'goodput_kBps'):.1f}"),
              row("sleep on: frames per TX batch",
                  lambda k: f"{f(k, 'true', 'frames_per_tx_batch'):.2f}"),
              row("sleep on: wake-ups", lambda k: f"{int(f(k, 'true', 'wakeups'))}"),
              row("off / on", lambda k: f"{f(k, 'false', 'goodput_kBps') / f(k, 'true', 'goodput_kBps'):.1f}×")):
        expect("studies.md", d, r, cmd)
    fpb = lambda k, ps: f"{f(k, ps, 'frames_per_tx_batch'):.2f}"
    expect("studies.md", d, "batch (" + ", ".join(fpb(k, "true") for k in n) + " frames for 1, 2, "
           f"4, 8 streams), so the wake-ups for the same 16 MiB fall from "
           f"{int(f('1', 'true', 'wakeups'))} to {int(f('8', 'true', 'wakeups'))}", cmd)
    expect("studies.md", d, f"the batches grow too ({fpb('1', 'false')} → {fpb('8', 'false')} "
           "frames)", cmd)
    on1, on8 = f("1", "true", "goodput_kBps"), f("8", "true", "goodput_kBps")
    expect("studies.md", d, f"the goodput rises {on8 / on1:.1f}× ({on1:.1f} → {on8:.1f} KB/s)", cmd)
    expect("studies.md", d, f"with sleep on falls from {f('1', 'true', 'energy_j'):.1f} J to "
           f"{f('8', 'true', 'energy_j'):.1f} J", cmd)
    off1, off8 = f("1", "false", "goodput_kBps"), f("8", "false", "goodput_kBps")
    expect("studies.md", d, f"{off8 / off1:.1f}× the goodput", cmd)
    # The one-stream pair is the ttcp calibration run, byte for byte.
    ttcp = json.loads(s.run("studies.md", d + " nicsim run configs/wilc1000-spi-ttcp-tx.yaml --json -",
                            "nicsim run configs/wilc1000-spi-ttcp-tx.yaml --json -"))
    if abs(ttcp["totals"]["goodput_bps"] - f("1", "true", "goodput_bps")) > 1e-6:
        failures.append("studies.md says one iperf stream is the ttcp calibration run: "
                        f"{ttcp['totals']['goodput_bps']} vs {f('1', 'true', 'goodput_bps')}")


def sweep_rows(study, cmd):
    """Runs a study as studies.md quotes it; its fresh rows, checked against the committed CSV."""
    d = doc("studies.md")
    s = Scratch()
    s.run("studies.md", d, cmd)
    fresh = s.path(f"sweep-{study}", "results.csv")
    same_csv(fresh, os.path.join(SRC, "docs", "studies", study, "results.csv"), cmd)
    return d, rows(fresh)


@check
def studies_wilc1000_ps_dtim():
    """The two 802.11 power save x DTIM tables of studies.md."""
    mw = lambda r: f"{1e3 * float(r['avg_power_w']):.1f} mW"
    cmd = "nicsim sweep configs/studies/wilc1000-ps-dtim-idle.yaml -j 2"
    d, fresh = sweep_rows("wilc1000-ps-dtim-idle", cmd)
    by = {(r["link.dtim_period"], r["driver.power_save"]): r for r in fresh}
    for ps, label in (("false", "power save off"), ("true", "power save on")):
        cells = " | ".join(mw(by[(p, ps)]) for p in ("1", "3", "10"))
        expect("studies.md", d, f"| {label} | {cells} |", cmd)
    expect("studies.md", d, f"radio listens all the time: {mw(by[('1', 'false')])} whatever", cmd)

    cmd = "nicsim sweep configs/studies/wilc1000-ps-dtim-ping.yaml -j 2"
    d, fresh = sweep_rows("wilc1000-ps-dtim-ping", cmd)
    by = {(r["link.dtim_period"], r["driver.power_save"]): r for r in fresh}
    dtims = ("1", "2", "3", "5", "10")
    rtt = lambda r: "/".join(f"{float(r[f'rtt_{k}_ms']):.1f}" for k in ("min", "avg", "max"))
    for ps, label in (("false", "off"), ("true", "on")):
        cells = " | ".join(rtt(by[(p, ps)]) + " ms" for p in dtims)
        expect("studies.md", d, f"| power save {label}: RTT min/avg/max | {cells} |", cmd)
    cells = " | ".join(mw(by[(p, "true")]) for p in dtims)
    expect("studies.md", d, f"| power save on: average power | {cells} |", cmd)


@check
def studies_wilc1000_sdio_runtime_pm():
    """studies.md: ping against the SD host's runtime PM (issue 34 item 6)."""
    cmd = "nicsim sweep configs/studies/wilc1000-sdio-runtime-pm.yaml -j 2"
    d, fresh = sweep_rows("wilc1000-sdio-runtime-pm", cmd)
    # The interval in seconds, as results.csv gives it (traffic.interval_s).
    by = {(float(r["traffic.interval_s"]), r["platform.sdio_host"]): r for r in fresh}
    ivs = (0.01, 0.03, 0.045, 0.055, 0.1, 1.0)
    off, sdhci, wake = ("{runtime_pm: false}", "{runtime_pm: true, sdio_irq_pm: holds_clock}",
                        "{runtime_pm: true, sdio_irq_pm: wake_irq}")
    for key, label in ((off, "off"), (sdhci, "on, `holds_clock` (sdhci)"), (wake, "on, `wake_irq`")):
        cells = " | ".join(f"{float(by[(iv, key)]['rtt_avg_ms']):.3f}" for iv in ivs)
        expect("studies.md", d, f"| {label} | {cells} |", cmd)
    step = [(float(by[(iv, wake)]["rtt_avg_ms"]) - float(by[(iv, off)]["rtt_avg_ms"])) * 1e3
            for iv in (0.055, 0.1, 1.0)]
    expect("studies.md", d, f"resume ({sum(step) / 3:.0f} µs in the mean", cmd)
    lo = lambda key: f"{float(by[(1.0, key)]['rtt_min_ms']):.3f}"
    expect("studies.md", d, f"The minimum rises by less ({lo(off)} → {lo(wake)} ms)", cmd)


def mhz(v):
    """A clock in MHz as the docs write it: at most three decimals, no trailing zeros."""
    return f"{v:.3f}".rstrip("0").rstrip(".")


def spi_steps(by, each, same_as_below, pair):
    """The steps sentence of an SPI clock study: what `each` request runs at, which requests run
    at the SCK of the request below them, and the pair that shares one SCK."""
    sck = lambda c: mhz(float(by[c]["bus_clock_mhz"]))
    req = lambda c: c.replace("MHz", "")
    text = (", ".join(req(c) for c in each[:-1]) + f" and {req(each[-1])} MHz run at " +
            ", ".join(sck(c) for c in each[:-1]) + f" and {sck(each[-1])} MHz")
    for c in same_as_below:
        text += f", {req(c)} MHz at {sck(c)} MHz"
    return text + f", {req(pair[0])} and {req(pair[1])} MHz both at {sck(pair[0])} MHz"


def clock_study(study):
    """Runs an SPI clock study as studies.md quotes it, checks its committed results.csv and
    returns (doc, scratch, the rows by requested clock, the command)."""
    d = doc("studies.md")
    s = Scratch()
    cmd = f"nicsim sweep configs/studies/{study}.yaml -j 2"
    s.run("studies.md", d, cmd)
    fresh = s.path(f"sweep-{study}", "results.csv")
    same_csv(fresh, os.path.join(SRC, "docs", "studies", study, "results.csv"), cmd)
    return d, s, {clock(r): r for r in rows(fresh)}, cmd


@check
def studies_ks8851():
    d, s, by, cmd = clock_study("ks8851-spi-clock")
    k = lambda c: float(by[c]["goodput_bps"]) / 1e3
    sck = lambda c: float(by[c]["bus_clock_mhz"])
    expect("studies.md", d, f"**{k('25MHz'):.0f} kbit/s** predicted", cmd)
    expect("studies.md", d, spi_steps(by, ["10MHz", "15MHz", "20MHz"], ["30MHz"],
                                      ["35MHz", "40MHz"]), cmd)
    expect("studies.md", d, f"{k('5MHz'):.0f} kbit/s at 5 MHz ({pct(k('5MHz') / 5e3)} of the raw "
           f"SCK rate), {k('40MHz'):.0f} kbit/s at 40 MHz requested ({pct(k('40MHz') / sck('40MHz') / 1e3)} "
           f"of its {mhz(sck('40MHz'))} MHz SCK)", cmd)
    expect("studies.md", d, f"{sck('40MHz') / sck('25MHz'):.2f}× the SCK above 25 MHz buys only "
           f"{k('40MHz') / k('25MHz'):.2f}× the goodput", cmd)
    u = lambda c: pct(float(by[c]["bus_utilisation"]))
    expect("studies.md", d, f"from {u('5MHz')} (5 MHz) to {u('40MHz')} (40 MHz)", cmd)
    cpus = [float(r["host_cpu_share"]) * 100 for r in by.values()]
    expect("studies.md", d, f"stays at {min(cpus):.0f}–{max(cpus):.0f} %", cmd)
    q = ("nicsim run configs/ks8851-spi-iperf-rx.yaml --set device.bus_clock=35MHz "
         "--set host.net.tcp_sack=0 --json -")
    nosack = json.loads(s.run("studies.md", d, q))["flows"][0]["goodput_bps"] / 1e3
    expect("studies.md", d, f"gets {nosack:.0f} kbit/s at 35 MHz instead of {k('35MHz'):.0f}", q)


@check
def studies_enc28j60():
    d, _, by, cmd = clock_study("enc28j60-spi-clock")
    m = lambda c: float(by[c]["goodput_mbps"])
    expect("studies.md", d, spi_steps(by, ["8MHz", "9MHz", "10MHz", "12MHz", "16MHz", "20MHz"],
                                      [], ["14MHz", "15MHz"]), cmd)
    if m("14MHz") != m("15MHz"):
        failures.append("studies.md says 14 and 15 MHz give the same goodput: "
                        f"{m('14MHz')} and {m('15MHz')} Mbit/s")
    expect("studies.md", d, f"up to {m('16MHz'):.2f} Mbit/s at 16 MHz", cmd)
    expect("studies.md", d, f"({m('20MHz'):.2f} Mbit/s at 20 MHz requested)", cmd)


@check
def studies_wilc1000_sdio():
    d = doc("studies.md")
    s = Scratch()
    cmd = ("build/nicsim sweep configs/studies/wilc1000-sdio-clock.yaml -j 2 "
           "--out /tmp/wilc1000-sdio-clock")
    s.run("studies.md", d, cmd)
    fresh = s.path("wilc1000-sdio-clock", "results.csv")
    same_csv(fresh, os.path.join(SRC, "docs/studies/wilc1000-sdio-clock/results.csv"), cmd)
    by = {(clock(r), r["device.bus_width"]): r for r in rows(fresh)}
    order = [("12.5MHz", "1"), ("25MHz", "1"), ("12.5MHz", "4"), ("50MHz", "1"), ("25MHz", "4"),
             ("50MHz", "4")]
    missing = [o for o in order if o not in by]
    if missing:
        failures.append(f"wilc1000-sdio-clock: no points {missing} in {sorted(by)}")
        return
    cells = lambda f: " | ".join(f(by[o]) for o in order)
    expect("studies.md", d, "| goodput, KB/s | " + cells(lambda r: f"{float(r['goodput_kBps']):.1f}")
           + " |", cmd)
    expect("studies.md", d, "| bus utilisation | " +
           cells(lambda r: f"{float(r['bus_utilisation']) * 100:.1f} %") + " |", cmd)
    expect("studies.md", d, "| host CPU | " +
           cells(lambda r: f"{float(r['host_cpu_share']) * 100:.1f} %") + " |", cmd)
    on = goodput_kBps(s.run("studies.md", d, "nicsim run configs/wilc1000-sdio-ttcp-tx.yaml"))
    off = goodput_kBps(s.run("studies.md", d + " nicsim run configs/wilc1000-sdio-ttcp-tx.yaml "
                             "--set driver.power_save=false",
                             "nicsim run configs/wilc1000-sdio-ttcp-tx.yaml "
                             "--set driver.power_save=false"))
    expect("studies.md", d, f"gives {on:.1f} KB/s, against {off:.1f} KB/s with "
           "`--set driver.power_save=false`", "nicsim run configs/wilc1000-sdio-ttcp-tx.yaml")
    rep = s.run("studies.md", d, "nicsim run configs/wilc1000-sdio-ttcp-tx.yaml")
    n, fpb = batches(rep)
    wk = re.search(r"wake-ups\s+(\d+)", rep)
    expect("studies.md", d, f"the SDIO run packs {fpb:.2f} frames per TX batch with chip sleep on "
           f"({n} batches, {wk.group(1) if wk else '?'} wake-ups for", "nicsim run configs/"
           "wilc1000-sdio-ttcp-tx.yaml")
    for cfg, quoted in (("sdio", "`nicsim run configs/wilc1000-sdio-ttcp-tx.yaml --set host.net.gso=0`: "
                         "{:.2f} frames per batch"),
                        ("spi", "`nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set host.net.gso=0`: "
                         "{:.2f}")):
        c = f"nicsim run configs/wilc1000-{cfg}-ttcp-tx.yaml --set host.net.gso=0"
        _, fpb = batches(s.run("studies.md", d, c))
        expect("studies.md", d, quoted.format(fpb), c)


@check
def validate_table():
    p = subprocess.run([NICSIM, "validate"], capture_output=True, text=True)
    if p.returncode != 0:
        failures.append(f"`nicsim validate` exited {p.returncode}:\n{p.stdout}{p.stderr}")
    table = [l for l in p.stdout.splitlines() if re.search(r"(PASS|FAIL|ERROR)$", l)]
    header = next((l for l in p.stdout.splitlines() if l.startswith("check ")), "")
    studies = doc("studies.md")
    # The per-seed lines wrap at 100 columns: each with its continuation.
    lines = p.stdout.splitlines()
    seeds = [l + ("\n" + lines[i + 1] if i + 1 < len(lines) and lines[i + 1].startswith("      ")
                  else "")
             for i, l in enumerate(lines) if re.match(r"  \S+: seed \d+ ", l)]
    for line in ([header] + table + [l for l in p.stdout.splitlines() if "within tolerance" in l]
                 + seeds):
        expect("studies.md", studies, line, "nicsim validate")
    v = doc("validate.md")
    expect("validate.md", v, header, "nicsim validate")
    if table:
        expect("validate.md", v, table[0], "nicsim validate")
    measured = next((l for l in p.stdout.splitlines() if l.startswith("  ks8851-spi-iperf-rx")), "")
    if not measured:
        failures.append("`nicsim validate` printed no measured value of ks8851-spi-iperf-rx")
    expect("validate.md", v, measured.split(" — ")[0], "nicsim validate")


@check
def studies_wilc1000_tsq():
    """The two sk_pacing_shift x chip sleep tables of studies.md (issue 10 deliverable 5)."""
    d = doc("studies.md")
    for study, label in (("wilc1000-tsq", "SPI"), ("wilc1000-sdio-tsq", "SDIO")):
        s = Scratch()
        cmd = f"build/nicsim sweep configs/studies/{study}.yaml -j 2 --out /tmp/{study}"
        s.run("studies.md", d, cmd)
        out = s.path(study)
        same_csv(os.path.join(out, "results.csv"),
                 os.path.join(SRC, "docs", "studies", study, "results.csv"), cmd)
        reps = point_reports(out)
        shifts = ("6", "7", "8", "9", "10")
        dev = lambda sh, ps: reps[(sh, ps)]["devices"][0]
        kBps = lambda sh, ps: reps[(sh, ps)]["totals"]["goodput_bps"] / 8 / 1024
        row = lambda name, f: "| " + name + " | " + " | ".join(f(sh) for sh in shifts) + " |"
        rows_expected = [
            row("sleep off: goodput, KB/s", lambda sh: f"{kBps(sh, 'false'):.1f}"),
            row("sleep off: frames per TX batch",
                lambda sh: f"{dev(sh, 'false')['frames_per_tx_batch']:.2f}"),
            row("sleep on: goodput, KB/s", lambda sh: f"{kBps(sh, 'true'):.1f}"),
            row("sleep on: frames per TX batch",
                lambda sh: f"{dev(sh, 'true')['frames_per_tx_batch']:.2f}"),
            row("sleep on: wake-ups", lambda sh: f"{dev(sh, 'true')['wakeups']}"),
        ]
        if study == "wilc1000-tsq":
            rows_expected.append(row("off / on",
                                     lambda sh: f"{kBps(sh, 'false') / kBps(sh, 'true'):.1f}×"))
            fpb = lambda sh: f"{dev(sh, 'true')['frames_per_tx_batch']:.2f}"
            wk = lambda sh: dev(sh, "true")["wakeups"]
            expect("studies.md", d, f"then {fpb('7')} at 7 and {fpb('6')} at 6), so wake-ups fall "
                   f"from {wk('10')} to {min(wk('6'), wk('7'))}–{max(wk('6'), wk('7'))}", cmd)
            expect("studies.md", d, f"nicsim {kBps('6', 'true') / kBps('9', 'true'):.1f}× with "
                   "sleep on)", cmd)
            expect("studies.md", d, f"at shift 6 does ({kBps('6', 'true'):.1f} KB/s, {fpb('6')} "
                   "frames", cmd)
            on6, on10 = kBps("6", "true"), kBps("10", "true")
            expect("studies.md", d, f"shift 6 gives {on6 / on10:.1f}× the goodput of the default "
                   f"({on6:.1f} against {on10:.1f} KB/s)", cmd)
            off6, off10 = kBps("6", "false"), kBps("10", "false")
            expect("studies.md", d, f"({off10:.1f} → {off6:.1f} KB/s, {off6 / off10:.1f}×)", cmd)
            tpf = lambda sh: dev(sh, "false")["bus_stats"]["transactions_per_frame"]
            expect("studies.md", d, f"({tpf('10'):.2f} → {tpf('6'):.2f},", cmd)
            e = lambda sh, ps: dev(sh, ps)["energy_j"]
            expect("studies.md", d, f"{e('6', 'true'):.1f} J with sleep on at shift 6 against "
                   f"{e('6', 'false'):.1f} J with it off", cmd)
        else:
            irq = lambda sh: dev(sh, "false")["irqs"]
            rx = lambda sh: dev(sh, "false")["frames_rx"]
            tpf = lambda sh: dev(sh, "false")["bus_stats"]["transactions_per_frame"]
            on7, on10 = kBps("7", "true"), kBps("10", "true")
            expect("studies.md", d, f"({on10:.1f} →\n{on7:.1f} KB/s", cmd)
            off9, off10 = kBps("9", "false"), kBps("10", "false")
            expect("studies.md", d, f"{off10:.1f} → {off9:.1f} KB/s", cmd)
            expect("studies.md", d, f"as many interrupts ({irq('6')} against {irq('10')} at the "
                   f"default) and bus transactions per frame ({tpf('6'):.2f} against "
                   f"{tpf('10'):.2f})", cmd)
            expect("studies.md", d, f"ACK frames ({rx('6')} against {rx('10')})", cmd)
        for r in rows_expected:
            expect("studies.md", d, r, cmd + f" ({label} table)")


@check
def studies_kernel_ab():
    """The Linux 6.1 against 6.12 section of studies.md (issue 15 deliverable 2): the committed
    results.csv, compare.csv and compare.md, the A/B rows it quotes and the figures in its text."""
    d = doc("studies.md")
    s = Scratch()
    cmd = "build/nicsim sweep configs/studies/kernel-ab.yaml -j 2 --out /tmp/kernel-ab"
    s.run("studies.md", d, cmd)
    out = s.path("kernel-ab")
    committed = os.path.join(SRC, "docs", "studies", "kernel-ab")
    for name in ("results.csv", "compare.csv"):
        same_csv(os.path.join(out, name), os.path.join(committed, name), cmd)
    with open(os.path.join(out, "compare.md"), encoding="utf-8") as f:
        fresh_md = f.read()
    with open(os.path.join(committed, "compare.md"), encoding="utf-8") as f:
        if f.read() != fresh_md:
            failures.append(f"docs/studies/kernel-ab/compare.md differs from what `{cmd}` writes "
                            "(rerun it and copy compare.*)")
    # Every A/B row the section quotes is a row of the fresh table.
    with open(os.path.join(SRC, "docs", "studies.md"), encoding="utf-8") as f:
        raw = f.read()
    at = raw.find("## Linux 6.1 against 6.12")
    section = raw[at:raw.find("\n## ", at + 1)] if at >= 0 else ""
    quoted = [l for l in section.splitlines() if l.startswith("| ") and not l.startswith("| base ")]
    fresh_rows = set(fresh_md.splitlines())
    if len(quoted) < 10:
        failures.append(f"studies.md: the kernel-ab section quotes {len(quoted)} rows of compare.md")
    for r in quoted:
        if r not in fresh_rows:
            failures.append(f"docs/studies.md: the row «{r}» is not in the compare.md `{cmd}` "
                            "writes")
    # KS8851: every figure the same.
    ab = rows(os.path.join(out, "compare.csv"))
    ks = [r for r in ab if r["base"].startswith("ks8851")]
    if not ks or any(r["delta"] not in ("0", "") for r in ks):
        failures.append(f"studies.md says the KS8851 figures are identical on both kernels: "
                        f"{[(r['base'], r['metric'], r['delta']) for r in ks if r['delta'] != '0']}")
    reps = point_reports(out)
    rep = lambda k, scn: reps[(k, scn)]
    a, b = rep("6.1", "enc28j60-spi-iperf-tx"), rep("6.12", "enc28j60-spi-iperf-tx")
    irqs = a["devices"][0]["irqs"]
    later = b["sim_time_s"] - a["sim_time_s"]
    if b["devices"][0]["irqs"] != irqs:
        failures.append("studies.md says enc28j60-spi-iperf-tx takes as many interrupts on both")
    expect("studies.md", d, f"{irqs} interrupts in both kernels), the context switches are the "
           f"same ({a['host_cpu']['context_switches']} against "
           f"{b['host_cpu']['context_switches']})", cmd)
    expect("studies.md", d, f"take {later * 1e3:.1f} ms longer with 6.12 ({a['sim_time_s']:.4f} → "
           f"{b['sim_time_s']:.4f} s), {later / irqs * 1e6:.1f} µs per interrupt", cmd)
    a, b = rep("6.1", "enc28j60-spi-iperf-rx"), rep("6.12", "enc28j60-spi-iperf-rx")
    expect("studies.md", d, f"interrupt for {a['devices'][0]['frames_rx'] // a['devices'][0]['irqs']}"
           f" frames", cmd)
    expect("studies.md", d, f"{a['devices'][0]['irqs']} against {b['devices'][0]['irqs']} "
           f"interrupts, {a['host_cpu']['context_switches']} against "
           f"{b['host_cpu']['context_switches']} context switches", cmd)
    crc = lambda r: sum(1 for f in r["findings"] if f["message"].startswith("bad_crc7"))
    expect("studies.md", d, f"{crc(rep('6.12', 'wilc1000-spi-ttcp-tx'))} `bad_crc7` findings "
           f"against {crc(rep('6.1', 'wilc1000-spi-ttcp-tx'))} with 6.1", cmd)
    # The WILC1000's later start, and what moving 6.1's start does.
    q = "nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set traffic.bytes=4KiB -i 1"
    start = lambda t: (re.search(r"traffic start at ([\d.]+) s", t) or [None, "?"])[1]
    t61 = start(s.run("studies.md", d, q))
    t612 = start(s.run("studies.md", d + " " + q + " --set driver.kernel=6.12",
                       q + " --set driver.kernel=6.12"))
    expect("studies.md", d, f"prints `traffic start at {t61} s`, with `--set driver.kernel=6.12` "
           f"{t612} s", q)
    q = "nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set traffic.start=30ms --json -"
    shifted = json.loads(s.run("studies.md", d, q))
    mbps = lambda r: f"{r['totals']['goodput_bps'] / 1e6:.3f}"
    w61, w612 = rep("6.1", "wilc1000-spi-ttcp-tx"), rep("6.12", "wilc1000-spi-ttcp-tx")
    expect("studies.md", d, f"gives {mbps(shifted)} Mbit/s and {shifted['devices'][0]['irqs']} "
           f"interrupts, against {mbps(w61)} and {w61['devices'][0]['irqs']} at the default start "
           f"and {mbps(w612)} and {w612['devices'][0]['irqs']} with 6.12", q)


@check
def calibration():
    """docs/calibration.md: the validate figures, the seed spread and the predictions table."""
    d = doc("calibration.md")
    minus = lambda t: t.replace("-", "−")
    for name, label, measured in (("ps-off", "off", 1500), ("ps-on", "on", 400)):
        quoted = f"build/nicsim validate configs/validation/wilc1000-spi-ttcp-tx-{name}.yaml"
        out = Scratch().run("calibration.md", d + " " + quoted, quoted)
        if name == "ps-off":
            expect("calibration.md", d, quoted, "the quoted command")
        else:
            expect("calibration.md", d, "`…-ps-on.yaml`", "the quoted command")
        m = re.search(r"goodput_kBps\s+([\d.]+)\s+([\d.]+)\s+KB/s\s+([-+][\d.]+) %", out)
        if not m:
            failures.append(f"`{quoted}` printed no goodput_kBps row:\n{out}")
            continue
        expect("calibration.md", d, f"| {label} | ≈ {measured} KB/s | {m.group(1)} KB/s | "
               f"{minus(m.group(3))} % |", quoted)
    # The validation files' settings, seed by seed: the runs the check judges.
    quoted = ("build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.variant=chip-sleep-5.16 "
              "--set platform.kernel.spi_sync_fast_path=false "
              "--set driver.module_params.enable_sleep=false|true --set driver.power_save=false|true "
              "--set seed=N")
    expect("calibration.md", d, quoted, "the quoted command")
    g, rep = {}, {}
    for ps in ("false", "true"):
        for n in range(1, 6):
            p = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs/wilc1000-spi-ttcp-tx.yaml"),
                                "--set", "driver.variant=chip-sleep-5.16",
                                "--set", "platform.kernel.spi_sync_fast_path=false",
                                "--set", f"driver.module_params.enable_sleep={ps}",
                                "--set", f"driver.power_save={ps}", "--set", f"seed={n}",
                                "--quiet", "--json", "-"], capture_output=True, text=True)
            rep[(ps, n)] = json.loads(p.stdout)
            g[(ps, n)] = rep[(ps, n)]["totals"]["goodput_bps"] / 8192
    off = ", ".join(f"{g[('false', n)]:.1f}" for n in range(1, 5)) + f", {g[('false', 5)]:.1f}"
    on = [g[("true", n)] for n in range(1, 6)]
    expect("calibration.md", d, f"give {off} KB/s with chip sleep off and "
           f"{min(on):.1f}–{max(on):.1f} KB/s with it on", quoted)
    # The SCK assumption: the same runs with the SPI at 48 MHz (SCBR 2 of 96 MHz).
    quoted96 = quoted + " --set platform.spi_host.input_clock=96MHz"
    expect("calibration.md", d, quoted96, "the quoted command")
    g96 = {}
    for ps in ("false", "true"):
        runs = []
        for n in range(1, 6):
            p = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs/wilc1000-spi-ttcp-tx.yaml"),
                                "--set", "driver.variant=chip-sleep-5.16",
                                "--set", "platform.kernel.spi_sync_fast_path=false",
                                "--set", f"driver.module_params.enable_sleep={ps}",
                                "--set", f"driver.power_save={ps}", "--set", f"seed={n}",
                                "--set", "platform.spi_host.input_clock=96MHz",
                                "--quiet", "--json", "-"], capture_output=True, text=True)
            runs.append(json.loads(p.stdout)["totals"]["goodput_bps"] / 8192)
        g96[ps] = sum(runs) / len(runs)
    base = {ps: sum(g[(ps, n)] for n in range(1, 6)) / 5 for ps in ("false", "true")}
    move = lambda ps: minus(f"{100 * (g96[ps] / base[ps] - 1):+.1f}")
    expect("calibration.md", d, f"the means of seeds 1–5 are {g96['false']:.1f} KB/s "
           f"({move('false')} %) with chip sleep off and {g96['true']:.1f} KB/s ({move('true')} %) "
           "with it on", quoted96)
    # What the sleep-on run is made of (seed 1), and messages per KB against the sleep-off run.
    on1, off1 = rep[("true", 1)]["devices"][0], rep[("false", 1)]["devices"][0]
    expect("calibration.md", d, f"{on1['wakeups']} wake-ups for the 16 MiB (two for each of "
           f"{on1['tx_batches']} TX batches, one for each of {on1['irqs']} interrupts", quoted)
    per_kb = lambda dev: f"{dev['bus_stats']['transactions'] / 16384:.2f}"
    expect("calibration.md", d, f"{per_kb(on1)} SPI messages per KB sent, against {per_kb(off1)} "
           "in the sleep-off run", quoted)
    # Chip sleep on the 6.1 driver (pristine), seed 1.
    q61 = "build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.power_save=false|true"
    expect("calibration.md", d, q61, "the quoted command")
    g61 = {}
    for ps in ("false", "true"):
        out = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs/wilc1000-spi-ttcp-tx.yaml"),
                              "--set", f"driver.power_save={ps}", "--quiet", "--json", "-"],
                             capture_output=True, text=True).stdout
        g61[ps] = json.loads(out)["totals"]["goodput_bps"] / 8192
    expect("calibration.md", d, f"cost {g61['false'] / g61['true']:.1f}× at 48 MHz "
           f"({g61['false']:.1f} → {g61['true']:.1f} KB/s", q61)
    quoted = "build/nicsim validate configs/validation/ks8851-spi-iperf-rx.yaml"
    out = Scratch().run("calibration.md", d, quoted)
    m = re.search(r"goodput_kbps\s+([\d.]+)\s+([\d.]+)\s+[Kk]bit/s\s+([-+][\d.]+) %", out)
    expect("calibration.md", d, f"{quoted}` → {m.group(1) if m else '?'} Kbit/s "
           f"({minus(m.group(3)) if m else '?'} %)", quoted)
    # The predictions table: every other shipped scenario, `build/nicsim run configs/<name>.yaml`.
    expect("calibration.md", d, "(`build/nicsim run configs/<name>.yaml`", "the quoted command")
    for name in ("enc28j60-spi-iperf-rx", "enc28j60-spi-iperf-tx", "ks8851-par-iperf-rx",
                 "ks8851-par-iperf-tx", "ks8851-spi-iperf-tx", "ks8851-spi-ping",
                 "wilc1000-sdio-ttcp-rx", "wilc1000-sdio-ttcp-tx", "wilc1000-spi-ttcp-rx"):
        if name.endswith("ping"):
            p = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs", name + ".yaml")],
                               capture_output=True, text=True)
            m = re.search(r"rtt min/avg/max/mdev\s+([\d./]+) ms", p.stdout)
            cell = f"rtt min/avg/max/mdev {m.group(1)}" if m else "?"
        else:  # kbit/s to 0.1, from the report's goodput_bps
            j = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs", name + ".yaml"),
                                "--json", "-", "-q"], capture_output=True, text=True).stdout
            try:
                cell = f"{json.loads(j)['totals']['goodput_bps'] / 1e3:.1f}"
            except (ValueError, KeyError):
                cell = "?"
        expect("calibration.md", d, f"| {name} | {cell} |", f"build/nicsim run configs/{name}.yaml")


@check
def traces_walkthrough():
    d = doc("traces.md")
    s = Scratch()
    cmd = ("nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set traffic.bytes=4KiB "
           "--set traffic.write_size=4KiB --timeline tx.json --log tx.log")
    s.run("traces.md", d, cmd)
    with open(s.path("tx.log")) as f:
        log = f.read().splitlines()
    # The two example lines of the log section (the batch's data DMA: its command frame and the
    # data frame) and the batch's span, from its first line to the end of the HOST_TO_FW clear
    # that follows the data DMA (the allow-sleep write).
    cmd_at = next((i for i, l in enumerate(log)
                   if l.endswith(" wlan0-tx 0xc7 DMA_EXT_WRITE 0x0000 3096 B")), None)
    if cmd_at is None:
        failures.append(f"tx.log of `{cmd}` has no DMA_EXT_WRITE of the 3096 B batch")
        return
    data = next((l for l in log[cmd_at:] if l.endswith(" wlan0-tx DMA_EXT_WRITE data 3096 B")), "?")
    for line in (log[cmd_at], data):
        expect("traces.md", d, line, "the log example")
    end = next((l.split() for l in log[cmd_at:]
                if " wlan0-tx 0xc3 INTERNAL_WRITE 0x0b host_to_fw (clockless) = 0x00000000" in l),
               None)
    # The batch starts with the TX thread's first transaction after the traffic start.
    out = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs", "wilc1000-spi-ttcp-tx.yaml"),
                          "-i", "1", "-q", "--set", "traffic.bytes=4KiB"],
                         capture_output=True, text=True).stdout
    m = re.search(r"traffic start at ([\d.]+) s", out)
    start_ns = float(m.group(1)) * 1e9 if m else 0.0
    first = next((l.split() for l in log if l.split() and l.split()[0].isdigit()
                  and int(l.split()[0]) > start_ns and " wlan0-tx " in l), None)
    if end is None or first is None:
        failures.append(f"tx.log of `{cmd}`: no start or allow-sleep end of the batch")
        return
    t0, t1 = int(first[0]) / 1e6, (int(end[0]) + int(end[4])) / 1e6
    expect("traces.md", d, f"{t1 - t0:.2f} ms the batch takes ({t0:.3f} to {t1:.3f} ms)", cmd)
    with open(s.path("tx.json")) as f:
        events = json.load(f)["traceEvents"]
    hs = sorted((e for e in events if e.get("ph") == "X" and e.get("name") == "wake-up handshake"),
                key=lambda e: e["ts"])
    batch = [e for e in hs if e["ts"] >= start_ns / 1e3][:2]
    if len(batch) < 2:
        failures.append(f"`{cmd}`: fewer than two wake-up handshakes after the traffic start")
        return
    for i, e in enumerate(batch):
        frag = (f"{e['ts'] / 1e3:.3f}–{(e['ts'] + e['dur']) / 1e3:.3f} ms, {e['dur']:.0f} µs, "
                f"`clk_status_polls: {e['args']['clk_status_polls']}`")
        expect("traces.md", d, frag, cmd)
    walkthrough_steps(d, cmd, log, events, start_ns, t0, t1, batch)
    # The traffic start of the WILC1000 scenarios, as `run -i` prints it.
    for cfg, quoted in (("wilc1000-spi-ttcp-tx.yaml", "whose traffic starts at {} ms"),
                        ("wilc1000-sdio-ttcp-tx.yaml", "over SDIO it starts at {} ms")):
        out = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs", cfg), "-i", "1", "-q",
                              "--set", "traffic.bytes=4KiB"], capture_output=True, text=True).stdout
        m = re.search(r"traffic start at ([\d.]+) s", out)
        ms = f"{float(m.group(1)) * 1e3:.1f}" if m else "?"
        expect("traces.md", d, quoted.format(ms), f"nicsim run configs/{cfg} -i 1")
        wd = doc("models/wilc1000.md")
        expect("models/wilc1000.md", wd, ("the traffic starts at {} ms over SPI" if "spi" in cfg
                                          else "at {} ms over SDIO").format(ms),
               f"nicsim run configs/{cfg} -i 1")


def walkthrough_steps(d, cmd, log, events, start_ns, t0, t1, handshakes):
    """The figures of the walk-through's numbered steps, from its run's timeline and log."""
    threads = {(e["pid"], e.get("tid")): e["args"]["name"] for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name"}

    def spans(track, name, after_us=start_ns / 1e3):
        return sorted((e for e in events if e.get("ph") in ("X", "i") and e.get("name") == name
                       and threads.get((e["pid"], e.get("tid"))) == track and e["ts"] >= after_us),
                      key=lambda e: e["ts"])

    def ms(us):
        return f"{us / 1e3:.3f}"

    def span_ms(e):
        return f"{ms(e['ts'])}–{ms(e['ts'] + e['dur'])} ms"

    frags = [f"the traffic starts at {start_ns / 1e6:.3f} ms",
             f"the first batch starts at {t0:.3f} ms"]
    w1, w2 = handshakes[0], handshakes[1]
    # Wake-up 1: the time between its HOST_TO_FW and WAKEUP writes.
    rows = [l.split() for l in log if l.split() and l.split()[0].isdigit()]
    h2f = next(r for r in rows if int(r[0]) >= round(t0 * 1e6) and "host_to_fw" in r)
    wake = next(r for r in rows if int(r[0]) > int(h2f[0]) and "0x01" in r and "wakeup" in r)
    frags.append(f"Most of the {w1['dur']:.0f} µs is the {(int(wake[0]) - int(h2f[0])) / 1e3:.0f} µs "
                 "between the two writes")
    # A register message: its frame on the wire, and from one to the next when nothing waits.
    batch_rows = [r for r in rows if round(t0 * 1e6) <= int(r[0]) <= round(t1 * 1e6)]
    clockless = [int(r[4]) for r in batch_rows if "(clockless)" in r]
    frags.append(f"for a frame of {min(clockless) / 1e3:.1f}–{max(clockless) / 1e3:.1f} µs")
    gaps = sorted(int(b[0]) - int(a[0]) for a, b in zip(batch_rows, batch_rows[1:])
                  if "(clockless)" in a and "(clockless)" in b)
    gaps = [g for g in gaps if g < 2 * gaps[len(gaps) // 2]]  # not the waits for the core
    frags.append(f"Each register message takes about {round(gaps[len(gaps) // 2] / 1e4) * 10} µs")
    vmm = next(e for e in spans("operations", "DMA_EXT_WRITE 12 B"))
    frags.append(f"addr `{vmm['args']['addr']}`, at {ms(vmm['ts'])} ms")
    sleeps = spans("power handshake", "allow sleep")
    frags.append(f"**Allow sleep** ({span_ms(sleeps[0])})")
    host_work = next(e for e in spans("firmware host work", "firmware: host work"))
    frags.append(f"(`firmware: host work` from {ms(host_work['ts'])} ms)")
    idle_since = max(e["ts"] + e["dur"] for e in spans("firmware host work", "firmware: host work", 0)
                     if e["ts"] + e["dur"] <= start_ns / 1e3)
    frags.append(f"its firmware idle since {ms(idle_since)} ms")
    data = next(e for e in spans("operations", "DMA_EXT_WRITE 3096 B"))
    frags.append(f"addr `{data['args']['addr']}`, {span_ms(data)}")
    frame = next(r for r in rows if r[-3:] == ["data", "3096", "B"] and "DMA_EXT_WRITE" in r)
    frags.append(f"one `DMA_EXT_WRITE data 3096 B` frame of {int(frame[4]) / 1e3:.0f} µs")
    frags.append(f"`radio tx` from {ms(spans('radio', 'radio tx')[0]['ts'])} ms")
    frags.append(f"**Allow sleep** again, {span_ms(sleeps[1])}")
    frags.append(f"ACK comes back at {ms(spans('radio', 'radio rx')[0]['ts'])} ms")
    frags.append(f"`irq pin falls` at {ms(spans('irq pin', 'irq pin falls')[0]['ts'])} ms")
    wakes = spans("power handshake", "wake-up handshake")
    frags.append(f"wake-up 3 at {ms(wakes[2]['ts'])} ms")
    frags.append(f"handshake from {ms(wakes[3]['ts'])} ms")
    parts = [w1["dur"], sleeps[0]["dur"], w2["dur"], sleeps[1]["dur"]]
    frags.append(f"{sum(parts) / 1e3:.2f} ms are the two wake-up handshakes")
    frags.append("(" + " + ".join(f"{p:.0f}" for p in parts) + " µs; with the two resets, "
                 f"{sum(1 for r in rows if t0 * 1e6 <= int(r[0]) <= t1 * 1e6 and ('(clockless)' in r or 'RESET' in r))}"
                 " register messages)")
    frags.append(f"{int(frame[4]) / 1e6:.2f} ms the data frame")
    first = next(i for i, l in enumerate(log, 1) if l.startswith(f"{int(t0 * 1e6)} "))
    last = next(i for i, l in enumerate(log, 1) if l.split() and l.split()[0].isdigit()
                and int(l.split()[0]) + int(l.split()[4]) == round(t1 * 1e6))
    frags.append(f"lines {first} to {last} of `tx.log` (start times `{log[first - 1].split()[0]}` "
                 f"to `{log[last - 1].split()[0]}` ns)")
    for frag in frags:
        expect("traces.md", d, frag, cmd)
    # The whole run's batches and wake-ups, as its text report prints them.
    full = "nicsim run configs/wilc1000-spi-ttcp-tx.yaml"
    out = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs", "wilc1000-spi-ttcp-tx.yaml")],
                         capture_output=True, text=True).stdout
    _, per_batch = batches(out)
    m = re.search(r"wake-ups found\s+(\d+ clock running, \d+ waking, \d+ asleep)", out)
    expect("traces.md", d, f"(`{full}`) averages {per_batch:.2f} frames per batch", full)
    expect("traces.md", d, f"`wlan0 wake-ups found {m.group(1) if m else '?'}`", full)


@check
def traces_vcd_bring_up_size():
    d = doc("traces.md")
    s = Scratch()
    cmd = ("nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set traffic.bytes=4KiB --vcd fw.vcd "
           "--trace-window :84ms")
    s.run("traces.md", d, cmd)
    expect("traces.md", d, f"is {os.path.getsize(s.path('fw.vcd')) / 1e6:.0f} MB (`{cmd}`", cmd)


@check
def traces_size_limit():
    """The warnings and the finding of the size-limit example."""
    d = doc("traces.md")
    s = Scratch()
    quoted = ("nicsim run configs/ks8851-spi-iperf-rx.yaml --set traffic.bytes=64KiB -q --json r.json "
              "--vcd w.vcd --timeline t.json --log bus.log --pcap f.pcapng --trace-max-size 32KiB")
    expect("traces.md", d, "$ " + quoted, "the quoted command")
    p = s.process("traces.md", d, quoted)
    for line in p.stderr.splitlines():
        if line.startswith("nicsim: warning: trace file"):
            expect("traces.md", d, line, quoted)
    with open(s.path("r.json")) as f:
        findings = [x["message"] for x in json.load(f).get("findings", [])
                    if x.get("source") == "trace" and "'t.json'" in x.get("message", "")]
    expect("traces.md", d, f"`{findings[0] if findings else '?'}`", quoted)


@check
def traces_flow_arrows():
    d = doc("traces.md")
    s = Scratch()
    cmd = ("nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set traffic.bytes=64KiB "
           "--timeline t.json")
    s.run("traces.md", d, cmd)
    with open(s.path("t.json")) as f:
        events = json.load(f)["traceEvents"]
    arrows = sum(1 for e in events if e["ph"] == "s")
    expect("traces.md", d, f"writes {os.path.getsize(s.path('t.json'))} bytes, {len(events)} "
           f"events of which {arrows} arrows ({2 * arrows} events)", cmd)


@check
def traces_sigrok():
    import shutil
    if not shutil.which("sigrok-cli"):
        print("     (sigrok-cli not installed: traces.md's sigrok example not checked)")
        return
    d = doc("traces.md")
    s = Scratch()
    s.run("traces.md", d, "build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set traffic.bytes=4KiB "
          "--set traffic.write_size=4KiB --trace-window 84.17ms:88ms --vcd w.vcd --vcd-format sigrok "
          "--log w.log -q")
    quoted = ("sigrok-cli -I vcd -i w.vcd -P spi:clk=sck:mosi=mosi:miso=miso:cs=cs_n0 -A "
              "spi=mosi-transfer --protocol-decoder-samplenum")
    expect("traces.md", d, quoted + " | head -3", "the quoted command")
    out = subprocess.run(shlex.split(quoted), cwd=s.dir, capture_output=True, text=True).stdout
    for line in out.splitlines()[:3]:
        expect("traces.md", d, line, quoted)
    with open(s.path("w.log")) as f:
        first = f.read().splitlines()[1]
    expect("traces.md", d, f"`{first}` in `w.log`", "the log of the quoted run")


@check
def scenarios_interval_lines():
    d = doc("scenarios.md")
    out = Scratch().run("scenarios.md", d, "nicsim run configs/ks8851-spi-iperf-rx.yaml -i 1")
    lines = out.splitlines()
    for line in (lines[0], lines[1]) + tuple(l for l in lines if l.endswith("  total")):
        expect("scenarios.md", d, line, "nicsim run configs/ks8851-spi-iperf-rx.yaml -i 1")
    # "Other names are errors": an unknown module parameter stops validation.
    p = subprocess.run([NICSIM, "validate-config", os.path.join(SRC, "configs/ks8851-spi-ping.yaml"),
                        "--set", "driver.module_params.bogus=1"], capture_output=True, text=True)
    expect("scenarios.md", d, "Other names are errors", "validate-config")
    if p.returncode != 1 or "unknown module parameter 'bogus'" not in p.stderr:
        failures.append(f"docs/scenarios.md says unknown module parameters are errors; "
                        f"validate-config exited {p.returncode}: {p.stderr}")


@check
def driver_changes_worked_example():
    """driver-changes.md's worked example, done as the doc says: the build's WILC1000 tree copied
    twice, one copy with the enable_sleep edit of step 3, both run with --driver-src (own
    plug-in cache), the figures of step 5 and of the two-tree sweep taken from the reports."""
    d = doc("driver-changes.md")
    ksrc = os.path.join(os.path.dirname(NICSIM), "linux-src")
    kdir = "drivers/net/wireless/microchip/wilc1000"
    if not os.path.isfile(os.path.join(ksrc, kdir, "wlan.c")):
        failures.append(f"driver-changes.md: no {kdir}/wlan.c under {ksrc} to rerun the example")
        return
    s = Scratch()
    env = dict(os.environ, XDG_CACHE_HOME=s.path("cache"))
    trees = {}
    for name in ("wilc-pristine", "wilc-test"):
        root = s.path(name)
        os.makedirs(os.path.join(root, os.path.dirname(kdir)))
        shutil.copy(os.path.join(ksrc, "Makefile"), root)
        shutil.copytree(os.path.join(ksrc, kdir), os.path.join(root, kdir))
        trees[name] = root
    wlan = os.path.join(trees["wilc-test"], kdir, "wlan.c")
    text = open(wlan).read()
    old = "\tif (release == WILC_BUS_RELEASE_ALLOW_SLEEP && wilc->power_save_mode)\n"
    param = ("static bool enable_sleep;\nmodule_param(enable_sleep, bool, 0644);\n"
             'MODULE_PARM_DESC(enable_sleep, "let the chip sleep between bus accesses '
             '(default: no)");\n\n')
    fn = "static inline void release_bus("
    if old not in text or fn not in text:
        failures.append("driver-changes.md: wlan.c no longer has the release_bus line to edit")
        return
    text = text.replace(old, old.replace(")\n", " && enable_sleep)\n"), 1)
    open(wlan, "w").write(text.replace(fn, param + fn, 1))
    for quoted in ("if (release == WILC_BUS_RELEASE_ALLOW_SLEEP && wilc->power_save_mode && "
                   "enable_sleep)", "module_param(enable_sleep, bool, 0644);"):
        expect("driver-changes.md", d, quoted, "the edit the check makes")

    def run(tree, *sets):
        cmd = (f"nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set traffic.bytes=256KiB "
               f"--driver-src ~/wilc-test --json /tmp/{'before' if tree == 'wilc-pristine' else 'after'}.json")
        if not sets:
            expect("driver-changes.md", d, cmd, "the quoted command")
        args = [NICSIM, "run", os.path.join(SRC, "configs/wilc1000-spi-ttcp-tx.yaml"), "--quiet",
                "--set", "traffic.bytes=256KiB", "--driver-src", trees[tree], "--json", "-"]
        for x in sets:
            args += ["--set", x]
        p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=900)
        if p.returncode != 0:
            failures.append(f"driver-changes.md: `{' '.join(args)}` exited {p.returncode}:\n"
                            f"{p.stderr[-2000:]}")
            return None
        r = json.loads(p.stdout)
        dev = r["devices"][0]
        return {"wakeups": dev["wakeups"], "waking": dev["wake_time_s"], "t": r["sim_time_s"],
                "found_running": dev["wake"]["found_clock_running"],
                "mbit": r["flows"][0]["goodput_bps"] / 1e6,
                "messages": r["host_cpu"]["spi_controller"]["messages"]}

    before = run("wilc-pristine")
    before_copy = run("wilc-test")  # the edited tree, enable_sleep off (its default)
    again = run("wilc-test", "driver.module_params.enable_sleep=true")
    if not (before and before_copy and again):
        return
    origin = "the worked example, rerun"
    a, b = before, before_copy
    for frag in (f"chip wake-ups {a['wakeups']} → {b['wakeups']}",
                 f"goodput {a['mbit']:.3f} → {b['mbit']:.3f} Mbit/s",
                 f"simulated time {a['t']:.6f} → {b['t']:.6f} s",
                 f"every one of the {a['wakeups']} wake-ups found its clock running, "
                 f"{a['waking']:.3f} s of `time waking`",
                 f"SPI messages ({a['messages']} → {b['messages']},",
                 f"gives {again['wakeups']} wake-ups and {again['mbit']:.3f} Mbit/s again",
                 f"its simulated time is {round((again['t'] - a['t']) * 1e9)} ns longer"):
        expect("driver-changes.md", d, frag, origin)
    if a["found_running"] != a["wakeups"]:
        failures.append(f"driver-changes.md says every wake-up of the pristine run found the clock "
                        f"running: {a['found_running']} of {a['wakeups']}")

    # The sweep over both trees (the doc's spec with this scratch's paths).
    spec = s.path("trees.yaml")
    with open(spec, "w") as f:
        f.write(f"base: {os.path.join(SRC, 'configs/wilc1000-spi-ttcp-tx.yaml')}\n"
                "axes:\n  - key: device.bus_clock\n    values: [24MHz, 48MHz]\n"
                "  - key: driver.source\n"
                f"    values: [{trees['wilc-pristine']}, {trees['wilc-test']}]\n"
                "metrics: [goodput_kBps, wakeups]\n")
    expect("driver-changes.md", d, "values: [/home/me/wilc-pristine, /home/me/wilc-test]",
           "the sweep spec the check runs")
    p = subprocess.run([NICSIM, "sweep", spec, "-j", "2", "--out", s.path("sweep")],
                       capture_output=True, text=True, env=env, timeout=1800)
    if p.returncode != 0:
        failures.append(f"driver-changes.md: the two-tree sweep exited {p.returncode}:\n"
                        f"{p.stderr[-2000:]}")
        return
    by = {(clock(r), os.path.basename(r["driver.source"].rstrip("/"))): r
          for r in rows(s.path("sweep", "results.csv"))}
    kb = lambda mhz, t: f"{float(by[(mhz, t)]['goodput_kBps']):.0f}"
    wk = lambda mhz, t: f"{float(by[(mhz, t)]['wakeups']):.0f}"
    expect("driver-changes.md", d,
           f"24 MHz {kb('24MHz', 'wilc-pristine')} → {kb('24MHz', 'wilc-test')} kB/s, 48 MHz "
           f"{kb('48MHz', 'wilc-pristine')} → {kb('48MHz', 'wilc-test')} kB/s, wake-ups "
           f"{wk('48MHz', 'wilc-pristine')} → {wk('48MHz', 'wilc-test')} at 48 MHz",
           "the two-tree sweep, rerun")


@check
def citations_resolve():
    """Sources cited in the tree are in the tree: every docs/sources.md#anchor exists, and no
    file cites the notes kept outside the repository (hardware-facts.md, ../shared/...)."""
    with open(os.path.join(SRC, "docs", "sources.md"), encoding="utf-8") as f:
        anchors = set(re.findall(r'<a id="([a-z0-9-]+)"></a>', f.read()))
    outside = re.compile(r"hardware-facts|\.\./shared/|/work/shared|(wilc1000|ks8851)-driver\.md")
    for root, dirs, files in os.walk(SRC):
        dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
        for name in files:
            if not name.endswith((".md", ".h", ".c", ".cc", ".yaml", ".sh", ".py", ".txt")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, SRC)
            if rel == "tests/docs/doc_numbers.py":
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if outside.search(line):
                        failures.append(f"{rel}:{n}: cites a file outside the repository: "
                                        f"{line.strip()}")
                    for a in re.findall(r"sources\.md#([a-z0-9-]+)", line):
                        if a not in anchors:
                            failures.append(f"{rel}:{n}: docs/sources.md has no anchor '{a}'")


@check
def driver_testing_enc28j60_ifdown():
    """driver-testing.md: the 6.1 enc28j60 leak an iperf TX run cut by its duration shows."""
    d = doc("driver-testing.md")
    q = "nicsim run configs/enc28j60-spi-iperf-tx.yaml --set duration=2.9s"
    out = Scratch().run("driver-testing.md", d, q, expect_rc=4)  # 4: cut short of its bytes
    m = re.search(r"skbs leaked \(ifdown\)\s+(\d+)", out)
    expect("driver-testing.md", d, f"`skbs leaked (ifdown) {m.group(1) if m else '?'}`", q)


@check
def driver_testing_check_lines():
    """driver-testing.md quotes every line `nicsim check` prints for the shipped example."""
    d = doc("driver-testing.md")
    cmd = "nicsim check examples/ks8851-ping-check.yaml"
    out = Scratch().run("driver-testing.md", d, cmd)
    for line in out.splitlines():
        expect("driver-testing.md", d, " ".join(line.replace(SRC + "/", "").split()), cmd)


@check
def wilc1000_ps_wake_listen_interval():
    """models/wilc1000.md: idle power per DTIM period for both wake policies (20 s, chip sleep on)."""
    d = doc("models/wilc1000.md")
    cmd = ("build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set 'traffic={kind: idle}' "
           "--set duration=20s --set driver.power_save=true --set link.dtim_period=1 "
           "--set device.firmware.ps_wake=listen_interval")
    expect("models/wilc1000.md", d, cmd, "the quoted command")
    s = Scratch()
    mw = {}
    for policy in ("listen_interval", "dtim"):
        for dtim in (1, 3, 10):
            run = cmd.replace("dtim_period=1", f"dtim_period={dtim}").replace(
                "ps_wake=listen_interval", f"ps_wake={policy}")
            args = [NICSIM if a == "build/nicsim" else
                    os.path.join(SRC, a) if a.startswith("configs/") else a
                    for a in shlex.split(run)] + ["--quiet", "--json", s.path("r.json")]
            subprocess.run(args, capture_output=True, text=True, check=True)
            with open(s.path("r.json")) as f:
                mw[(policy, dtim)] = json.load(f)["devices"][0]["avg_power_w"] * 1e3
    li = [mw[("listen_interval", k)] for k in (1, 3, 10)]
    dt = [mw[("dtim", k)] for k in (1, 3, 10)]
    if len({f"{x:.2f}" for x in li}) == 1:
        expect("models/wilc1000.md", d, f"{li[0]:.2f} mW at DTIM 1, 3 and 10", cmd)
    else:
        failures.append(f"docs/models/wilc1000.md: listen_interval power differs per DTIM: {li}")
    expect("models/wilc1000.md", d,
           f"against {dt[0]:.2f}, {dt[1]:.2f} and {dt[2]:.2f} mW waking per DTIM", cmd)


@check
def enc28j60_scenarios():
    """models/enc28j60.md: the two scenarios' goodput at 12 and 20 MHz."""
    d = doc("models/enc28j60.md")
    s = Scratch()
    for kind, row in (("tx", "iperf TX"), ("rx", "iperf RX")):
        cmd = "build/nicsim run configs/enc28j60-spi-iperf-tx.yaml"
        expect("models/enc28j60.md", d, cmd, "the quoted command")
        mbit = {}
        for clock in ("12MHz", "20MHz"):
            args = [NICSIM, "run", os.path.join(SRC, f"configs/enc28j60-spi-iperf-{kind}.yaml"),
                    "--set", f"device.bus_clock={clock}", "--quiet", "--json", s.path("r.json")]
            subprocess.run(args, capture_output=True, text=True, check=True)
            with open(s.path("r.json")) as f:
                mbit[clock] = json.load(f)["totals"]["goodput_bps"] / 1e6
        expect("models/enc28j60.md", d, f"| {row} | {mbit['12MHz']:.2f} Mbit/s |", cmd)
        expect("models/enc28j60.md", d, f"{mbit['20MHz']:.2f} Mbit/s", cmd)


@check
def host_stack_netif_rx_in_caller():
    """host-stack.md: the calibration points with host.net.netif_rx_in_caller off, as the doc
    says it measured them (a copy of configs/ with the setting added to every scenario)."""
    d = doc("host-stack.md")
    quoted = ("`build/nicsim validate` on a copy of configs/ with `host: {net: "
              "{netif_rx_in_caller: false}}` added to each scenario")
    expect("host-stack.md", d, quoted, "the quoted command")
    s = Scratch()
    cfg = os.path.join(s.dir, "configs")
    shutil.copytree(os.path.join(SRC, "configs"), cfg)
    for name in os.listdir(cfg):
        path = os.path.join(cfg, name)
        if name.endswith(".yaml"):
            with open(path) as f:
                text = f.read()
            if re.search(r"^host:", text, re.M):
                raise RuntimeError(f"{name} has a host: section; merge the setting into it")
            with open(path, "a") as f:
                f.write("\nhost:\n  net:\n    netif_rx_in_caller: false\n")
    env = dict(os.environ, NICSIM_CONFIGS_DIR=cfg)
    p = subprocess.run([NICSIM, "validate", "-j", "2", os.path.join(cfg, "validation")],
                       capture_output=True, text=True, env=env)
    if p.returncode not in (0, 3):  # 3: a point outside its tolerance, as the doc says
        failures.append(f"validate with netif_rx_in_caller off exited {p.returncode}: {p.stdout}")
    rows = {l.split()[0]: l.split() for l in p.stdout.splitlines()
            if re.search(r"(PASS|FAIL|ERROR)$", l)}
    # A row from its end (the metric column is left out when the table is too wide):
    # predicted measured unit error % ±tolerance % result.
    def fig(check, unit):
        r = rows[check]
        return f"{r[-8]} {unit} ({r[-5].replace('-', '−')} %"
    on = subprocess.run([NICSIM, "validate", "-j", "2"], capture_output=True, text=True).stdout
    on_rows = {l.split()[0]: l.split() for l in on.splitlines()
               if re.search(r"(PASS|FAIL|ERROR)$", l)}
    for check in ("ks8851-spi-iperf-rx", "wilc1000-spi-ttcp-tx-ps-off", "wilc1000-spi-ttcp-tx-ps-on"):
        # Predicted against measured, unrounded (the error column rounds to 0.1 %); a row
        # read from its end: ... predicted measured unit error % tolerance % result.
        gap = lambda r: abs(float(r[-8]) - float(r[-7]))
        if gap(rows[check]) <= gap(on_rows[check]):
            failures.append(f"host-stack.md says netif_rx_in_caller off moves {check} away from "
                            f"its measurement: off {rows[check][-5]} %, on {on_rows[check][-5]} %")
    origin = "validate with netif_rx_in_caller off"
    expect("host-stack.md", d, "ks8851-spi-iperf-rx " + fig("ks8851-spi-iperf-rx", "Kbit/s"), origin)
    expect("host-stack.md", d, "chip sleep off " + fig("wilc1000-spi-ttcp-tx-ps-off", "KB/s"), origin)
    expect("host-stack.md", d, "chip sleep on " + fig("wilc1000-spi-ttcp-tx-ps-on", "KB/s"), origin)


@check
def host_stack_fq_codel():
    """host-stack.md: pfifo_fast against fq_codel where TSQ does not bound the queue."""
    d = doc("host-stack.md")
    s = Scratch()
    q = ("nicsim-netstack --rate 12mbit --delay 5ms --duration 10s --sk-pacing-shift 0 "
         "--tcp-limit-output-bytes 4194304 --set qdisc=")
    r = {k: json.loads(s.run("host-stack.md", d, q + k)) for k in ("pfifo_fast", "fq_codel")}
    a, b = r["pfifo_fast"], r["fq_codel"]
    fig = (f"gives a mean backlog of {a['qdisc_backlog_pkts_mean']:.1f} packets and an srtt of "
           f"{a['srtt_us'] / 1e3:.0f} ms with pfifo_fast, {b['qdisc_backlog_pkts_mean']:.1f} "
           f"packets and {b['srtt_us'] / 1e3:.0f} ms with fq_codel ({b['qdisc_drops']} drops), "
           f"both {a['goodput_bps'] / 1e6:.2f} Mbit/s")
    if f"{a['goodput_bps'] / 1e6:.2f}" != f"{b['goodput_bps'] / 1e6:.2f}":
        failures.append(f"host-stack.md says both qdiscs give the same goodput: {a['goodput_bps']} "
                        f"vs {b['goodput_bps']}")
    expect("host-stack.md", d, fig, q + "...")


@check
def host_stack_tail_loss_probe():
    """host-stack.md: the KS8851 SPI RX run with and without tail loss probes."""
    d = doc("host-stack.md")
    s = Scratch()
    q = "nicsim run configs/ks8851-spi-iperf-rx.yaml --set seed=3 --json -"
    figures = []
    for extra in ("", " --set peer.net.tcp_early_retrans=0"):
        r = json.loads(s.run("host-stack.md", d + " " + q + extra, q + extra))
        t = r["flows"][0]["tcp"]
        figures.append((t["tail_loss_probes"], t["timeouts"],
                        f"{r['flows'][0]['goodput_bps'] / 1e3:.1f}"))
    (p1, t1, g1), (p0, t0, g0) = figures
    if not (p1 >= 1 and t1 < t0):
        failures.append("host-stack.md says the probe saves the seed-3 run an RTO: "
                        f"probes {p1}, timeouts {t1} against {t0} without probes")
    # "Of the shipped scenarios only the KS8851 SPI RX run ... sends probes (N with its own seed)."
    for cfg in sorted(glob.glob(os.path.join(SRC, "configs", "*.yaml"))):
        p = subprocess.run([NICSIM, "run", cfg, "--quiet", "--json", "-"], capture_output=True,
                           text=True)
        for f in json.loads(p.stdout)["flows"]:
            n = (f.get("tcp") or {}).get("tail_loss_probes")
            if os.path.basename(cfg) == "ks8851-spi-iperf-rx.yaml":
                expect("host-stack.md", d, f"sends probes ({n} with its own seed)", cfg)
            elif n:
                failures.append(f"host-stack.md says only ks8851-spi-iperf-rx sends tail loss "
                                f"probes; {os.path.basename(cfg)} sends {n}")
    expect("host-stack.md", d, f"`tail_loss_probes` {p1} and `timeouts` {t1}, {g1} kbit/s", q)
    expect("host-stack.md", d, f"`--set peer.net.tcp_early_retrans=0`: {p0} and {t0}, {g0} kbit/s",
           q + " --set peer.net.tcp_early_retrans=0")


@check
def calibration_spi_core_before_6_0():
    """calibration.md: the 6.1 predictions against the pump's share of the old core's message
    cost, each share with the message path the fit gives for it."""
    d = doc("calibration.md")
    for q in ("build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.power_save=false|true",
              "build/nicsim run configs/wilc1000-spi-ttcp-rx.yaml --set traffic.kind=iperf_rx "
              "--set traffic.write_size=128KiB --set driver.power_save=false|true",
              "--set platform.spi_host.per_message_overhead=26.87us|23.32us|19.85us"):
        expect("calibration.md", d, q, "the quoted command")
    q = "build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set platform.spi_host.per_message_overhead=N"
    batch = {}
    for pump, path in ((0, "26.87"), (5, "23.32"), (10, "19.85")):
        pm = f"platform.spi_host.per_message_overhead={path}us"
        tx = {ps: run_json("configs/wilc1000-spi-ttcp-tx.yaml", [pm, f"driver.power_save={ps}"])
              for ps in ("false", "true")}
        rx = {ps: run_json("configs/wilc1000-spi-ttcp-rx.yaml",
                           [pm, "traffic.kind=iperf_rx", "traffic.write_size=128KiB",
                            f"driver.power_save={ps}"]) for ps in ("false", "true")}
        kb = lambda r: f"{r['flows'][0]['goodput_bps'] / 8192:.1f}"
        mb = lambda r: f"{r['flows'][0]['goodput_bps'] / 1e6:.2f}"
        label = f"{pump} µs (shipped)" if pump == 5 else f"{pump} µs"
        expect("calibration.md", d, f"| {label} | {path} µs | {kb(tx['false'])} / {kb(tx['true'])} | "
               f"{mb(rx['false'])} / {mb(rx['true'])} |", q)
        on = tx["true"]["devices"][0]
        if pump in (0, 5):
            batch[pump] = (f"{on['frames_per_tx_batch']:.2f}", on["wakeups"])
    expect("calibration.md", d, f"({batch[5][0]} frames per batch and {batch[5][1]} wake-ups with "
           f"the shipped path, {batch[0][0]} and {batch[0][1]} with 26.87 µs)", q)


@check
def calibration_checks_same_board():
    """calibration.md: the SAMA5 board's published runs that are not fitted, each against the
    mean of seeds 1-5 of the model's run of its driver generation, the wake-ups of the sending
    run with chip sleep, the two regimes of sending with chip sleep, and the four receiving
    checks against the RX batch size and the receive cost per segment."""
    d = doc("calibration.md")
    old = ["driver.variant=chip-sleep-5.16", "platform.kernel.spi_sync_fast_path=false"]
    sleep = lambda b: [f"driver.module_params.enable_sleep={b}", f"driver.power_save={b}"]
    ip_tx = ["traffic.kind=iperf_tx", "traffic.write_size=128KiB"]
    ip_rx = ["traffic.kind=iperf_rx", "traffic.write_size=128KiB"]
    new_wake = ["platform.kernel.spi_sync_fast_path=false", "driver.power_save=true"]
    rx, tx = "configs/wilc1000-spi-ttcp-rx.yaml", "configs/wilc1000-spi-ttcp-tx.yaml"
    kb = lambda r: r["flows"][0]["goodput_bps"] / 8192
    mb = lambda r: r["flows"][0]["goodput_bps"] / 1e6
    seeds = lambda cfg, sets: [run_json(cfg, sets + [f"seed={n}"]) for n in range(1, 6)]
    q = ("build/nicsim run configs/wilc1000-spi-ttcp-rx.yaml --set driver.variant=chip-sleep-5.16 "
         "--set platform.kernel.spi_sync_fast_path=false --set driver.module_params.enable_sleep=B "
         "--set driver.power_save=B --set seed=N")
    expect("calibration.md", d, q, "the quoted command")
    rows = (("ttcp receiving, chip sleep off", rx, old + sleep("false"), kb, "KB/s", 2762.1),
            ("ttcp receiving, chip sleep on", rx, old + sleep("true"), kb, "KB/s", 1298.1),
            ("iperf3 sending, PSM off", tx, old + ip_tx + sleep("false"), mb, "Mbit/s", 14.0),
            ("iperf3 sending, PSM on, pre-5.17 wake-up", tx, old + ip_tx + sleep("true"), mb,
             "Mbit/s", 3.33),
            ("iperf3 receiving, PSM off", rx, old + ip_rx + sleep("false"), mb, "Mbit/s", 21.2),
            ("iperf3 sending, PSM on, 5.15 wake-up", tx, new_wake + ip_tx, mb, "Mbit/s", 9.82),
            ("iperf3 receiving, PSM on, 5.15 wake-up", rx, new_wake + ip_rx, mb, "Mbit/s", 19.6))
    got = {}
    for label, cfg, sets, unit, name, published in rows:
        runs = seeds(cfg, sets)
        vs = [unit(r) for r in runs]
        v = sum(vs) / len(vs)
        got[label] = (runs, v)
        f = 1 if name == "KB/s" else 2
        dev = f"{100 * (round(v, f) / published - 1):+.1f}".replace("-", "−")
        expect("calibration.md", d, f"| {v:.{f}f} {name} ({min(vs):.{f}f}–{max(vs):.{f}f}) | "
               f"{dev} % |", q)
    wake = got["iperf3 sending, PSM on, pre-5.17 wake-up"][0][0]["devices"][0]["wake"]
    expect("calibration.md", d, f"{wake['found_clock_running']} of {wake['requests']} wake-ups found "
           "the clock running", q)
    on, off = got["ttcp receiving, chip sleep on"][1], got["ttcp receiving, chip sleep off"][1]
    cost = 1 - got["iperf3 receiving, PSM on, 5.15 wake-up"][1] / got["iperf3 receiving, PSM off"][1]
    expect("calibration.md", d, f"in the model {off / on:.2f}× and {100 * cost:.0f} %", q)
    demo_runs = seeds(tx, [])
    demo = [kb(r) for r in demo_runs]
    expect("calibration.md", d, f"gives {min(demo):.1f}–{max(demo):.1f} KB/s over seeds 1–5", q)
    regimes = {}  # slow-start exit cwnd -> (TSQ limits, frames per batch) of the seeds there
    for r in demo_runs:
        t, fpb = r["flows"][0]["tcp"], f"{r['devices'][0]['frames_per_tx_batch']:.2f}"
        lims, batches = regimes.setdefault(t["slow_start_exit_cwnd"], (set(), set()))
        lims.add(t["tsq_limit_bytes"])
        batches.add(fpb)
    low, high = min(regimes), max(regimes)
    if len(regimes) != 2 or any(len(b) != 1 for _, b in regimes.values()):
        failures.append("calibration.md says the demo's seeds fall into two regimes by their "
                        f"slow-start exit cwnd; they give {regimes}")
    else:
        (lo_lims, lo_b), (hi_lims, hi_b) = regimes[low], regimes[high]
        expect("calibration.md", d, f"leave slow start at a cwnd of {low} segments", q)
        expect("calibration.md", d, f"(`tsq_limit_bytes` {min(lo_lims)}–{max(lo_lims)}), so the TX "
               f"thread finds {next(iter(lo_b))} frames per batch", q)
        expect("calibration.md", d, f"leaves it at {high}, keeps {max(hi_lims)} B below TCP and "
               f"sends {next(iter(hi_b))} frames per batch", q)
    batches = {round(r["devices"][0]["frames_per_tx_batch"]) for r in
               got["iperf3 sending, PSM on, 5.15 wake-up"][0]}
    if not {4, 6} <= batches:
        failures.append("calibration.md says the 5.15 sending row's seeds settle in batches of about "
                        f"4 or 6 frames; they give {sorted(batches)}")
    for agg, recv in (("8", "32"), ("8", "100"), ("16", "32"), ("16", "100"), ("32", "32"),
                      ("32", "100")):
        extra = [f"device.buffers.rx_aggregation={agg}KiB", f"platform.net_stack.per_segment_recv={recv}us"]
        vals = [kb(run_json(rx, old + sleep("false") + extra)),
                kb(run_json(rx, old + sleep("true") + extra)),
                mb(run_json(rx, old + ip_rx + sleep("false") + extra)),
                mb(run_json(rx, new_wake + ip_rx + extra))]
        shipped = " (shipped)" if (agg, recv) == ("8", "32") else ""
        a, r = f"{agg} KiB{shipped}", f"{recv} µs{shipped}"
        expect("calibration.md", d, f"| {a} | {r} | {vals[0]:.1f} | {vals[1]:.1f} | {vals[2]:.2f} | "
               f"{vals[3]:.2f} |", q + " --set device.buffers.rx_aggregation=A")


@check
def calibration_chip_parameters_unconstrained():
    """calibration.md: the chip-sleep-on point does not move with wake_latency, and the old
    driver needs the firmware's idle time (it never gets through with 10 us)."""
    d = doc("calibration.md")
    q = ("build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set driver.variant=chip-sleep-5.16 "
         "--set platform.kernel.spi_sync_fast_path=false "
         "--set driver.power_save=true --set seed=N --set device.timing.wake_latency=100us")
    expect("calibration.md", d, q, "the quoted command")
    base = [NICSIM, "run", os.path.join(SRC, "configs/wilc1000-spi-ttcp-tx.yaml"),
            "--set", "driver.variant=chip-sleep-5.16", "--set", "platform.kernel.spi_sync_fast_path=false",
            "--set", "driver.power_save=true", "--quiet", "--json", "-"]
    means = set()
    for wl in ("100us", "400us", "2000us"):
        runs = []
        for n in range(1, 6):
            out = subprocess.run(base + ["--set", f"seed={n}", "--set",
                                         f"device.timing.wake_latency={wl}"],
                                 capture_output=True, text=True).stdout
            runs.append(json.loads(out)["totals"]["goodput_bps"] / 8192)
        means.add(f"{sum(runs) / len(runs):.1f}")
    if len(means) != 1:
        failures.append(f"calibration.md says wake_latency 100/400/2000 us give one mean: {means}")
    expect("calibration.md", d, f"is {min(means)} KB/s with `wake_latency` 100 µs, 400 µs or "
           "2000 µs alike", q)
    # A 10 us idle time leaves the old driver to a race: some seeds deliver nothing.
    none, rates, fails = 0, [], []
    for n in range(1, 6):
        p = subprocess.run(base + ["--set", f"seed={n}",
                                   "--set", "device.timing.sleep_entry_delay=10us"],
                           capture_output=True, text=True)
        r = json.loads(p.stdout)["totals"]
        if r["bytes"] == 0:
            none += 1
            if p.returncode != 4:
                failures.append(f"calibration.md: seed {n} delivers nothing, exit {p.returncode}")
        else:
            rates.append(r["goodput_bps"] / 8192)
        fails.append(p.stderr.count("Failed cmd state response state (05)"))
    expect("calibration.md", d, f"`--set device.timing.sleep_entry_delay=10us` the run is left to "
           f"that race: of seeds 1–5, {none} deliver nothing (they end at their 120 s limit with "
           f"0 B) and the others {min(rates):.1f}–{max(rates):.1f} KB/s, the driver printing "
           f"`Failed cmd state response state (05)` {min(fails)}–{max(fails)} times",
           "the quoted setting")


@check
def calibration_ks8851_ping_spread():
    """calibration.md: the KS8851 ping spread against the rpi-class preemption tail."""
    d = doc("calibration.md")
    minus = lambda t: t.replace("-", "−")
    base = ("nicsim run configs/ks8851-spi-ping.yaml --set traffic.from=peer --set traffic.count=65535 "
            "--set duration=200s")
    q = base + " --set platform.kernel.preemption_share=S --set platform.kernel.preemption_burst=B"
    expect("calibration.md", d, q, "the quoted command")
    for label, share, burst in (("none (the log-normal body alone)", "0", "0s"),
                                ("share 0.00065, burst 1 ms", "0.00065", "1ms"),
                                ("**share 0.0013, burst 1 ms (rpi-class)**", "0.0013", "1ms"),
                                ("share 0.0026, burst 1 ms", "0.0026", "1ms"),
                                ("share 0.0013, burst 0.5 ms", "0.0013", "0.5ms"),
                                ("share 0.0013, burst 2 ms", "0.0013", "2ms")):
        args = shlex.split(base)[2:] + ["--set", f"platform.kernel.preemption_share={share}",
                                        "--set", f"platform.kernel.preemption_burst={burst}"]
        p = subprocess.run([NICSIM, "run", os.path.join(SRC, args[0])] + args[1:],
                           capture_output=True, text=True)
        m = re.search(r"rtt min/avg/max/mdev\s+([\d./]+) ms", p.stdout)
        line = m.group(1) if m else "?"
        if label.startswith("**"):
            line = f"**{line}**"
        expect("calibration.md", d, f"| {label} | {line} |", q)
    for name, metric in (("mdev", "rtt_mdev_ms"), ("spread", r"rtt_max_ms - rtt_min_ms")):
        quoted = f"build/nicsim validate configs/validation/ks8851-spi-ping-{name}.yaml"
        out = Scratch().run("calibration.md", d, quoted)
        # The row names its check (the metric column moves away when the table is too wide).
        m = re.search(r"ks8851-spi-ping-" + name + r"\s+(?:" + re.escape(metric) +
                      r"\s+)?([\d.]+)\s+([\d.]+)\s+ms\s+([-+][\d.]+) %", out)
        if not m:
            failures.append(f"`{quoted}` printed no {metric} row:\n{out}")
            continue
        expect("calibration.md", d, f"{quoted}` → ", quoted)
        expect("calibration.md", d, f"{m.group(1)} ms ({minus(m.group(3))} %", quoted)
    for seed_args, text in ((["--set", "platform.kernel.preemption_share=0", "--set",
                              "platform.kernel.preemption_burst=0s"], "without the tail"),
                            ([], "with it")):
        p = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs/ks8851-spi-iperf-rx.yaml")]
                           + seed_args + ["--quiet", "--json", "-"], capture_output=True, text=True)
        kbit = json.loads(p.stdout)["flows"][0]["goodput_bps"] / 1e3
        expect("calibration.md", d, f"{kbit:.1f} Kbit/s {text}" if text.startswith("with")
               else f"seed 1: {kbit:.1f} Kbit/s {text}", "nicsim run configs/ks8851-spi-iperf-rx.yaml")


@check
def scenarios_board_profiles_no_tail():
    """scenarios.md: the Raspberry Pi board profiles without rpi-class's latency tail, rpi3b's
    1000 pings at 10 ms with and without it (three seeds each)."""
    d = doc("scenarios.md")
    base = ("nicsim run configs/ks8851-spi-ping.yaml --set platform=rpi3b --set traffic.count=1000 "
            "--set traffic.interval=10ms --set traffic.adaptive=false --set duration=15s")
    tail = "--set platform.kernel.preemption_share=0.0013 --set platform.kernel.preemption_burst=1ms"
    q = base + " --set seed=N"
    expect("scenarios.md", d, q, "the quoted command")
    expect("scenarios.md", d, f"(`{tail}`)", "the quoted setting")
    ranges = {}
    for label, extra in (("without", []), ("with", shlex.split(tail))):
        maxima, mdevs = [], []
        for seed in (1, 2, 3):
            args = shlex.split(base)[2:] + ["--set", f"seed={seed}"] + extra
            p = subprocess.run([NICSIM, "run", os.path.join(SRC, args[0])] + args[1:],
                               capture_output=True, text=True)
            m = re.search(r"rtt min/avg/max/mdev\s+[\d.]+/[\d.]+/([\d.]+)/([\d.]+) ms", p.stdout)
            if not m:
                failures.append(f"`{q}` ({label} the tail, seed {seed}) printed no rtt line")
                return
            maxima.append(m.group(1))
            mdevs.append(m.group(2))
        lo, hi = (lambda v: min(v, key=float)), (lambda v: max(v, key=float))
        span = lambda v: v[0] if lo(v) == hi(v) else f"{lo(v)}–{hi(v)}"
        ranges[label] = (f"{lo(maxima)}–{hi(maxima)} ms", f"(mdev {span(mdevs)} ms)")
    expect("scenarios.md", d, f"N = 1–3) reaches a maximum of {ranges['without'][0]} "
           f"{ranges['without'][1]} without the tail and {ranges['with'][0]} "
           f"{ranges['with'][1]} with it", q)


@check
def calibration_ks8851_former_fit():
    """calibration.md: the KS8851 value fitted before the last refit, on the current stack."""
    d = doc("calibration.md")
    sign = lambda v: f"{v:+.1f}".replace("-", "−")
    q = "nicsim run configs/ks8851-spi-iperf-rx.yaml --set platform.spi_host.per_message_overhead=14.9us"
    expect("calibration.md", d, q, "the quoted command")
    p = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs/ks8851-spi-iperf-rx.yaml"),
                        "--set", "platform.spi_host.per_message_overhead=14.9us", "--quiet",
                        "--json", "-"], capture_output=True, text=True)
    kbit = json.loads(p.stdout)["flows"][0]["goodput_bps"] / 1e3
    expect("calibration.md", d, f"which now gives seed 1 {sign((kbit / 15960 - 1) * 100)} %", q)


@check
def calibration_ks8851_seeds():
    """calibration.md: the KS8851 SPI RX calibration run, seed 1 beside seeds 2-8."""
    d = doc("calibration.md")
    q = "nicsim run configs/ks8851-spi-iperf-rx.yaml --set seed=N"
    expect("calibration.md", d, q, "the quoted command")
    kbit = {}
    for n in range(1, 9):
        p = subprocess.run([NICSIM, "run", os.path.join(SRC, "configs/ks8851-spi-iperf-rx.yaml"),
                            "--set", f"seed={n}", "--quiet", "--json", "-"],
                           capture_output=True, text=True)
        kbit[n] = json.loads(p.stdout)["flows"][0]["goodput_bps"] / 1e3
    rest = [kbit[n] for n in range(2, 9)]
    expect("calibration.md", d, f"{kbit[1]:.1f} Kbit/s with seed 1 and {min(rest):.1f}–"
           f"{max(rest):.1f} with seeds 2–8", q)


@check
def studies_wilc1000_sleep_mechanism():
    """studies.md: direction x tool x driver generation; the committed results.csv, the table,
    the wake-up figures and the share of wake-ups that found the clock running."""
    d = doc("studies.md")
    study = "wilc1000-sleep-mechanism"
    cmd = f"nicsim sweep configs/studies/{study}.yaml -j 2"
    s = Scratch()
    s.run("studies.md", d, cmd)
    fresh = s.path(f"sweep-{study}", "results.csv")
    same_csv(fresh, os.path.join(SRC, "docs", "studies", study, "results.csv"), cmd)
    by = {(r["base"].endswith("rx"), r["traffic.kind"].startswith("iperf"), r["driver.variant"],
           r["driver.power_save"]): r for r in rows(fresh)}
    g = lambda r: float(r["goodput_kBps"])
    for rx in (False, True):
        for iperf in (False, True):
            off, on, old = (by[(rx, iperf, v, ps)] for v, ps in
                            (("pristine", "false"), ("pristine", "true"),
                             ("chip-sleep-5.16", "true")))
            name = ("receiving" if rx else "sending") + (", iperf3" if iperf else ", ttcp")
            expect("studies.md", d,
                   f"| {name} | {g(off):.1f} | {g(on):.1f} ({g(off) / g(on):.1f}×) | "
                   f"{g(old):.1f} ({g(off) / g(old):.1f}×) | "
                   f"{float(on['wakeups_per_mb']):.1f} / {float(old['wakeups_per_mb']):.1f} |", cmd)
            if not iperf:
                wpm = f"{float(on['wakeups_per_mb']):.1f} and {float(old['wakeups_per_mb']):.1f}"
                expect("studies.md", d, wpm, cmd)
                ratio = lambda a, b: f"{g(a) / g(b):.1f}×"
                cost = (g(off) / g(old), g(off) / g(on))
                if rx:
                    rx_ratios, rx_cost = (ratio(off, old), ratio(off, on)), cost
                else:
                    tx_ratios, tx_cost = (ratio(off, old), ratio(off, on)), cost
                    new_fpb = f"{float(on['frames_per_tx_batch']):.2f}"
                    old_fpb = f"{float(old['frames_per_tx_batch']):.2f}"
                    expect("studies.md", d, f"({new_fpb} frames per batch on both drivers)"
                           if new_fpb == old_fpb else
                           f"({new_fpb} frames per batch on 6.1, {old_fpb} on 5.16", cmd)
    expect("studies.md", d, f"({rx_ratios[1]} against {tx_ratios[1]} on 6.1, {rx_ratios[0]} "
           f"against {tx_ratios[0]} on 5.16, ttcp)", cmd)
    if not all(r < t for r, t in zip(rx_cost, tx_cost)):
        failures.append("studies.md says receiving suffers less from chip sleep than sending on "
                        f"both drivers; cost receiving {rx_cost}, sending {tx_cost}")
    shares = {r["wake_found_running_share"] for r in rows(fresh) if r["wake_found_running_share"]}
    if shares != {"1"}:
        failures.append(f"studies.md says every wake-up found the clock running; shares {shares}")


@check
def wilc1000_tcp_ack_filter():
    """models/wilc1000.md: what the driver's TCP ACK filter changes when receiving."""
    d = doc("models/wilc1000.md")
    q = ("build/nicsim run configs/wilc1000-spi-ttcp-rx.yaml --set link.phy_rate=R --set "
         "driver.power_save=false|true")
    expect("models/wilc1000.md", d, q, "the quoted command")
    kbps = {}
    for rate in ("72.2", "65"):
        for ps in ("false", "true"):
            r = run_json("configs/wilc1000-spi-ttcp-rx.yaml",
                         [f"link.phy_rate={rate}Mbps", f"driver.power_save={ps}"])
            f, dev = r["flows"][0], r["devices"][0]
            kbps[rate, ps] = f["goodput_bps"] / 8192
            expect("models/wilc1000.md", d,
                   f"| {rate} Mbit/s | {'on' if ps == 'true' else 'off'} | {kbps[rate, ps]:.1f} KB/s | "
                   f"{dev['frames_tx']} | {dev['tx_batches']} | "
                   f"{'on' if dev['tcp_ack_filter'] else 'off'} |", q)
    gain = [(kbps["65", ps] / kbps["72.2", ps] - 1) * 100 for ps in ("false", "true")]
    expect("models/wilc1000.md", d, f"(+{gain[0]:.1f} % and +{gain[1]:.1f} %)", q)


@check
def wilc1000_rx_batch_size():
    """models/wilc1000.md: receiving throughput against the RX batch size assumption."""
    d = doc("models/wilc1000.md")
    q = ("build/nicsim run configs/wilc1000-spi-ttcp-rx.yaml --set device.buffers.rx_aggregation=N")
    expect("models/wilc1000.md", d, q, "the quoted command")
    runs = {"6.1, sleep off": ["driver.power_save=false"],
            "6.1, sleep on": ["driver.power_save=true"],
            "5.16, sleep off": ["driver.variant=chip-sleep-5.16",
                                "driver.module_params.enable_sleep=false",
                                "driver.power_save=false"],
            "5.16, sleep on": ["driver.variant=chip-sleep-5.16",
                               "driver.module_params.enable_sleep=true",
                               "driver.power_save=true"]}
    kbps = {}
    for size in (8, 16, 32, 64):
        cells = []
        for label, sets in runs.items():
            r = run_json("configs/wilc1000-spi-ttcp-rx.yaml",
                         [f"device.buffers.rx_aggregation={size}KiB"] + sets)
            kbps[label, size] = r["flows"][0]["goodput_bps"] / 8192
            if label != "5.16, sleep off":
                cells.append(f"{kbps[label, size]:.1f}")
            if label == "6.1, sleep on":
                dev = r["devices"][0]
                per_irq = f"{dev['frames_rx'] / dev['irqs']:.1f}"
        if kbps["6.1, sleep off", size] != kbps["5.16, sleep off", size]:
            failures.append(f"wilc1000.md says sleep off runs alike on both drivers ({size} KiB)")
        expect("models/wilc1000.md", d,
               f"| {size} KiB | {' | '.join(cells)} | {per_irq} |", q)
    off = kbps["6.1, sleep off", 64] / kbps["6.1, sleep off", 8]
    old = kbps["5.16, sleep on", 64] / kbps["5.16, sleep on", 8]
    expect("models/wilc1000.md", d, f"from 8 to 64 KiB moves receiving throughput {off:.2f}× with "
           f"sleep off and {old:.2f}× with the old driver's", q)


@check
def wilc1000_chip_sleep_sensitivity():
    """models/wilc1000.md: how the two chip-sleep assumptions move a ping with power save on."""
    d = doc("models/wilc1000.md")
    base = [NICSIM, "run", os.path.join(SRC, "configs/wilc1000-spi-ttcp-tx.yaml"), "--set",
            "traffic={kind: ping, from: board, count: 50, interval: 200ms, adaptive: false}",
            "--set", "duration=30s", "--set", "driver.power_save=true", "--json", "-", "-q"]
    q = ("build/nicsim run configs/wilc1000-spi-ttcp-tx.yaml --set 'traffic={kind: ping, from: "
         "board, count: 50, interval: 200ms, adaptive: false}' --set duration=30s --set "
         "driver.power_save=true")
    expect("models/wilc1000.md", d, q, "the quoted command")
    avg = {}
    for label, sets in (("`wake_latency` 100 µs", ["device.timing.wake_latency=100us"]),
                        ("defaults (400 µs, 10 ms)", []),
                        ("`wake_latency` 2000 µs", ["device.timing.wake_latency=2000us"]),
                        ("`sleep_entry_delay` 3 ms", ["device.timing.sleep_entry_delay=3ms"]),
                        ("`sleep_entry_delay` 100 ms", ["device.timing.sleep_entry_delay=100ms"])):
        args = list(base)
        for s in sets:
            args += ["--set", s]
        r = json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
        f, dev = r["flows"][0], r["devices"][0]
        avg[label] = f["rtt_ms"]["avg"]
        expect("models/wilc1000.md", d,
               f"| {label} | {f['rtt_ms']['avg']:.3f} ms | {dev['avg_power_w'] * 1e3:.1f} mW | "
               f"{dev['wake']['found_asleep']} of {dev['wake']['requests']} |", q)
    slope = (avg["`wake_latency` 2000 µs"] - avg["`wake_latency` 100 µs"]) / 1.9
    expect("models/wilc1000.md", d, f"about {slope:.1f} ms per ms of `wake_latency`", q)


@check
def your_board_worked_example():
    """docs/your-board.md: a copy of rpi-class fitted to the KS8851 RX point gives back the value
    the shipped profile holds (within 1 %), and the doc quotes what calibrate prints."""
    d = doc("your-board.md")
    s = Scratch()
    expect("your-board.md", d, "cp configs/platforms/rpi-class.yaml /tmp/my-board.yaml", "the example")
    forget = "sed -i 's/^  per_message_overhead: .*/  per_message_overhead: 30us/' /tmp/my-board.yaml"
    expect("your-board.md", d, forget, "the example")
    shipped = os.path.join(SRC, "configs", "platforms", "rpi-class.yaml")
    with open(shipped) as f, open(s.path("my-board.yaml"), "w") as g:
        g.write(re.sub(r"^  per_message_overhead: .*$", "  per_message_overhead: 30us", f.read(),
                       flags=re.M))
    quoted = ("nicsim calibrate configs/validation/ks8851-spi-iperf-rx.yaml --profile /tmp/my-board.yaml "
              "--key spi_host.per_message_overhead -o /tmp/my-board-fitted.yaml")
    out = s.run("your-board.md", d, quoted)
    for head in ("what moved:", "residuals (", "sensitivity ("):
        block = out[out.find(head):].split("\n\n")[0] if head in out else head + " (missing)"
        expect("your-board.md", d, block, quoted)
    key = r"^\s*per_message_overhead:\s*([\d.]+)us"
    want = float(re.search(key, open(shipped).read(), re.M).group(1))
    got = float(re.search(key, open(s.path("my-board-fitted.yaml")).read(), re.M).group(1))
    if abs(got / want - 1) > 0.01:
        failures.append(f"`{quoted}` fitted {got} us, the shipped rpi-class holds {want} us "
                        f"({(got / want - 1) * 100:+.2f} %, more than 1 %)")
    expect("your-board.md", d, f"({got:g} µs for {want:g} µs;", quoted)
    m = re.search(r"ks8851-spi-iperf-rx\s+([-+][\d.]+)\n", out)
    if m:
        e = float(m.group(1))
        expect("your-board.md", d, f"costs the RX goodput only {abs(e):.3f} %", quoted)
        expect("your-board.md", d, f"pin the same key to about ±{1 / abs(e):.0f} %", quoted)
    m = re.search(r"\]\s+(±[\d.]+ %)\n", out)
    if m:
        expect("your-board.md", d, f"leaves the key free to about {m.group(1)}.", quoted)


selected = [c for c in CHECKS if not ONLY or c.__name__ in ONLY]
for c in selected:
    before = len(failures)
    try:
        c()
    except Exception as e:  # a broken check is a failure, not a crash of the others
        failures.append(f"{c.__name__}: {type(e).__name__}: {e}")
    print(f"{'ok  ' if len(failures) == before else 'FAIL'} {c.__name__}")
for f in failures:
    print("  " + f)
sys.exit(1 if failures else 0)
