#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A user's kernel tree at run time (driver.source, `nicsim run --driver-src`, issue 15
# deliverable 3; docs/driver-changes.md), through the shipped binary, each part with its own
# plug-in cache (XDG_CACHE_HOME in a temp dir):
#
#   round-trip: the WILC1000 files copied from the build's 6.1 tree compile into a plug-in whose
#     report equals the built-in pristine build's (apart from run.driver_variant and the source
#     fields); a second run takes the plug-in from the cache (stderr says so, no compiler runs);
#     then one line of wlan.c changed (release_bus never lets the chip sleep, the enable_sleep
#     example of docs/driver-changes.md): a new plug-in, and the figure moves as explained there:
#     chip wake-ups 166 -> 1 and goodput up, as the built-in no-chip-sleep variant has them.
#   compile-error: a syntax error in wlan.c fails the run with exit 1 and the compiler's first
#     error (file:line: error:) in the message.
#   missing-function: a tree that calls a kernel function the emulation lacks loads with a
#     generated dummy for it, named in the report on stderr; the run (which never calls it) passes.
#   other-drivers: the KS8851 (SPI) and ENC28J60 files, the driver's directory given directly,
#     give the built-in reports.
#   cache-verify (issue 36 item 4): an edit of a header the driver includes from a subdirectory
#     compiles a new plug-in (the key covers every file the compiler read); a cached plug-in
#     truncated to a fifth, or altered at its size, is told apart from its build's record and
#     compiled again, and the run passes (it was a SIGBUS in dlopen).
#   cache-private-dir: with HOME and XDG_CACHE_HOME unset the cache is
#     $TMPDIR/nicsim-<uid>/plugins, nicsim-<uid> with mode 0700; one with mode 0777 is refused
#     (exit 1, the directory named), nothing is compiled into it.
#
# Runs in the sanitizer build too (its plug-ins are compiled with its -fsanitize flags).
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

nicsim, srcdir, ksrc, part = sys.argv[1:5]
SCENARIO = os.path.join(srcdir, "configs", "wilc1000-spi-ttcp-tx.yaml")
SETS = ["traffic.bytes=256KiB"]  # with the scenario's driver.power_save: true
WLAN_KDIR = "drivers/net/wireless/microchip/wilc1000"
# The one line the enable_sleep example changes (docs/driver-changes.md).
RELEASE_LINE = "\tif (release == WILC_BUS_RELEASE_ALLOW_SLEEP && wilc->power_save_mode)\n"
NO_SLEEP_LINE = "\tif (release == WILC_BUS_RELEASE_ALLOW_SLEEP && wilc->power_save_mode && 0)\n"


def fail(msg):
    sys.exit("FAIL: " + msg)


def copy_tree(dst):
    """The tree a user would have: top-level Makefile (the version) and the driver directory."""
    os.makedirs(os.path.join(dst, os.path.dirname(WLAN_KDIR)))
    shutil.copy(os.path.join(ksrc, "Makefile"), dst)
    shutil.copytree(os.path.join(ksrc, WLAN_KDIR), os.path.join(dst, WLAN_KDIR))
    return os.path.join(dst, WLAN_KDIR, "wlan.c")


def edit(path, old, new):
    text = open(path).read()
    if old not in text:
        fail(f"{path}: the line to change is not there: {old!r}")
    open(path, "w").write(text.replace(old, new, 1))


def run(env, extra, expect_rc=0):
    args = [nicsim, "run", SCENARIO, "--quiet", "--json", "-"] + extra
    for s in SETS:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True, timeout=900, env=env)
    if p.returncode != expect_rc:
        fail(f"{' '.join(args)}: exit {p.returncode}, expected {expect_rc}\n{p.stderr[-3000:]}")
    return (json.loads(p.stdout) if expect_rc == 0 else None), p.stderr


def comparable(report):
    r = json.loads(json.dumps(report))
    r.pop("host", None)
    for k in ("driver_variant", "driver_source", "driver_source_sha256"):
        r["run"].pop(k, None)
    return r


def cached_so(tmp, report):
    return os.path.join(tmp, "cache", "nicsim", "plugins",
                        report["run"]["driver_source_sha256"] + ".so")


