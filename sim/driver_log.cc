// SPDX-License-Identifier: MIT
#include "sim/driver_log.h"

#include <systemc>

#include "kernel/include/lx_kit/runtime.h"
#include "sim/benign_driver_lines.h"

namespace nicsim {

namespace {
constexpr int warning_level = 4; // KERN_WARNING
} // namespace

driver_log_collector::driver_log_collector() {
    m_observer = lx_kit::add_log_observer([this](const lx_kit::log_record& r) {
        if (r.level > warning_level)
            return;
        auto it = m_index.find(r.text);
        if (it == m_index.end()) {
            if (m_entries.size() >= max_distinct_lines) {
                ++m_unstored; // a driver printing ever-new text (addresses, counters)
                return;
            }
            it = m_index.emplace(r.text, m_entries.size()).first;
            m_entries.push_back({r.time.to_seconds(), r.level, r.origin, r.text, 0});
        }
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
        // dev_*() lines carry the device name as their prefix; the format starts after it.
        const std::string prefix = e.origin + ": ";
        const bool prefixed = e.text.compare(0, prefix.size(), prefix) == 0;
        if (const benign_line* b =
                find_benign_line(m_chip, prefixed ? e.text.substr(prefix.size()) : e.text)) {
            msg += " [known benign, not an " + std::string(e.level <= 3 ? "error" : "warning") +
                   ": " + b->file + " " + b->function + "(): " + b->why +
                   "; docs/driver-testing.md#benign-driver-lines]";
            out.push_back({e.first_time_s, "driver", "benign", msg});
            continue;
        }
        out.push_back({e.first_time_s, "driver", e.level <= 3 ? "error" : "warning", msg});
    }
    if (m_unstored)
        out.push_back({sc_core::sc_time_stamp().to_seconds(), "driver", "warning",
                       std::to_string(m_unstored) +
                           " more error/warning lines not stored (only "
                           "the first " +
                           std::to_string(max_distinct_lines) + " distinct lines are)"});
}

} // namespace nicsim
