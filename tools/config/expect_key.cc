// SPDX-License-Identifier: MIT
// The scenario loader's `expect:` key (grammar in expect.h, docs/driver-testing.md).
#include "tools/config/expect.h"
#include "tools/config/yaml_reader.h"

namespace nicsim::config {

std::vector<expectation> read_expect_key(yaml_reader& r, const std::string& device_type) {
    std::vector<expectation> out;
    const auto items = r.scalar_list("expect");
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string key =
            (r.path().empty() ? "" : r.path() + ".") + "expect[" + std::to_string(i) + "]";
        try {
            expectation e = parse_expectation(items[i].text, device_type);
            e.where = items[i].where;
            out.push_back(std::move(e));
        } catch (const value_error& e) {
            throw config_error(items[i].where + ": " + key + ": " + e.what());
        }
    }
    return out;
}

} // namespace nicsim::config
