// SPDX-License-Identifier: MIT
// A chip model's findings (models/common/finding_log.h) as report findings, the same for every
// binding: one warning per stored finding, then one per kind whose findings went past the log's
// per-kind cap, saying how many more there were.
#pragma once

#include <string>
#include <vector>

#include <systemc>

#include "core/report/report.h"

namespace nicsim::bindings {

template <class Log>
void append_chip_findings(const Log& log, const std::string& chip,
                          std::vector<report::finding>& out) {
    for (const auto& f : log.list())
        out.push_back(
            {f.time.to_seconds(), chip, "warning", std::string(to_string(f.kind)) + ": " + f.text});
    for (const auto& [kind, more] : log.overflow())
        out.push_back({sc_core::sc_time_stamp().to_seconds(), chip, "warning",
                       std::string(to_string(kind)) + ": " + std::to_string(more) +
                           " more findings of this kind, not stored (the first " +
                           std::to_string(log.per_kind_cap()) + " are listed)"});
}

} // namespace nicsim::bindings
