#!/bin/sh
# SPDX-License-Identifier: MIT
# `cmake --install` into a staging DESTDIR, then the installed binary runs an installed scenario
# (its platform profile found through <prefix>/share/nicsim/configs) from an unrelated directory,
# and `nicsim check` passes on an installed scenario with an expect: list; the bash completion
# and the man page are installed.
# usage: install_test.sh <build dir> <work dir>
set -eu
build=$1
work=$2
rm -rf "$work"
mkdir -p "$work/elsewhere"
DESTDIR="$work/stage" cmake --install "$build" --prefix /opt/nicsim >/dev/null
root="$work/stage/opt/nicsim"
test -x "$root/bin/nicsim"
test -f "$root/share/nicsim/configs/platforms/rpi-class.yaml"
# Where bash-completion and man look (tests/install/completion_test.sh, man_test.sh check them).
test -f "$root/share/bash-completion/completions/nicsim"
test -f "$root/share/man/man1/nicsim.1"
cd "$work/elsewhere"
# No source-tree fallback may be involved: the configs directory must be the installed one.
unset NICSIM_CONFIGS_DIR || true
"$root/bin/nicsim" run "$root/share/nicsim/configs/ks8851-spi-ping.yaml" \
    --set traffic.count=2 --json r.json -q
grep -q '"end_reason": "traffic complete"' r.json
"$root/bin/nicsim" run "$root/share/nicsim/configs/wilc1000-spi-ttcp-tx.yaml" \
    --set traffic.bytes=16KiB -q
# A scenario outside the install naming a platform by name finds the installed profile.
cat > mine.yaml <<'YAML'
duration: 1s
platform: rpi-class
device: {type: ks8851, bus: spi}
traffic: {kind: ping, count: 2}
expect: ["findings.error == 0", "flows[0].packets_received == 2"]
YAML
"$root/bin/nicsim" check mine.yaml --junit j.xml
grep -q 'tests="3" failures="0" errors="0"' j.xml
echo "install test: ok"
