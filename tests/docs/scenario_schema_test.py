#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/scenario.schema.json accepts every shipped scenario (the YAML files in configs/ and
examples/ with a `device:` key; platform profiles, sweeps and validation points are other
formats), has every key of the docs/scenarios.md table, and rejects an unknown key, a misspelt enum value and a missing required key.
usage: scenario_schema_test.py <source dir>"""
import json
import pathlib
import re
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:  # scripts/install-deps.sh installs both; skip (77) rather than fail
    print(f"scenario schema: skipped, {e}")
    sys.exit(77)

root = pathlib.Path(sys.argv[1])
schema = json.loads((root / "docs/scenario.schema.json").read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failures = []
checked = 0
for path in sorted([*root.glob("configs/**/*.yaml"), *root.glob("examples/**/*.yaml")]):
    doc = yaml.safe_load(path.read_text())
    if not isinstance(doc, dict) or "device" not in doc:
        continue
    checked += 1
    for e in validator.iter_errors(doc):
        failures.append(f"{path.relative_to(root)}: {'.'.join(map(str, e.absolute_path))}: {e.message}")
if checked < 10:
    failures.append(f"only {checked} scenarios found under configs/ and examples/")

good = {"duration": "1s", "platform": "rpi-class", "device": {"type": "ks8851", "bus": "spi"},
        "traffic": {"kind": "ping", "count": 2}}
if not validator.is_valid(good):
    failures.append("the minimal scenario is rejected")
for what, bad in [("unknown key", {**good, "bogus": 1}),
                  ("unknown device key", {**good, "device": {"type": "ks8851", "bus": "spi", "clock": 1}}),
                  ("misspelt bus", {**good, "device": {"type": "ks8851", "bus": "spy"}}),
                  ("no traffic", {k: v for k, v in good.items() if k != "traffic"})]:
    if validator.is_valid(bad):
        failures.append(f"a scenario with {what} is accepted")

# Every key of the docs/scenarios.md table ("Scenario keys") has its place in the schema, so a
# key documented there (as every new loader key must be) cannot be missing here.
doc = (root / "docs/scenarios.md").read_text()
table = doc.split("## Scenario keys", 1)[1].split("\n#", 1)[0]
for row in re.findall(r"^\| (`[^|]*) \|", table, re.M):
    for key in re.findall(r"`([a-z_.<>]+)`", row):
        node = schema
        for part in key.split("."):
            if part.startswith("<"):  # a free name (driver.module_params.<name>)
                break
            node = node.get("properties", {}).get(part)
            if node is None:
                failures.append(f"docs/scenarios.md key {key} is not in the schema")
                break

for f in failures:
    print("scenario schema:", f, file=sys.stderr)
print(f"scenario schema: {checked} scenarios checked, {len(failures)} failures")
sys.exit(1 if failures else 0)
