// SPDX-License-Identifier: MIT
// libFuzzer target: the JSON report reader (tools/report/json_writer.cc read_json, what
// `nicsim compare` and the GoogleTest fixture read reports with). Bad input must come out as
// std::runtime_error naming the key; any other exception is a bug, so it aborts. A report it
// reads is written again (the writer's derived keys from whatever values were read).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tools/report/json_writer.h"

using namespace nicsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024)
        return -1;
    const std::string text(reinterpret_cast<const char*>(data), size);
    report::report r;
    try {
        r = report::read_json(text, "fuzz.json");
    } catch (const std::runtime_error&) {
        return 0; // what bad input must give
    } catch (const std::exception& e) {
        std::fprintf(stderr, "report reader: exception other than runtime_error: %s\n", e.what());
        std::abort();
    }
    report::write_json(r);
    return 0;
}
