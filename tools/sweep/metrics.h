// SPDX-License-Identifier: MIT
//
// The numbers a sweep tabulates and a validation point compares, read from a `nicsim run --json`
// report (docs/report-schema.md). One table, so sweep columns, plot axes and validation metrics
// use the same names and units.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace nicsim::sweep {

enum class dimension {
    bit_rate,
    byte_rate,
    time,
    energy,
    power,
    count,
    ratio,
    energy_per_byte,
    frequency
};

struct metric_info {
    const char* name;  // column / metric name
    const char* unit;  // unit of the value, as printed ("bit/s", "KB/s", "ms", ...)
    const char* label; // axis label in plots
    dimension dim;
    double si_per_unit; // value × si_per_unit = value in the dimension's base unit
};

// Every metric, in results.csv column order.
const std::vector<metric_info>& all_metrics();
// nullptr when unknown.
const metric_info* find_metric(const std::string& name);
std::string metric_names(); // "a, b, c" for messages

// The metric from a report; nullopt when the report has no such value (e.g. rtt_avg_ms of a
// flow without ping replies). Throws std::invalid_argument on an unknown name.
std::optional<double> metric_value(const nlohmann::json& report, const std::string& name);

// Factor to convert a measured value in `unit` to the unit of metric m (e.g. "Kbit/s" to
// goodput_kBps). Throws std::invalid_argument naming the known units when unit does not fit.
double unit_factor(const metric_info& m, const std::string& unit);

} // namespace nicsim::sweep
