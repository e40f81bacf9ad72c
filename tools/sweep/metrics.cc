// SPDX-License-Identifier: MIT
#include "tools/sweep/metrics.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "core/config/units.h"
#include "tools/config/expect.h"

namespace nicsim::sweep {
namespace {

// Throughput in KB/s uses 1 KB = 1024 bytes, as ttcp prints it and as the calibration points of
// docs/sources.md#calibration-measurements are quoted (also the text report's convention).
const std::vector<metric_info> k_metrics = {
    {"goodput_bps", "bit/s", "goodput (bit/s)", dimension::bit_rate, 1.0},
    {"goodput_kBps", "KB/s", "goodput (KB/s, 1 KB = 1024 B)", dimension::bit_rate, 8.0 * 1024},
    {"goodput_kbps", "kbit/s", "goodput (kbit/s)", dimension::bit_rate, 1e3},
    {"goodput_mbps", "Mbit/s", "goodput (Mbit/s)", dimension::bit_rate, 1e6},
    {"rtt_avg_ms", "ms", "average RTT (ms)", dimension::time, 1e-3},
    {"rtt_min_ms", "ms", "minimum RTT (ms)", dimension::time, 1e-3},
    {"rtt_max_ms", "ms", "maximum RTT (ms)", dimension::time, 1e-3},
    {"rtt_mdev_ms", "ms", "RTT mean deviation (ms)", dimension::time, 1e-3},
    {"energy_j", "J", "chip energy (J)", dimension::energy, 1.0},
    {"avg_power_w", "W", "chip average power (W)", dimension::power, 1.0},
    {"energy_per_mb_j", "J/MB", "chip energy per MB delivered (J/MB, 1 MB = 10^6 B)",
     dimension::energy_per_byte, 1e-6},
    {"wakeups", "", "chip wake-ups", dimension::count, 1.0},
    {"wakeups_per_mb", "", "chip wake-ups per MB delivered (1 MB = 10^6 B)", dimension::count, 1.0},
    {"wake_found_running_share", "", "share of wake-ups that found the chip's clock running (0..1)",
     dimension::ratio, 1.0},
    {"frames_per_tx_batch", "", "frames per TX batch", dimension::count, 1.0},
    {"bus_transactions_per_frame", "", "bus transactions per frame", dimension::count, 1.0},
    {"irqs_per_frame", "", "interrupts per frame", dimension::count, 1.0},
    {"context_switches", "", "host context switches", dimension::count, 1.0},
    {"tcp_cwnd", "", "TCP cwnd at the end (segments)", dimension::count, 1.0},
    {"tcp_slow_start_exit_cwnd", "", "TCP cwnd when slow start ended (segments)", dimension::count,
     1.0},
    {"tcp_tsq_limit_bytes", "", "TCP Small Queues limit at the end (bytes)", dimension::count, 1.0},
    {"bus_clock_mhz", "MHz", "bus clock, actual (MHz)", dimension::frequency, 1e6},
    {"bus_utilisation", "", "bus utilisation (0..1)", dimension::ratio, 1.0},
    {"host_cpu_share", "", "host CPU busy share (0..1)", dimension::ratio, 1.0},
    {"sim_time_s", "s", "simulated time (s)", dimension::time, 1.0},
};

struct unit_entry {
    const char* name;
    dimension dim;
    double si; // value in the base unit of the dimension
};

const std::vector<unit_entry> k_units = {
    {"bit/s", dimension::bit_rate, 1.0},
    {"bps", dimension::bit_rate, 1.0},
    {"kbit/s", dimension::bit_rate, 1e3},
    {"Kbit/s", dimension::bit_rate, 1e3},
    {"kbps", dimension::bit_rate, 1e3},
    {"Mbit/s", dimension::bit_rate, 1e6},
    {"Mbps", dimension::bit_rate, 1e6},
    {"B/s", dimension::bit_rate, 8.0},
    {"KB/s", dimension::bit_rate, 8.0 * 1024},
    {"KiB/s", dimension::bit_rate, 8.0 * 1024},
    {"s", dimension::time, 1.0},
    {"ms", dimension::time, 1e-3},
    {"us", dimension::time, 1e-6},
    {"J", dimension::energy, 1.0},
    {"mJ", dimension::energy, 1e-3},
    {"J/MB", dimension::energy_per_byte, 1e-6},
    {"mJ/MB", dimension::energy_per_byte, 1e-9},
    {"W", dimension::power, 1.0},
    {"Hz", dimension::frequency, 1.0},
    {"kHz", dimension::frequency, 1e3},
    {"MHz", dimension::frequency, 1e6},
    {"mW", dimension::power, 1e-3},
    {"", dimension::count, 1.0},
    {"", dimension::ratio, 1.0},
    {"%", dimension::ratio, 1e-2},
};

double num(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return 0.0;
    return it->get<double>();
}

} // namespace

const std::vector<metric_info>& all_metrics() {
    return k_metrics;
}

const metric_info* find_metric(const std::string& name) {
    for (const auto& m : k_metrics)
        if (name == m.name)
            return &m;
    return nullptr;
}

std::string metric_names() {
    std::string s;
    for (const auto& m : k_metrics)
        s += (s.empty() ? "" : ", ") + std::string(m.name);
    return s;
}

namespace {
// The report path of a report key, or std::invalid_argument saying why it is none.
std::string report_key(const std::string& name) {
    try {
        return config::resolve_number_key(name);
    } catch (const config::value_error& e) {
        throw std::invalid_argument("unknown metric '" + name + "' (known: " + metric_names() +
                                    "; or a report key naming a number, docs/report-schema.md: " +
                                    e.what() + ")");
    }
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

std::string plottable_problem(const std::string& name) {
    if (find_metric(name))
        return {};
    try {
        report_key(name);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

std::string metric_unit(const std::string& name) {
    if (const metric_info* m = find_metric(name))
        return m->unit;
    const std::string path = report_key(name);
    std::string last = path.substr(path.find_last_of('.') + 1);
    last = last.substr(0, last.find('['));
    if (path.find("rtt_ms.") != std::string::npos)
        return "ms";
    static const std::pair<const char*, const char*> suffixes[] = {
        {"_bps", "bit/s"}, {"_hz", "Hz"}, {"_s", "s"}, {"_w", "W"},
        {"_j", "J"},       {"_a", "A"},   {"_v", "V"}, {"bytes", "B"}};
    for (const auto& [suffix, unit] : suffixes)
        if (ends_with(last, suffix))
            return unit;
    return "";
}

std::string metric_label(const std::string& name) {
    if (const metric_info* m = find_metric(name))
        return m->label;
    const std::string unit = metric_unit(name);
    return unit.empty() ? name : name + " (" + unit + ")";
}

unit_scale scale_for(const std::string& unit, double largest) {
    static const char* const base[] = {"W", "J", "s", "A", "V", "Hz", "bit/s"};
    static const std::pair<double, const char*> prefixes[] = {
        {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}};
    if (std::find(std::begin(base), std::end(base), unit) == std::end(base) || !(largest > 0))
        return {1, unit};
    for (const auto& [factor, prefix] : prefixes) {
        if (unit == "s" && factor > 1)
            continue;
        if (largest >= factor * (1 - 1e-12) || factor == 1e-9)
            return {factor, prefix + unit};
    }
    return {1, unit};
}

std::optional<double> metric_value(const nlohmann::json& r, const std::string& name) {
    const metric_info* m = find_metric(name);
    if (!m)
        return config::number_at(r, report_key(name));
    const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& totals = r.contains("totals") ? r["totals"] : empty;
    const nlohmann::json devices = r.value("devices", nlohmann::json::array());
    if (m->dim == dimension::bit_rate)
        return num(totals, "goodput_bps") / m->si_per_unit;
    if (name.rfind("rtt_", 0) == 0) {
        // rtt_<stat>_ms of the first flow with ping replies (only ping flows have RTTs).
        const std::string stat = name.substr(4, name.size() - 7);
        for (const auto& f : r.value("flows", nlohmann::json::array()))
            if (f.contains("rtt_ms") && f["rtt_ms"].is_object())
                return num(f["rtt_ms"], stat.c_str());
        return std::nullopt;
    }
    if (name == "wakeups_per_mb" || name == "energy_per_mb_j") {
        // A chip figure over the payload the flows delivered (MB = 10^6 B): none delivered, or
        // no figure, no value.
        double bytes = 0;
        for (const auto& f : r.value("flows", nlohmann::json::array()))
            bytes += num(f, "bytes");
        const auto v = metric_value(r, name == "wakeups_per_mb" ? "wakeups" : "energy_j");
        if (!v || bytes <= 0)
            return std::nullopt;
        return *v / (bytes / 1e6);
    }
    if (name == "wake_found_running_share") {
        // Over the devices with a wake distribution; none without a wake request.
        double found = 0, requests = 0;
        for (const auto& d : devices)
            if (d.contains("wake") && d["wake"].is_object()) {
                found += num(d["wake"], "found_clock_running");
                requests += num(d["wake"], "requests");
            }
        if (requests <= 0)
            return std::nullopt;
        return found / requests;
    }
    // Chip figures are summed over the devices (one device in every shipped scenario); bus
    // utilisation is the largest of them.
    if (name == "energy_j" || name == "avg_power_w" || name == "wakeups") {
        // A chip without a power model reports null energy: no value, not 0 (an empty cell).
        std::optional<double> s;
        for (const auto& d : devices)
            if (d.contains(name) && d[name].is_number())
                s = s.value_or(0.0) + num(d, name.c_str());
        return s;
    }
    if (name == "frames_per_tx_batch") { // the first device that batches
        for (const auto& d : devices)
            if (d.contains("frames_per_tx_batch") && d["frames_per_tx_batch"].is_number())
                return num(d, "frames_per_tx_batch");
        return std::nullopt;
    }
    if (name == "bus_transactions_per_frame" || name == "irqs_per_frame") {
        // Over all devices: their bus transactions (or interrupts) over the frames they moved;
        // no value when no frame crossed a device.
        double n = 0, frames = 0;
        for (const auto& d : devices) {
            frames += num(d, "frames_tx") + num(d, "frames_rx");
            n += name == "irqs_per_frame"
                     ? num(d, "irqs")
                     : (d.contains("bus_stats") ? num(d["bus_stats"], "transactions") : 0.0);
        }
        if (frames <= 0)
            return std::nullopt;
        return n / frames;
    }
    if (name.rfind("tcp_", 0) == 0) {
        // flows[].tcp.<field> of the first TCP flow over the Linux-like stack; empty when none
        // has it (no TCP flow, or slow start never ended).
        const std::string field = name.substr(4);
        for (const auto& f : r.value("flows", nlohmann::json::array()))
            if (f.contains("tcp") && f["tcp"].is_object() && f["tcp"].contains(field))
                return f["tcp"][field].is_number()
                           ? std::optional<double>(num(f["tcp"], field.c_str()))
                           : std::nullopt;
        return std::nullopt;
    }
    if (name == "context_switches") {
        if (!r.contains("host_cpu"))
            return std::nullopt;
        return num(r["host_cpu"], "context_switches");
    }
    if (name == "bus_clock_mhz") { // the clock the bus ran at (older reports: the requested one)
        const nlohmann::json& run = r.contains("run") ? r["run"] : empty;
        const char* key = run.contains("bus_clock_actual_hz") ? "bus_clock_actual_hz" : "bus_clock_hz";
        return num(run, key) / m->si_per_unit;
    }
    if (name == "bus_utilisation") {
        if (devices.empty())
            return std::nullopt;
        double mx = 0;
        for (const auto& d : devices)
            if (d.contains("bus_stats"))
                mx = std::max(mx, num(d["bus_stats"], "utilisation"));
        return mx;
    }
    if (name == "host_cpu_share") {
        if (!r.contains("host_cpu"))
            return std::nullopt;
        return num(r["host_cpu"], "busy_share");
    }
    if (name == "sim_time_s")
        return num(r, "sim_time_s");
    throw std::logic_error("metric without extraction: " + name);
}

double unit_factor(const metric_info& m, const std::string& unit) {
    std::string known;
    for (const auto& u : k_units) {
        if (u.dim != m.dim)
            continue;
        if (unit == u.name)
            return u.si / m.si_per_unit;
        known += (known.empty() ? "" : ", ") + std::string(*u.name ? u.name : "(none)");
    }
    throw std::invalid_argument("unit '" + unit + "' does not fit metric " + m.name +
                                " (units that do: " + known + ")");
}

} // namespace nicsim::sweep
