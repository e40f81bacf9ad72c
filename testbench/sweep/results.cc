// SPDX-License-Identifier: MIT
#include "testbench/sweep/results.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "testbench/sweep/metrics.h"
#include "testbench/sweep/svg_plot.h"

namespace nicsim::sweep {
namespace fs = std::filesystem;
namespace {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string o = "\"";
    for (char c : s)
        o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

// Shortest text that reads back to the same double (as the JSON reports): exact and stable.
std::string number(double v) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::optional<double> value_of(const point_outcome& o, const std::string& metric) {
    if (o.st != point_outcome::state::ok)
        return std::nullopt;
    return metric_value(o.report, metric);
}

// "12MHz" → (12, "MHz"); nullopt when the text is not a number with an optional unit of letters,
// '/' or '%' (a space between them is allowed).
std::optional<std::pair<double, std::string>> quantity(const std::string& text) {
    const char* b = text.c_str();
    char* end = nullptr;
    const double v = std::strtod(b, &end);
    if (end == b || !std::isfinite(v))
        return std::nullopt;
    std::string unit(end);
    while (!unit.empty() && unit.front() == ' ')
        unit.erase(0, 1);
    while (!unit.empty() && unit.back() == ' ')
        unit.pop_back();
    for (char c : unit)
        if (!std::isalpha(static_cast<unsigned char>(c)) && c != '/' && c != '%')
            return std::nullopt;
    // strtod also reads "inf", "nan" and hex floats; axis values of that form are categories.
    for (const char* c = b; c != end; ++c)
        if (std::isalpha(static_cast<unsigned char>(*c)) && *c != 'e' && *c != 'E')
            return std::nullopt;
    return std::make_pair(v, unit);
}

std::string short_key(const std::string& key) {
    const auto dot = key.rfind('.');
    return dot == std::string::npos ? key : key.substr(dot + 1);
}

std::string setting(const point& p, const std::string& key) {
    for (const auto& a : p.settings)
        if (a.key == key)
            return a.value;
    return "";
}

} // namespace

const std::vector<std::string>& result_metrics() {
    static const std::vector<std::string> m = {"goodput_bps",     "goodput_kBps",   "rtt_avg_ms",
                                               "energy_j",        "avg_power_w",    "wakeups",
                                               "bus_utilisation", "host_cpu_share", "sim_time_s"};
    return m;
}

// The result columns: result_metrics(), then any other metric the sweep plots (in its order),
// so a study that asks for e.g. rtt_max_ms gets its column without changing everyone's CSV.
std::vector<std::string> metric_columns(const sweep_spec& spec) {
    std::vector<std::string> m = result_metrics();
    for (const auto& name : spec.metrics)
        if (std::find(m.begin(), m.end(), name) == m.end())
            m.push_back(name);
    return m;
}

std::string status_text(const point_outcome& o) {
    switch (o.st) {
    case point_outcome::state::ok:
        return "ok";
    case point_outcome::state::failed:
        return "failed (exit " + std::to_string(o.exit_code) + ")";
    case point_outcome::state::missing:
        return "missing";
    }
    return "?";
}

std::string results_csv(const sweep_spec& spec, const std::vector<point_outcome>& outcomes) {
    std::string o;
    for (const auto& c : spec.columns)
        o += csv_field(c) + ",";
    const std::vector<std::string> metrics = metric_columns(spec);
    for (const auto& m : metrics)
        o += m + ",";
    o += "status,point\n";
    for (size_t i = 0; i < spec.points.size(); ++i) {
        const auto& p = spec.points[i];
        for (const auto& c : spec.columns)
            o += csv_field(setting(p, c)) + ",";
        for (const auto& m : metrics) {
            const auto v = value_of(outcomes[i], m);
            o += (v ? number(*v) : std::string()) + ",";
        }
        o += csv_field(status_text(outcomes[i])) + "," + p.id + "\n";
    }
    return o;
}

std::string results_json(const sweep_spec& spec, const std::vector<point_outcome>& outcomes) {
    nlohmann::ordered_json j;
    j["sweep"] = spec.stem;
    j["base"] = spec.base_as_written;
    j["set"] = nlohmann::ordered_json::object();
    for (const auto& a : spec.fixed)
        j["set"][a.key] = a.value;
    j["columns"] = spec.columns;
    nlohmann::ordered_json units = nlohmann::ordered_json::object();
    const std::vector<std::string> metrics = metric_columns(spec);
    for (const auto& m : metrics)
        units[m] = find_metric(m)->unit;
    j["units"] = units;
    j["points"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < spec.points.size(); ++i) {
        const auto& p = spec.points[i];
        const auto& out = outcomes[i];
        nlohmann::ordered_json e;
        e["id"] = p.id;
        e["settings"] = nlohmann::ordered_json::object();
        for (const auto& a : p.settings)
            e["settings"][a.key] = a.value;
        e["status"] = status_text(out);
        nlohmann::ordered_json ms = nlohmann::ordered_json::object();
        for (const auto& m : metrics) {
            const auto v = value_of(out, m);
            ms[m] = v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
        }
        e["metrics"] = ms;
        if (out.st == point_outcome::state::failed) {
            e["exit_code"] = out.exit_code;
            e["stderr"] = out.stderr_text;
        }
        j["points"].push_back(e);
    }
    return j.dump(2) + "\n";
}

std::string metric_plot_svg(const sweep_spec& spec, const std::vector<point_outcome>& outcomes,
                            const std::string& metric) {
    const metric_info* mi = find_metric(metric);
    if (!mi)
        throw std::invalid_argument("unknown metric '" + metric + "'");
    line_plot plot;
    const std::string xkey = spec.columns.front();
    plot.y_label = mi->label;
    plot.title = std::string(mi->label) + " vs " + xkey + " (" + spec.stem + ")";

    // x positions in order of first appearance; numeric when every value is a number with the
    // same unit (12MHz, 24MHz, ...), else evenly spaced categories (false, true).
    std::vector<std::string> xs;
    for (const auto& p : spec.points) {
        const std::string v = setting(p, xkey);
        if (std::find(xs.begin(), xs.end(), v) == xs.end())
            xs.push_back(v);
    }
    bool numeric = true;
    std::string unit;
    std::vector<double> xv;
    for (size_t i = 0; i < xs.size(); ++i) {
        const auto q = quantity(xs[i]);
        if (!q || (i > 0 && q->second != unit)) {
            numeric = false;
            break;
        }
        unit = q->second;
        xv.push_back(q->first);
    }
    plot.x_label = xkey + (numeric && !unit.empty() ? " (" + unit + ")" : "");
    for (size_t i = 0; i < xs.size(); ++i) {
        if (numeric) {
            char b[64];
            std::snprintf(b, sizeof b, "%g", xv[i]);
            plot.x_ticks.push_back(b);
        } else {
            plot.x_ticks.push_back(xs[i]);
        }
        plot.x.push_back(numeric ? xv[i] : static_cast<double>(i));
    }

    // One series per combination of the other columns, in order of first appearance.
    std::vector<std::string> labels;
    std::map<std::string, size_t> series_of;
    for (size_t i = 0; i < spec.points.size(); ++i) {
        const auto& p = spec.points[i];
        std::string label;
        for (size_t c = 1; c < spec.columns.size(); ++c)
            label += (label.empty() ? "" : ", ") + short_key(spec.columns[c]) + "=" +
                     setting(p, spec.columns[c]);
        auto it = series_of.find(label);
        if (it == series_of.end()) {
            it = series_of.emplace(label, plot.series.size()).first;
            plot.series.push_back({label, std::vector<std::optional<double>>(xs.size())});
        }
        const size_t xi =
            static_cast<size_t>(std::find(xs.begin(), xs.end(), setting(p, xkey)) - xs.begin());
        plot.series[it->second].y[xi] = value_of(outcomes[i], metric);
    }
    return render_svg(plot);
}

void write_file_atomic(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f)
            throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
        f << text;
        f.flush();
        if (!f)
            throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " +
                                 std::strerror(errno));
}

std::vector<std::string> write_results(const sweep_spec& spec,
                                       const std::vector<point_outcome>& outcomes,
                                       const std::string& dir) {
    fs::create_directories(dir);
    std::vector<std::string> written;
    const std::string csv = (fs::path(dir) / "results.csv").string();
    write_file_atomic(csv, results_csv(spec, outcomes));
    written.push_back(csv);
    const std::string json = (fs::path(dir) / "results.json").string();
    write_file_atomic(json, results_json(spec, outcomes));
    written.push_back(json);
    for (const auto& m : spec.metrics) {
        const std::string svg = (fs::path(dir) / ("plot-" + m + ".svg")).string();
        write_file_atomic(svg, metric_plot_svg(spec, outcomes, m));
        written.push_back(svg);
    }
    return written;
}

} // namespace nicsim::sweep
