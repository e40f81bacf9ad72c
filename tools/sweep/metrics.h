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

// What a sweep tabulates and plots besides the metrics above: any number of the report, named
// as an `expect:` path names it (`devices[wlan0].wakeups`, `power_save.beacon_wakeups`,
// `flows[0].udp.lost`; tools/config/expect.h). metric_value() reads those too.
// Empty when `name` is a metric or such a key; else why not (naming the metrics).
std::string plottable_problem(const std::string& name);
// The unit of a metric or report key ("" for counts and shares); a report key's comes from
// its name's suffix as docs/report-schema.md gives them (_bps bit/s, _s s, _w W, _j J, _hz Hz,
// _a A, _v V, rtt_ms ms, bytes B).
std::string metric_unit(const std::string& name);
// Axis label: the metric's, or the key as written with its unit ("devices[wlan0].wakeups").
std::string metric_label(const std::string& name);

// The SI prefix that shows `largest` (the largest magnitude a plot has) as 1 to 999 of it:
// ("W", 0.0123) → {1e-3, "mW"}, ("s", 2e-5) → {1e-6, "µs"}, ("bit/s", 4.2e6) → {1e6, "Mbit/s"}.
// Units without SI prefixes (KB/s, ms, counts) and a largest of 0 keep {1, unit}; seconds get
// no prefix above 1.
struct unit_scale {
    double factor = 1; // value / factor is in `unit`
    std::string unit;
};
unit_scale scale_for(const std::string& unit, double largest);

// Factor to convert a measured value in `unit` to the unit of metric m (e.g. "Kbit/s" to
// goodput_kBps). Throws std::invalid_argument naming the known units when unit does not fit.
double unit_factor(const metric_info& m, const std::string& unit);

} // namespace nicsim::sweep
