// SPDX-License-Identifier: MIT
//
// Human-readable reports: one run as an aligned "metric  value" table, or several runs side by
// side (one column per run, e.g. power save off vs on). Throughput is printed in KB/s (1 KB =
// 1024 bytes, as ttcp prints it and as the calibration points are quoted) and Mbit/s (10^6 bit/s).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "testbench/report/report.h"

namespace nicsim::report {

// The metric rows of one report, in display order: (label, formatted value). Labels are unique
// within a report and stable across reports of the same shape, so reports can be lined up.
std::vector<std::pair<std::string, std::string>> summary_rows(const report& r);

std::string render_text(const report& r);

// Columns are labelled with labels[i]; when labels is empty, each column is named by the run
// settings that differ between the reports (e.g. "power_save=off" / "power_save=on"), or #1, #2…
std::string render_side_by_side(const std::vector<report>& reports,
                                const std::vector<std::string>& labels = {});

std::string format_kbps(double bits_per_second);   // "397.7 KB/s"
std::string format_mbitps(double bits_per_second); // "3.258 Mbit/s"

} // namespace nicsim::report
