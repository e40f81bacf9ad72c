// SPDX-License-Identifier: MIT
#include "tools/sweep/results.h"

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

#include "tools/sweep/metrics.h"
#include "tools/sweep/svg_plot.h"

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

const assignment* find_setting(const point& p, const std::string& key) {
    for (const auto& a : p.settings)
        if (a.key == key)
            return &a;
    return nullptr;
}

std::string setting(const point& p, const std::string& key) {
    const assignment* a = find_setting(p, key);
    return a ? a->value : "";
}

// A setting column of a CSV: a number in one unit when the loader decodes the key as the same
// kind of quantity in every point that sets it (named with the unit's suffix, as report keys
// and metric columns are: device.bus_clock_hz), else the values as written (true, pristine).
struct setting_column {
    std::string key;
    const char* suffix = nullptr; // nullptr: as written
    std::string header() const { return csv_field(suffix ? key + suffix : key); }
    std::string cell(const point& p) const {
        const assignment* a = find_setting(p, key);
        if (!a)
            return "";
        if (!suffix)
            return csv_field(a->value);
        // Fixed notation, shortest that reads back the same: 48MHz as 48000000, 10ms as 0.01.
        char buf[400];
        const auto r = std::to_chars(buf, buf + sizeof buf, a->quantity->value,
                                     std::chars_format::fixed);
        return std::string(buf, r.ptr);
    }
};

setting_column setting_column_of(const sweep_spec& spec, const std::string& key) {
    setting_column c{key, nullptr};
    for (const auto& p : spec.points) {
        const assignment* a = find_setting(p, key);
        if (!a)
            continue;
        if (!a->quantity || (c.suffix && std::strcmp(c.suffix, a->quantity->suffix) != 0))
            return {key, nullptr};
        c.suffix = a->quantity->suffix;
    }
    return c;
}

std::vector<setting_column> setting_columns(const sweep_spec& spec,
                                            const std::vector<std::string>& keys) {
    std::vector<setting_column> cols;
    for (const auto& k : keys)
        cols.push_back(setting_column_of(spec, k));
    return cols;
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
        return o.timed_out ? "timed out" : "failed (exit " + std::to_string(o.exit_code) + ")";
    case point_outcome::state::missing:
        return "missing";
    }
    return "?";
}

