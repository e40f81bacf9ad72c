// SPDX-License-Identifier: MIT
//
// Human-readable reports: one run as an aligned "metric  value" table, or several runs side by
// side (one column per run, e.g. power save off vs on, with the ratio and the change of each
// later run against the first). Both fit `width` columns (80 by default; the CLI passes the
// terminal's): values wrap inside their column, and when the columns cannot fit, each metric is
// stacked as one line per run. Throughput is printed in KB/s (1 KB = 1024 bytes, as ttcp prints
// it and as the calibration points are quoted) and Mbit/s (10^6 bit/s).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/report/report.h"

namespace nicsim::report {

// One metric of a report: its label, the formatted text and, for quantities, the number the
// ratio and Δ of `compare` are computed from (goodput in bit/s, times in s, counts).
struct metric_row {
    std::string label;
    std::string text;
    std::optional<double> value;
};

// The metric rows of one report, in display order. Labels are unique within a report and stable
// across reports of the same shape, so reports can be lined up. Only rows that apply are
// present: a ping flow has no goodput, a device without power states no energy.
std::vector<metric_row> metric_rows(const report& r);
// The same as (label, text) pairs.
std::vector<std::pair<std::string, std::string>> summary_rows(const report& r);

std::string render_text(const report& r, std::size_t width = 80);

// Columns are labelled with labels[i]; when labels is empty, each column is named by the run
// settings that differ between the reports (e.g. "power_save=off" / "power_save=on"), or #1, #2…
// After each report but the first: "ratio" (its value / the first's) and "Δ" (the change in %).
std::string render_side_by_side(const std::vector<report>& reports,
                                const std::vector<std::string>& labels = {},
                                std::size_t width = 80);

std::string format_kbps(double bits_per_second);   // "397.7 KB/s"
std::string format_mbitps(double bits_per_second); // "3.258 Mbit/s"
std::string format_ratio(double a, double b);      // b / a: "0.26×"; "" when a is 0
std::string format_change(double a, double b);     // (b - a) / a: "-73.6 %"; "" when a is 0

} // namespace nicsim::report
