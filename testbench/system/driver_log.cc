// SPDX-License-Identifier: MIT
#include "testbench/system/driver_log.h"

#include "driver/include/lx_kit/runtime.h"

namespace nicsim {

namespace {
constexpr int warning_level = 4; // KERN_WARNING
} // namespace

driver_log_collector::driver_log_collector() {
    m_observer = lx_kit::add_log_observer([this](const lx_kit::log_record& r) {
        if (r.level > warning_level)
            return;
        auto [it, fresh] = m_index.emplace(r.text, m_entries.size());
        if (fresh)
            m_entries.push_back({r.time.to_seconds(), r.level, r.origin, r.text, 0});
        ++m_entries[it->second].count;
    });
}

driver_log_collector::~driver_log_collector() {
    lx_kit::remove_log_observer(m_observer);
}

void driver_log_collector::append_findings(std::vector<report::finding>& out) const {
    for (const auto& e : m_entries) {
        std::string msg = e.origin + ": " + e.text;
        if (e.count > 1)
            msg += " (logged " + std::to_string(e.count) + " times)";
        out.push_back({e.first_time_s, "driver", e.level <= 3 ? "error" : "warning", msg});
    }
}

} // namespace nicsim
