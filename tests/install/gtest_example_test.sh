#!/bin/sh
# SPDX-License-Identifier: MIT
# The public GoogleTest fixture as a user meets it: `cmake --install` into a staging DESTDIR, then
# the installed examples/gtest project configured against the installed package
# (find_package(nicsim) through CMAKE_PREFIX_PATH), built, and its tests run by CTest.
# usage: gtest_example_test.sh <build dir> <work dir>
set -eu
build=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
DESTDIR="$work/stage" cmake --install "$build" --prefix /opt/nicsim >/dev/null
root="$work/stage/opt/nicsim"
test -f "$root/include/nicsim/scenario_test.h"
test -f "$root/share/cmake/nicsim/nicsimConfig.cmake"
example="$root/share/doc/nicsim/examples/gtest"
test -f "$example/CMakeLists.txt"
unset NICSIM NICSIM_CONFIGS_DIR || true
cmake -S "$example" -B "$work/tests" -DCMAKE_PREFIX_PATH="$root" -DCMAKE_BUILD_TYPE=Release \
    >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/tests" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
# The fixture must name the installed binary, not this build's.
grep -q "$root/bin/nicsim" "$work/tests/CMakeFiles/ks8851_driver_test.dir/flags.make"
ctest --test-dir "$work/tests" --output-on-failure -j 2
n=$(ctest --test-dir "$work/tests" -N | sed -n 's/^Total Tests: //p')
test "$n" -eq 4
echo "gtest example test: ok ($n tests)"
