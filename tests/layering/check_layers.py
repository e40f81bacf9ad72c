#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Include layering check: every `#include "..."` of every C/C++ source in a layer folder must name
a file of its own layer or of one its row in docs/architecture.md ("Layers") allows.

Usage: check_layers.py <source root>

The table is read from docs/architecture.md: the rows of the table whose header starts
`| folder | part | may include |`; a row's first cell names its folder(s) in backticks, the third
the folders it may include (a folder's own files are always allowed; a longer path such as
`models/common/` allows that part only). An include is resolved against the including file's
folder first, then the source root; one that resolves to neither (system, generated or kernel-tree
headers) is not checked. Exit 0 when every include keeps to the table, 1 with one line per
violation, 2 when the table cannot be read.
"""
import os
import re
import sys

SOURCES = (".c", ".cc", ".cpp", ".h", ".hh", ".hpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
TICKED = re.compile(r"`([^`]+/)`")


def read_table(root):
    path = os.path.join(root, "docs", "architecture.md")
    layers = {}
    in_table = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| folder | part | may include |"):
                in_table = True
                continue
            if not in_table:
                continue
            if not line.startswith("|"):
                in_table = False
                continue
            if set(cells[0]) <= set("-: "):
                continue
            allowed = TICKED.findall(cells[2]) if len(cells) > 2 else []
            for folder in TICKED.findall(cells[0]):
                layers[folder] = allowed
    if not layers:
        sys.exit(f"{path}: no table with the header '| folder | part | may include |'")
    return layers


def layer_of(path, layers):
    best = None
    for folder in layers:
        if path.startswith(folder) and (best is None or len(folder) > len(best)):
            best = folder
    return best


def allows(allowed, own, target):
    return target.startswith(own) or any(target.startswith(a) for a in allowed)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    layers = read_table(root)
    violations = []
    checked = 0
    for folder in sorted(layers):
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                src = os.path.relpath(os.path.join(dirpath, name), root)
                own = layer_of(src, layers)
                if own != folder:
                    continue  # a longer row owns it
                with open(os.path.join(root, src), encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        inc = m.group(1)
                        local = os.path.normpath(os.path.join(os.path.dirname(src), inc))
                        if os.path.isfile(os.path.join(root, local)):
                            target = local
                        elif os.path.isfile(os.path.join(root, inc)):
                            target = os.path.normpath(inc)
                        else:
                            continue
                        checked += 1
                        if not allows(layers[own], own, target):
                            tl = layer_of(target, layers) or "no layer"
                            violations.append(
                                f"{src}:{n}: includes {target} ({tl}), which {own} may not "
                                f"include (docs/architecture.md, Layers)")
    for v in violations:
        print(v)
    print(f"{checked} includes checked in {len(layers)} layers, {len(violations)} across the table")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
