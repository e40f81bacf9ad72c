#!/usr/bin/env bash
# The main demo (make demo). Usage: scripts/demo.sh <build dir>
set -euo pipefail
build=${1:-build}
"$build/nicsim" --version