def cache_verify(env, tmp, tree, wlan):
    nested = os.path.join(os.path.dirname(wlan), "nicsim_sub", "nicsim_nested.h")
    os.makedirs(os.path.dirname(nested))
    open(nested, "w").write("#define NICSIM_NESTED_VALUE 1\n")
    with open(wlan, "a") as f:
        f.write('\n#include "nicsim_sub/nicsim_nested.h"\n'
                "int nicsim_nested_value(void) { return NICSIM_NESTED_VALUE; }\n")
    first, err = run(env, ["--driver-src", tree])
    if "compiling" not in err:
        fail("the first run did not compile:\n" + err)
    _, err = run(env, ["--driver-src", tree])
    if "(not compiled)" not in err:
        fail("the unchanged tree was compiled again:\n" + err)

    # An edit of the nested header only (no file the base key lists changes).
    open(nested, "w").write("#define NICSIM_NESTED_VALUE 2\n")
    edited, err = run(env, ["--driver-src", tree])
    if "compiling" not in err or "(not compiled)" in err:
        fail("an edit of a header in a subdirectory reused the old plug-in:\n" + err)
    if edited["run"]["driver_source_sha256"] == first["run"]["driver_source_sha256"]:
        fail("an edit of a header in a subdirectory kept the hash")

    # The cached object damaged: truncated (dlopen mapped pages past its end: SIGBUS), then
    # altered at its size. Each is compiled again and the run passes.
    so = cached_so(tmp, edited)
    size = os.path.getsize(so)
    for damage in ("truncate", "alter"):
        if damage == "truncate":
            os.truncate(so, size // 5)  # the loadable segments cut: SIGBUS before
        else:
            with open(so, "r+b") as f:
                f.seek(size // 2)
                f.write(b"\0" * 64)
        again, err = run(env, ["--driver-src", tree])
        if "is damaged" not in err or "compiling" not in err:
            fail(f"a cached plug-in damaged ({damage}) was not compiled again:\n" + err)
        if not os.path.isfile(so) or comparable(again) != comparable(edited):
            fail(f"the rebuilt plug-in ({damage}) differs")
        _, err = run(env, ["--driver-src", tree])
        if "(not compiled)" not in err:
            fail(f"the rebuilt plug-in ({damage}) is not taken from the cache:\n" + err)


def cache_private_dir(tmp, tree):
    base = {k: v for k, v in os.environ.items() if k not in ("HOME", "XDG_CACHE_HOME")}
    tmpdir = os.path.join(tmp, "t")
    os.makedirs(tmpdir)
    env = dict(base, TMPDIR=tmpdir)
    mine = os.path.join(tmpdir, f"nicsim-{os.geteuid()}")
    report, err = run(env, ["--driver-src", tree])
    if "compiling" not in err:
        fail("no compile with HOME unset:\n" + err)
    mode = os.lstat(mine).st_mode & 0o7777
    if mode != 0o700:
        fail(f"{mine}: mode {mode:04o}, expected 0700")
    so = os.path.join(mine, "plugins", report["run"]["driver_source_sha256"] + ".so")
    if not os.path.isfile(so):
        fail(f"no plug-in {so}")
    if os.path.exists(os.path.join(tmpdir, ".cache")):
        fail("a shared .cache under TMPDIR was used")

    shared = os.path.join(tmp, "shared")
    os.makedirs(shared)
    env = dict(base, TMPDIR=shared)
    planted = os.path.join(shared, f"nicsim-{os.geteuid()}")
    os.mkdir(planted)
    os.chmod(planted, 0o777)
    _, err = run(env, ["--driver-src", tree], expect_rc=1)
    if planted not in err or "mode is 0777" not in err:
        fail("the refusal does not name the directory and its mode:\n" + err)
    if os.listdir(planted):
        fail("something was written into a directory others can write")


def main():
    global SCENARIO, SETS  # other-drivers runs other scenarios
    if not os.path.isfile(os.path.join(ksrc, WLAN_KDIR, "wlan.c")):
        fail(f"no {WLAN_KDIR}/wlan.c under {ksrc}")
    tmp = tempfile.mkdtemp(prefix="nicsim-driver-src-")
    try:
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
        tree = os.path.join(tmp, "linux")
        wlan = copy_tree(tree)

        if part == "round-trip":
            builtin, _ = run(env, [])
            first, err1 = run(env, ["--driver-src", tree])
            if "compiling wilc1000 from" not in err1 or "compiled" not in err1:
                fail("the first run did not say it compiled:\n" + err1)
            src = first["run"].get("driver_source", "")
            sha = first["run"].get("driver_source_sha256", "")
            if src != os.path.realpath(os.path.join(tree, WLAN_KDIR)) or len(sha) != 64:
                fail(f"run.driver_source/_sha256 wrong: {src!r} {sha!r}")
            if first["run"]["driver_variant"] != "source:" + sha[:12]:
                fail("run.driver_variant: " + first["run"]["driver_variant"])
            if comparable(first) != comparable(builtin):
                fail("the plug-in of the unchanged tree does not give the built-in report")
            if not os.path.isfile(os.path.join(tmp, "cache", "nicsim", "plugins", sha + ".so")):
                fail("no plug-in in the cache under its sha256")

            second, err2 = run(env, ["--driver-src", tree])
            if "cached plug-in" not in err2 or "(not compiled)" not in err2 or "compiling" in err2:
                fail("the second run did not take the plug-in from the cache:\n" + err2)
            if comparable(second) != comparable(first):
                fail("the cached plug-in gives another report")

            edit(wlan, RELEASE_LINE, NO_SLEEP_LINE)
            changed, err3 = run(env, ["--driver-src", tree])
            if "compiling" not in err3:
                fail("an edited wlan.c did not recompile:\n" + err3)
            if changed["run"]["driver_source_sha256"] == sha:
                fail("an edited wlan.c kept the same hash")
            before, after = builtin["devices"][0], changed["devices"][0]
            gp0 = builtin["flows"][0]["goodput_bps"]
            gp1 = changed["flows"][0]["goodput_bps"]
            print(f"pristine: wakeups {before['wakeups']}, goodput {gp0 / 1e6:.3f} Mbit/s; "
                  f"release_bus without chip_allow_sleep: wakeups {after['wakeups']}, "
                  f"goodput {gp1 / 1e6:.3f} Mbit/s")
            # Explained: the WAKEUP bit is never cleared, so only the first acquire sets it.
            if not (before["wakeups"] > 50 and after["wakeups"] == 1):
                fail("chip wake-ups did not drop to the one of the bring-up")
            # Each acquire still writes the two bits and polls once, but no release reads and
            # clears them: fewer SPI messages per batch. (The chip itself barely sleeps during
            # a transfer: it holds its clock while it has work, docs/models/wilc1000.md.)
            if not gp1 > gp0:
                fail("goodput did not rise without the allow-sleep per bus release")
            variant, _ = run(env, ["--set", "driver.variant=no-chip-sleep"])
            if variant["devices"][0]["wakeups"] != after["wakeups"]:
                fail("the edit and the built-in no-chip-sleep variant disagree on wake-ups")
            if changed["flows"][0]["bytes"] != builtin["flows"][0]["bytes"]:
                fail("the edited driver did not move the same bytes")
        elif part == "compile-error":
            text = open(wlan).read().splitlines(keepends=True)
            idx = text.index(RELEASE_LINE)
            text[idx] = "\tif (release == WILC_BUS_RELEASE_ALLOW_SLEEP && wilc->power_save_mode\n"
            open(wlan, "w").writelines(text)
            _, err = run(env, ["--driver-src", tree], expect_rc=1)
            if not re.search(r"wlan\.c:\d+:\d+: error: ", err):
                fail("no compiler error line (wlan.c:LINE:COL: error:) in the message:\n" + err)
            line = int(re.search(r"wlan\.c:(\d+):\d+: error: ", err).group(1))
            if abs(line - (idx + 1)) > 3:
                fail(f"the first error is at line {line}, the broken line is {idx + 1}:\n{err}")
            if "does not compile" not in err and "failed" not in err:
                fail("the message does not say the tree failed to compile:\n" + err)
            if os.path.exists(os.path.join(tmp, "cache", "nicsim", "plugins")) and any(
                    f.endswith(".so") for f in os.listdir(os.path.join(tmp, "cache", "nicsim",
                                                                       "plugins"))):
                fail("a failed compile left a plug-in in the cache")
        elif part == "missing-function":
            with open(wlan, "a") as f:
                f.write("\nvoid nicsim_no_such_kernel_function(void);\n"
                        "void nicsim_test_caller(void) { nicsim_no_such_kernel_function(); }\n")
            _, err = run(env, ["--driver-src", tree])
            if "not in the emulation" not in err or "  nicsim_no_such_kernel_function" not in err:
                fail("no report of the missing kernel function:\n" + err)
            _, err = run(env, ["--driver-src", tree])  # cached: the report again
            if "cached plug-in" not in err or "nicsim_no_such_kernel_function" not in err:
                fail("the cached run does not repeat the missing-function report:\n" + err)
        elif part == "other-drivers":
            # The KS8851 and ENC28J60 files from the tree (their directory given directly: it
            # finds the tree's Makefile above it) give the built-in reports too.
            for cfg, kdir, files, size in (
                    ("ks8851-spi-iperf-rx.yaml", "drivers/net/ethernet/micrel",
                     ("ks8851.h", "ks8851_common.c", "ks8851_spi.c", "ks8851_par.c"), "1MiB"),
                    ("enc28j60-spi-iperf-tx.yaml", "drivers/net/ethernet/microchip",
                     ("enc28j60.c", "enc28j60_hw.h"), "256KiB")):
                d = os.path.join(tree, kdir)
                os.makedirs(d)
                for f in files:
                    shutil.copy(os.path.join(ksrc, kdir, f), d)
                SCENARIO = os.path.join(srcdir, "configs", cfg)
                SETS = ["traffic.bytes=" + size]
                builtin, _ = run(env, [])
                plugin, err = run(env, ["--driver-src", d])
                if "compiling" not in err or plugin["run"]["kernel_version"] != \
                        builtin["run"]["kernel_version"]:
                    fail(f"{cfg}: no compile or another kernel version:\n{err}")
                if comparable(plugin) != comparable(builtin):
                    fail(f"{cfg}: the plug-in of the unchanged files does not give the built-in "
                         "report")
        elif part == "cache-verify":
            cache_verify(env, tmp, tree, wlan)
        elif part == "cache-private-dir":
            cache_private_dir(tmp, tree)
        else:
            fail("unknown part " + part)
        print("ok")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


sys.exit(main())
