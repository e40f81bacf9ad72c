// SPDX-License-Identifier: MIT
// libFuzzer target: the validation file parser (tools/validate/validation.cc: scenario,
// settings, seeds, metric, measured value with its unit, runs, tolerances), which also loads the
// scenario with the file's settings. The input is the file's text, in memory (fuzz_file.h);
// "@CONFIGS@" in it stands for the source tree's configs/ so that a seed can name a shipped
// scenario. Any problem with the input must come out as config_error; any other exception is a
// bug (the CLI would call it internal), so it aborts.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz/fuzz_file.h"
#include "tools/config/yaml_reader.h"
#include "tools/validate/validation.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 16 * 1024)
        return -1;
    const std::string path = fuzz::as_file(fuzz::with_configs_dir(
        std::string(reinterpret_cast<const char*>(data), size), NICSIM_FUZZ_CONFIGS_DIR));
    try {
        validate::load_checks(path);
    } catch (const config::config_error&) {
        // what bad input must give
    } catch (const std::exception& e) {
        std::fprintf(stderr, "validation file: exception other than config_error: %s\n", e.what());
        std::abort();
    }
    return 0;
}
