# SPDX-License-Identifier: MIT
"""What the bench/calibrate_*.py scripts share: their command line and the `nicsim calibrate` call.
usage of a script: <script> <build dir> [OUT] [-- more nicsim calibrate options]"""
import os, subprocess, sys

VALIDATION = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs",
                                           "validation"))


def calibrate(files, options, default_out):
    """Runs nicsim calibrate on configs/validation/<files> with options; exits with its code."""
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    args = args[:args.index("--")] if "--" in args else args
    build = args[0] if args else "build"
    out = args[1] if len(args) > 1 else default_out
    if not os.access(os.path.join(build, "nicsim"), os.X_OK):
        sys.exit("%s: no nicsim binary in %s (usage: %s)" % (sys.argv[0], build, __doc__.split("usage of a script: ")[1]))
    cmd = [os.path.join(build, "nicsim"), "calibrate"]
    cmd += [os.path.join(VALIDATION, f) for f in files]
    sys.exit(subprocess.run(cmd + options + ["-o", out] + extra).returncode)
