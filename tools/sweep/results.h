// SPDX-License-Identifier: MIT
//
// The outcome of every point of a sweep, and what is made from them: results.csv, results.json
// and one SVG plot per metric. Everything here is a function of the point files alone (never of
// wall-clock time or completion order), so a one-go run, a resumed run and an emit+merge run give
// byte-identical results.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tools/sweep/sweep_spec.h"

namespace nicsim::sweep {

struct point_outcome {
    enum class state { ok, failed, missing };
    state st = state::missing;
    nlohmann::json report;   // the run report (state ok)
    int exit_code = 0;       // state failed
    std::string stderr_text; // state failed
    bool timed_out = false;  // state failed: stopped at the sweep's per-point timeout
};

// The metrics in results.csv / results.json, in column order.
const std::vector<std::string>& result_metrics();
// result_metrics() plus the other metrics the sweep plots: the columns of its results.
std::vector<std::string> metric_columns(const sweep_spec& spec);

std::string status_text(const point_outcome& o);

// outcomes[i] belongs to spec.points[i]. A setting column the scenario loader reads as a
// quantity (assignment::quantity) holds numbers in the unit of its kind and is named with that
// unit's suffix, as report keys are (device.bus_clock_hz, traffic.interval_s,
// traffic.write_size_bytes, ..._bps, _a, _v); other settings are as written. results.json keeps
// the settings as written.
std::string results_csv(const sweep_spec& spec, const std::vector<point_outcome>& outcomes);
std::string results_json(const sweep_spec& spec, const std::vector<point_outcome>& outcomes);
// The plot of one metric against the first column, one series per combination of the others.
std::string metric_plot_svg(const sweep_spec& spec, const std::vector<point_outcome>& outcomes,
                            const std::string& metric);

// The A/B table of a sweep with `compare: <column>` (docs/sweep.md): per combination of the other
// columns and per plotted metric, the value at each of the column's values and the difference to
// the first (absolute and %), as CSV and as a Markdown table.
std::string compare_csv(const sweep_spec& spec, const std::vector<point_outcome>& outcomes);
std::string compare_md(const sweep_spec& spec, const std::vector<point_outcome>& outcomes);

// Writes results.csv, results.json, compare.csv and compare.md (with `compare:`) and
// plot-<metric>.svg into dir (each atomically); returns the paths written.
// "plot-<metric>.svg"; a report key's brackets and other characters a file name should not
// have become '_' ("plot-devices_wlan0_.wakeups.svg").
std::string plot_file_name(const std::string& metric);

std::vector<std::string> write_results(const sweep_spec& spec,
                                       const std::vector<point_outcome>& outcomes,
                                       const std::string& dir);

// Writes text to path via path.tmp + rename, so readers never see a partial file.
void write_file_atomic(const std::string& path, const std::string& text);

} // namespace nicsim::sweep
