// SPDX-License-Identifier: MIT
// libFuzzer target: the sweep file parser (tools/sweep/sweep_spec.cc: base scenario, axes,
// zipped and grid expansion, metrics, plots, timeout). The input is the sweep file's text, in
// memory (fuzz_file.h); "@CONFIGS@" in it stands for the source tree's configs/ so that a
// seed can name a shipped base scenario. Any problem with the input must come out as
// config_error; any other exception is a bug (the CLI would call it internal), so it aborts.
// Grids above 10^4 points are cut off when their size is known: expanding 10^8 points is
// correct but takes minutes, which only slows the fuzzer down.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_file.h"
#include "tools/config/yaml_reader.h"
#include "tools/sweep/sweep_spec.h"

using namespace nicsim;

namespace {
struct too_many_points {};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 16 * 1024)
        return -1;
    const std::string path =
        fuzz::as_file(fuzz::with_configs_dir(
        std::string(reinterpret_cast<const char*>(data), size), NICSIM_FUZZ_CONFIGS_DIR));
    try {
        sweep::load_sweep_spec(path, [](size_t points) {
            if (points > 10'000)
                throw too_many_points{};
        });
    } catch (const config::config_error&) {
        // what bad input must give
    } catch (const too_many_points&) {
    } catch (const std::exception& e) {
        std::fprintf(stderr, "sweep file: exception other than config_error: %s\n", e.what());
        std::abort();
    }
    return 0;
}
