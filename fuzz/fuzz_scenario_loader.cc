// SPDX-License-Identifier: MIT
// libFuzzer target: the scenario loader (tools/config: YAML -> validated scenario_config,
// with the platform profile it names from the source tree's configs/ and the device catalog of
// every linked binding). The input is the scenario text, kept in memory (a memfd the loader
// opens by its /proc path); its first line may hold one --set override ("#set key=value").
// Any problem with the input must come out as config_error: any other exception is a bug (the
// CLI would report it as an internal error), so it aborts. The text with its comment lines cut
// short (config::shorten_comment_lines, what the loader parses) must mean the same YAML as the
// full text, or fail to parse as it does.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <yaml-cpp/yaml.h>

#include "fuzz/fuzz_file.h"
#include "tools/config/config_loader.h"
#include "tools/config/yaml_reader.h"

using namespace nicsim;

namespace {
// YAML::Dump of the parsed text, or "" when it does not parse.
std::string meaning(const std::string& text, bool& parsed) {
    try {
        parsed = true;
        return YAML::Dump(YAML::Load(text));
    } catch (const YAML::Exception&) {
        parsed = false;
        return {};
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024)
        return -1; // not worth it: the loader is linear in the size
    std::string text(reinterpret_cast<const char*>(data), size);
    config::load_options o;
    if (text.rfind("#set ", 0) == 0) {
        const size_t nl = text.find('\n');
        o.overrides.push_back(text.substr(5, nl == std::string::npos ? std::string::npos : nl - 5));
    }
    bool parsed = false, parsed_short = false;
    if (meaning(text, parsed) != meaning(config::shorten_comment_lines(text), parsed_short) ||
        parsed != parsed_short) {
        std::fprintf(stderr, "shorten_comment_lines changed what the YAML means\n");
        std::abort();
    }
    o.configs_dir = NICSIM_FUZZ_CONFIGS_DIR;
    const std::string path = fuzz::as_file(text);
    try {
        config::load_scenario(path, o);
    } catch (const config::config_error&) {
        // what bad input must give
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scenario loader: exception other than config_error: %s\n", e.what());
        std::abort();
    }
    return 0;
}
