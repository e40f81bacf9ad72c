#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan + UBSan) and runs each for a bounded time from
# its corpus in fuzz/corpus/<target> (seeds and regression inputs; every one of them runs first).
# New inputs the fuzzer finds go to a scratch copy, not into the repository; a crash leaves the
# input in <build>/artifacts/ and makes the script exit 1. docs/fuzzing.md.
# Usage: scripts/fuzz.sh SECONDS_PER_TARGET [TARGET...]
#   FUZZ_BUILD (default build-fuzz), JOBS (default 2), CMAKE_ARGS: passed to the configure step.
# Without clang or its libFuzzer runtime it says so and exits 0 (skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:?usage: scripts/fuzz.sh SECONDS_PER_TARGET [TARGET...]}
shift
build=${FUZZ_BUILD:-build-fuzz}
jobs=${JOBS:-2}
all=(wilc1000_spi wilc1000_sdio wilc1000_config ks8851_spi ks8851_par enc28j60_spi frame_parser
     scenario_loader sweep_spec validation_spec report_reader)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")

if ! command -v clang++ >/dev/null 2>&1; then
    echo "fuzz: SKIPPED: clang++ not found (Debian: apt-get install clang libclang-rt-14-dev)"
    exit 0
fi
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' \
    >"$probe/p.cc"
if ! clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cc" -o "$probe/p" 2>"$probe/err"; then
    echo "fuzz: SKIPPED: clang++ cannot link libFuzzer with ASan+UBSan (Debian: apt-get install" \
         "libclang-rt-14-dev):"
    sed 's/^/  /' "$probe/err" | head -5
    exit 0
fi

launcher=()
command -v ccache >/dev/null 2>&1 &&
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [[ ! -f $build/CMakeCache.txt ]]; then
    # shellcheck disable=SC2086 # CMAKE_ARGS is a list of arguments
    CC=clang CXX=clang++ cmake -S . -B "$build" -DNICSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        "${launcher[@]}" ${CMAKE_ARGS:-} >/dev/null
fi
cmake --build "$build" --target nicsim_fuzz -j"$jobs" >"$build/fuzz-build.log" 2>&1 || {
    tail -30 "$build/fuzz-build.log"
    echo "fuzz: FAILED: building the fuzz targets (log: $build/fuzz-build.log)"
    exit 1
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$build/artifacts"
failed=()
for t in "${targets[@]}"; do
    bin=$build/fuzz/fuzz_$t
    seeds=fuzz/corpus/$t
    work=$build/corpus/$t # the fuzzer's own additions, kept between runs of this build
    mkdir -p "$work"
    log=$build/fuzz_$t.log
    extra=()
    # The chip targets build fresh SystemC modules per input, and SystemC keeps each module's
    # process objects (reachable, ~10 KB per input): libFuzzer's per-input leak check would then
    # scan the heap after every input (20-60x slower) and find nothing. ASan and UBSan stay on.
    case $t in wilc1000_* | ks8851_* | enc28j60_*) extra=(-detect_leaks=0) ;; esac
    if "$bin" "${extra[@]}" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -max_len=16384 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" "$work" "$seeds" \
        >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
        echo "fuzz: $t: ${runs:-?} inputs in ${secs}s, ${cov:-cov: ?}, no crash"
    else
        echo "fuzz: $t: FAILED (log: $log; input in $build/artifacts/):"
        grep -m1 -E 'ERROR|SUMMARY|runtime error|deadly signal|abort' "$log" | sed 's/^/  /' || true
        failed+=("$t")
    fi
done
echo "fuzz: ${#targets[@]} targets, ${secs}s each${failed:+, failed: ${failed[*]}}"
# The closing line in the plain 'N passed, N failed' form test-result readers know.
echo "fuzz: $((${#targets[@]} - ${#failed[@]})) passed, ${#failed[@]} failed"
[[ ${#failed[@]} -eq 0 ]]
