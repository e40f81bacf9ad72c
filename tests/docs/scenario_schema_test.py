#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/scenario.schema.json is what `nicsim generate schema` gives over every shipped scenario
(the YAML files in configs/ and examples/ with a `device:` key; platform profiles, sweeps and
validation points are other formats): the schema comes from the keys the loader asks for
(tools/config/schema_recorder.h), not from a copy of them. It accepts every shipped scenario,
has every key of the docs/scenarios.md table, and rejects an unknown key, a misspelt enum value
and a missing required key.
usage: scenario_schema_test.py <source dir> <nicsim> [--write]   (--write: regenerate the file)"""
import json
import pathlib
import re
import subprocess
import sys

try:
    import jsonschema
    import yaml
except ImportError as e:  # scripts/install-deps.sh installs both; skip (77) rather than fail
    print(f"scenario schema: skipped, {e}")
    sys.exit(77)

root = pathlib.Path(sys.argv[1])
nicsim = sys.argv[2]
committed = root / "docs/scenario.schema.json"

exemplars = []
for path in sorted([*root.glob("configs/**/*.yaml"), *root.glob("examples/**/*.yaml")]):
    doc = yaml.safe_load(path.read_text())
    if isinstance(doc, dict) and "device" in doc:
        exemplars.append(str(path.relative_to(root)))
p = subprocess.run([nicsim, "generate", "schema", *exemplars], cwd=root, capture_output=True,
                   text=True)
if p.returncode != 0:
    sys.exit(f"scenario schema: `nicsim generate schema` exited {p.returncode}: {p.stderr}")
generated = json.loads(p.stdout)
if "--write" in sys.argv[3:]:
    committed.write_text(json.dumps(generated, indent=2) + "\n")
    print(f"scenario schema: wrote {committed} from {len(exemplars)} scenarios")
    sys.exit(0)
schema = json.loads(committed.read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failures = []
if schema != generated:
    failures.append("docs/scenario.schema.json is not what the loader gives; regenerate it: "
                    "python3 tests/docs/scenario_schema_test.py . build/nicsim --write")
# The generator fails, naming the file, on a scenario the loader rejects, and without any.
bad = subprocess.run([nicsim, "generate", "schema", "configs/platforms/sama5-class.yaml"],
                     cwd=root, capture_output=True, text=True)
if bad.returncode != 1 or "sama5-class.yaml" not in bad.stderr:
    failures.append(f"generate schema on a platform profile: exit {bad.returncode}, {bad.stderr!r}")
if subprocess.run([nicsim, "generate", "schema"], capture_output=True).returncode != 1:
    failures.append("generate schema without files does not exit 1")
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
rows = re.findall(r"^\| (`[^|]*) \|", table, re.M)
if len(rows) < 30:
    failures.append(f"docs/scenarios.md: only {len(rows)} rows found in the 'Scenario keys' table")
for row in rows:
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