std::string results_csv(const sweep_spec& spec, const std::vector<point_outcome>& outcomes) {
    std::string o;
    const std::vector<setting_column> settings = setting_columns(spec, spec.columns);
    for (const auto& c : settings)
        o += c.header() + ",";
    const std::vector<std::string> metrics = metric_columns(spec);
    for (const auto& m : metrics)
        o += m + ",";
    o += "status,point\n";
    for (size_t i = 0; i < spec.points.size(); ++i) {
        const auto& p = spec.points[i];
        for (const auto& c : settings)
            o += c.cell(p) + ",";
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
    if (spec.base_as_written.empty()) // every point has its own (the base column)
        j["base"] = nullptr;
    else
        j["base"] = spec.base_as_written;
    j["set"] = nlohmann::ordered_json::object();
    for (const auto& a : spec.fixed)
        j["set"][a.key] = a.value;
    j["columns"] = spec.columns;
    nlohmann::ordered_json units = nlohmann::ordered_json::object();
    const std::vector<std::string> metrics = metric_columns(spec);
    for (const auto& m : metrics)
        units[m] = metric_unit(m);
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
    line_plot plot;
    const std::string xkey = spec.columns.front();

    // x positions in order of first appearance; numeric when every value is a number with the
    // same unit (12MHz, 24MHz, ...), else evenly spaced categories (false, true).
    std::vector<std::string> xs;
    for (const auto& p : spec.points) {
        const std::string v = setting(p, xkey);
        if (std::find(xs.begin(), xs.end(), v) == xs.end())
            xs.push_back(v);
    }
    // Kernel versions are no decimals (6.6 comes before 6.12): always categories.
    bool numeric = xkey != "driver.kernel";
    std::string unit;
    std::vector<double> xv;
    for (size_t i = 0; numeric && i < xs.size(); ++i) {
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
    // The y axis in the prefix its largest value reads best in (0.0123 W as 12.3 mW).
    double largest = 0;
    for (const auto& ser : plot.series)
        for (const auto& v : ser.y)
            if (v)
                largest = std::max(largest, std::fabs(*v));
    const std::string y_unit = metric_unit(metric);
    const unit_scale sc = scale_for(y_unit, largest);
    std::string label = metric_label(metric);
    const std::string suffix = "(" + y_unit + ")";
    if (sc.factor != 1) {
        for (auto& ser : plot.series)
            for (auto& v : ser.y)
                if (v)
                    *v /= sc.factor;
        if (label.size() >= suffix.size() &&
            label.compare(label.size() - suffix.size(), suffix.size(), suffix) == 0)
            label = label.substr(0, label.size() - suffix.size()) + "(" + sc.unit + ")";
    }
    plot.y_label = label;
    plot.title = label + " vs " + xkey + " (" + spec.stem + ")";
    return render_svg(plot);
}

namespace {

// The A/B layout of a sweep with `compare:`: the compared column's values in order of first
// appearance, and one group per combination of the other columns, each mapping a compared
// value to its point.
struct ab_layout {
    std::vector<std::string> values;
    std::vector<std::string> others; // the other columns
    struct group {
        std::vector<std::string> settings; // values of `others`
        std::map<std::string, size_t> point_of;
    };
    std::vector<group> groups;
};

ab_layout ab_layout_of(const sweep_spec& spec) {
    ab_layout l;
    for (const auto& c : spec.columns)
        if (c != spec.compare)
            l.others.push_back(c);
    for (size_t i = 0; i < spec.points.size(); ++i) {
        const point& p = spec.points[i];
        const std::string v = setting(p, spec.compare);
        if (v.empty())
            continue; // a point without the column (points: form) has nothing to compare
        if (std::find(l.values.begin(), l.values.end(), v) == l.values.end())
            l.values.push_back(v);
        std::vector<std::string> key;
        for (const auto& c : l.others)
            key.push_back(setting(p, c));
        auto g = std::find_if(l.groups.begin(), l.groups.end(),
                              [&](const ab_layout::group& x) { return x.settings == key; });
        if (g == l.groups.end()) {
            l.groups.push_back({key, {}});
            g = l.groups.end() - 1;
        }
        g->point_of.emplace(v, i);
    }
    return l;
}

// Column names of the deltas: "delta" with two compared values, "delta_<value>" with more.
std::string delta_name(const ab_layout& l, const std::string& stem, const std::string& v) {
    return l.values.size() == 2 ? stem : stem + "_" + v;
}

std::optional<double> ab_value(const ab_layout::group& g, const std::string& v,
                               const std::vector<point_outcome>& outcomes,
                               const std::string& metric) {
    const auto it = g.point_of.find(v);
    if (it == g.point_of.end())
        return std::nullopt;
    return value_of(outcomes[it->second], metric);
}

// Markdown number: integers as integers, else 5 significant digits; `decimals` gets the
// number of decimals used (so a difference can be shown as precisely as its operands).
std::string md_number(double v, int* decimals = nullptr) {
    int dec = 0;
    if (v != std::floor(v) || std::fabs(v) >= 1e15) {
        const int mag = static_cast<int>(std::floor(std::log10(std::fabs(v))));
        dec = std::clamp(4 - mag, 0, 9);
    }
    if (decimals)
        *decimals = dec;
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", dec, v);
    return b;
}

} // namespace

std::string compare_csv(const sweep_spec& spec, const std::vector<point_outcome>& outcomes) {
    const ab_layout l = ab_layout_of(spec);
    const std::vector<setting_column> others = setting_columns(spec, l.others);
    std::string o;
    for (const auto& c : others)
        o += c.header() + ",";
    o += "metric";
    for (size_t k = 0; k < l.values.size(); ++k) {
        o += "," + csv_field(l.values[k]);
        if (k > 0)
            o += "," + csv_field(delta_name(l, "delta", l.values[k])) + "," +
                 csv_field(delta_name(l, "delta_pct", l.values[k]));
    }
    o += "\n";
    for (const auto& g : l.groups)
        for (const auto& m : spec.metrics) {
            // Every point of the group has the same other settings.
            for (const auto& c : others)
                o += c.cell(spec.points[g.point_of.begin()->second]) + ",";
            o += m;
            const auto a = ab_value(g, l.values.front(), outcomes, m);
            for (size_t k = 0; k < l.values.size(); ++k) {
                const auto b = ab_value(g, l.values[k], outcomes, m);
                o += "," + (b ? number(*b) : std::string());
                if (k == 0)
                    continue;
                o += "," + (a && b ? number(*b - *a) : std::string());
                o += "," + (a && b && *a != 0 ? number((*b - *a) / *a * 100.0) : std::string());
            }
            o += "\n";
        }
    return o;
}

std::string compare_md(const sweep_spec& spec, const std::vector<point_outcome>& outcomes) {
    const ab_layout l = ab_layout_of(spec);
    const std::string& ref = l.values.front();
    std::string o = "# " + spec.stem + ": `" + spec.compare + "`";
    for (size_t k = 1; k < l.values.size(); ++k)
        o += (k == 1 ? " " : ", ") + l.values[k];
    o += " against " + ref + "\n\n";
    o += "Each point against the point with `" + spec.compare + "` " + ref +
         " and the same other settings: Δ is the difference, Δ % relative to " + ref +
         ". Values from `results.csv` (integers exact, others to 5 significant digits); – where "
         "a point failed or has no value.\n\n";
    std::string head = "|", rule = "|";
    for (const auto& c : l.others) {
        head += " " + c + " |";
        rule += "---|";
    }
    head += " metric |";
    rule += "---|";
    for (size_t k = 0; k < l.values.size(); ++k) {
        head += " " + l.values[k] + " |";
        rule += "---:|";
        if (k > 0) {
            const std::string sfx = l.values.size() == 2 ? "" : " " + l.values[k];
            head += " Δ" + sfx + " | Δ %" + sfx + " |";
            rule += "---:|---:|";
        }
    }
    o += head + "\n" + rule + "\n";
    for (const auto& g : l.groups)
        for (const auto& m : spec.metrics) {
            std::string row = "|";
            for (const auto& v : g.settings)
                row += " " + v + " |";
            row += " " + metric_label(m) + " |";
            const auto a = ab_value(g, ref, outcomes, m);
            int da = 0;
            if (a)
                md_number(*a, &da);
            for (size_t k = 0; k < l.values.size(); ++k) {
                const auto b = ab_value(g, l.values[k], outcomes, m);
                int db = 0;
                row += " " + (b ? md_number(*b, &db) : std::string("–")) + " |";
                if (k == 0)
                    continue;
                std::string d = "–", pct = "–";
                if (a && b) {
                    char buf[64];
                    const double diff = *b - *a;
                    std::snprintf(buf, sizeof buf, "%+.*f", std::max(da, db), diff);
                    d = diff == 0 ? "0" : buf;
                    if (*a != 0) {
                        std::snprintf(buf, sizeof buf, "%+.2f %%", diff / *a * 100.0);
                        pct = diff == 0 ? "0 %" : buf;
                    }
                }
                row += " " + d + " | " + pct + " |";
            }
            o += row + "\n";
        }
    return o;
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

std::string plot_file_name(const std::string& metric) {
    std::string name = "plot-";
    for (char c : metric)
        name += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'
                    ? c
                    : '_';
    return name + ".svg";
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
    if (!spec.compare.empty()) {
        for (const auto& [name, text] : {std::pair{"compare.csv", compare_csv(spec, outcomes)},
                                         std::pair{"compare.md", compare_md(spec, outcomes)}}) {
            const std::string f = (fs::path(dir) / name).string();
            write_file_atomic(f, text);
            written.push_back(f);
        }
    }
    for (const auto& m : spec.metrics) {
        const std::string svg = (fs::path(dir) / plot_file_name(m)).string();
        write_file_atomic(svg, metric_plot_svg(spec, outcomes, m));
        written.push_back(svg);
    }
    return written;
}

} // namespace nicsim::sweep
