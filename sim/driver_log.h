// SPDX-License-Identifier: MIT
// Turns the driver's own error and warning lines (KERN_WARNING and more severe) into report
// findings, so a run whose driver took an error path says so in its report, not only in the
// console log. Lines with the same text are counted once (a stuck poll loop logs thousands).
// It observes the log (lx_kit::add_log_observer); printing stays with the log sink.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/report/report.h"

namespace nicsim {

class driver_log_collector {
  public:
    driver_log_collector(); // starts observing the driver log
    ~driver_log_collector();

    // The scenario's device.type: its driver's known benign lines (benign_driver_lines.h) become
    // findings of severity "benign" instead of "error"/"warning".
    void set_chip(std::string chip) { m_chip = std::move(chip); }

    // One finding per distinct line, in order of first appearance; past max_distinct_lines
    // distinct lines, one finding counting the lines not stored.
    void append_findings(std::vector<report::finding>& out) const;

    static constexpr size_t max_distinct_lines = 200;

  private:
    struct entry {
        double first_time_s;
        int level;
        std::string origin;
        std::string text;
        unsigned long count;
    };
    std::vector<entry> m_entries;
    std::map<std::string, size_t> m_index; // text -> entry
    unsigned long m_unstored = 0;
    std::string m_chip;
    int m_observer = 0;
};

} // namespace nicsim
