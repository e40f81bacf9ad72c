#!/usr/bin/env bash
# Installs the Debian packages nicsim needs to build, test and run. Idempotent: packages
# already present are not touched, and apt is not called at all when nothing is missing.
# Usage: scripts/install-deps.sh [LOG]   with LOG, apt's output goes there and the terminal gets
# one line naming the packages and one when they are in (scripts/progress.sh; make passes
# build/install-deps.log).
set -euo pipefail
log=${1:-}

packages=(
    build-essential cmake pkg-config make git xz-utils patch
    libsystemc-dev      # SystemC 2.3 + TLM-2.0 (Apache-2.0)
    libyaml-cpp-dev     # scenario and platform files
    libgtest-dev        # unit and model tests
    libcli11-dev        # nicsim command line (header-only)
    nlohmann-json3-dev  # --json reports (header-only)
    bc                  # include/generated/timeconst.h of the real kernel headers (kernel/cmake/KernelHeaders.cmake)
    nettle-dev          # SHA-256 of the driver.source plug-in cache key (LGPL-3.0+ / GPL-2.0+)
    linux-source-6.1    # the kernel tree the real drivers are compiled from (driver.kernel 6.1)
    linux-source-6.12   # the second tree (driver.kernel 6.12; optional: without it 6.1 only)
    python3             # bench/ scripts, tests/bench/netns_tcp_smoke.sh (standard library only)
    iproute2 procps     # ip netns / tc / ss, sysctl: the real-kernel TCP reference (issue 10)
    ethtool             # offloads off on the reference's veth pair
    iptables            # NFQUEUE rule of the reference's delay line
    clang libclang-rt-dev  # libFuzzer + ASan/UBSan runtimes: make test-fuzz (docs/fuzzing.md)
    man-db groff-base bsdextrautils  # man, groff, col: tests/install/man_test.sh renders nicsim(1)
    python3-yaml python3-jsonschema  # tests/docs/scenario_schema_test.py: the configs against the schema
    sigrok-cli          # --vcd-format sigrok decoded by sigrok's SPI decoder (docs/traces.md, its test)
    gtkwave             # vcd2fst for --vcd FILE.fst; fst2vcd reads it back in its test
    tshark              # reads --pcap captures in tests/testbench/pcap_tshark_test.cc (docs/traces.md)
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root (or: sudo apt-get install ${missing[*]})" >&2
    exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
install='apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"'
if [ -n "$log" ]; then
    "$(dirname "$0")/progress.sh" install-deps "$log" bash -c "$install" install "${missing[@]}"
else
    bash -c "$install" install "${missing[@]}"
fi
