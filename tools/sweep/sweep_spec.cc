// SPDX-License-Identifier: MIT
#include "tools/sweep/sweep_spec.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <unordered_map>

#include "tools/config/config_loader.h"
#include "tools/config/yaml_reader.h"
#include "sim/runner.h"
#include "tools/sweep/metrics.h"

namespace nicsim::sweep {
namespace fs = std::filesystem;
using config::config_error;

namespace {

std::string position(const std::string& file, const YAML::Mark& m) {
    if (m.is_null())
        return file;
    return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

// A value as --set takes it: scalars verbatim, mappings/lists as one-line flow YAML.
std::string value_text(const YAML::Node& n) {
    if (n.IsScalar())
        return n.Scalar();
    YAML::Emitter e;
    e.SetMapFormat(YAML::Flow);
    e.SetSeqFormat(YAML::Flow);
    e << n;
    return e.c_str();
}

// A dotted scenario key path: non-empty parts of letters, digits and '_'.
bool valid_key_path(const std::string& k) {
    if (k.empty() || k.front() == '.' || k.back() == '.')
        return false;
    char prev = 0;
    for (char c : k) {
        const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
        if (!ok || (c == '.' && prev == '.'))
            return false;
        prev = c;
    }
    return true;
}

void check_key(const std::string& where, const std::string& key) {
    if (!valid_key_path(key))
        throw config_error(where + ": '" + key +
                           "' is not a scenario key path (dotted names, e.g. driver.power_save)");
}

// A value becomes one argument of a command line, and `--emit-commands` prints one command per
// line for a shell, GNU Parallel or sbatch: a newline (or any control character) would end the
// command there and run the rest of the value as a command of its own.
void check_value(const std::string& where, const std::string& key, const std::string& value) {
    for (const char c : value)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            char code[8];
            std::snprintf(code, sizeof code, "0x%02x", static_cast<unsigned char>(c));
            throw config_error(where + ": '" + key +
                               "': the value contains the control "
                               "character " +
                               code +
                               " (a newline, tab, ...), which a sweep value may not (it "
                               "becomes one argument of a command line)");
        }
}

// Readable part of an id: the last key component and the value, reduced to [A-Za-z0-9._-].
std::string slug(const std::vector<assignment>& settings) {
    std::string s;
    for (const auto& a : settings) {
        const auto dot = a.key.rfind('.');
        // A base setting's value is the scenario's name: it stands alone.
        std::string part =
            a.key == k_base_key
                ? a.value
                : (dot == std::string::npos ? a.key : a.key.substr(dot + 1)) + "-" + a.value;
        std::string clean;
        for (char c : part) {
            const bool ok =
                std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
            clean += ok ? c : '_';
        }
        if (!s.empty())
            s += "_";
        s += clean;
    }
    if (s.size() > 80)
        s.resize(80);
    return s.empty() ? "base" : s;
}

// FNV-1a, 64 bit: a stable hash with no dependency (std::hash is not stable across builds).
std::uint64_t fnv1a(const std::string& s) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

// A scenario file named in the sweep file, relative to it (or absolute), normalised.
std::string scenario_path(const std::string& file, const std::string& written) {
    fs::path p = fs::path(written);
    if (p.is_relative())
        p = fs::absolute(fs::path(file)).parent_path() / p;
    return p.lexically_normal().string();
}

// A base value (axis `key: base` or a point's `base:`): the file must exist; the setting shows
// its stem, which must name one file only (two files of one name would share ids and columns).
struct base_value {
    std::string written, path, stem;
};
base_value read_base_value(const std::string& file, const YAML::Node& v,
                           std::vector<base_value>& seen) {
    if (!v.IsScalar() || v.Scalar().empty())
        throw config_error(position(file, v.Mark()) +
                           ": base: expected a scenario file (relative to the sweep file)");
    base_value b{v.Scalar(), scenario_path(file, v.Scalar()), ""};
    if (!fs::is_regular_file(b.path))
        throw config_error(position(file, v.Mark()) + ": base: base scenario '" + b.path +
                           "' does not exist");
    b.stem = fs::path(b.path).stem().string();
    for (const auto& o : seen)
        if (o.stem == b.stem && o.path != b.path)
            throw config_error(position(file, v.Mark()) + ": base: '" + b.written + "' and '" +
                               o.written + "' are both named '" + b.stem +
                               "' (a base column shows the file name without extension)");
    seen.push_back(b);
    return b;
}

std::vector<assignment> read_set(config::yaml_reader& r, const YAML::Node& root,
                                 const std::string& file) {
    std::vector<assignment> out;
    auto set = r.optional_child("set");
    if (!set)
        return out;
    // yaml_reader validated that `set` is a mapping; walk the raw node for values of any kind.
    for (auto it = root["set"].begin(); it != root["set"].end(); ++it) {
        const std::string key = it->first.Scalar();
        check_key(position(file, it->first.Mark()), key);
        out.push_back({key, value_text(it->second)});
        check_value(position(file, it->second.Mark()), key, out.back().value);
    }
    return out;
}

} // namespace

std::string point_id(const std::string& base_as_written, const std::vector<assignment>& fixed,
                     const std::vector<assignment>& settings) {
    std::string canon = "base=" + base_as_written + "\n";
    for (const auto& a : fixed)
        canon += "set " + a.text() + "\n";
    for (const auto& a : settings)
        if (a.key != k_base_key) // the base as written is in the first line
            canon += "point " + a.text() + "\n";
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a(canon)));
    return slug(settings) + "-" + std::string(hex, 10);
}

sweep_spec load_sweep_spec(const std::string& file, const std::function<void(size_t)>& on_size) {
    sweep_spec s;
    s.file = file;
    s.stem = fs::path(file).stem().string();
    const YAML::Node root = config::load_yaml_file(file);
    auto src = std::make_shared<config::yaml_source>();
    src->file = file;
    config::yaml_reader r(root, "", "sweep file", src);

    // `base:` may be left out when every point names its own (a base axis, `base:` in points).
    s.base_as_written = r.optional<std::string>("base", "");
    if (r.has("base")) {
        check_value(position(file, root["base"].Mark()), "base", s.base_as_written);
        s.base = scenario_path(file, s.base_as_written);
        if (!fs::is_regular_file(s.base))
            r.fail("base", "base scenario '" + s.base + "' does not exist");
    }
    std::vector<base_value> bases; // every base value, for the stem check
    std::map<std::string, base_value> base_of_stem;

    s.fixed = read_set(r, root, file);

    const bool has_axes = r.has("axes");
    const bool has_points = r.has("points");
    if (has_axes == has_points)
        r.fail(has_axes ? "points" : "axes",
               "a sweep file needs exactly one of 'axes' (a grid) or 'points' (a list)");

    if (has_axes) {
        const YAML::Node axes = root["axes"];
        if (!axes.IsSequence() || axes.size() == 0)
            throw config_error(position(file, axes.Mark()) +
                               ": axes: expected a non-empty list of {key, values}");
        for (const auto& a : axes) {
            config::yaml_reader ar(a, "axes[]", "axis", src);
            axis ax;
            ax.where = position(file, a.Mark());
            ax.key = ar.required<std::string>("key");
            check_key(ax.where, ax.key);
            if (!ar.has("values"))
                ar.fail("values", "missing required key 'values' in axis '" + ax.key + "'");
            const YAML::Node vals = a["values"];
            if (!vals.IsSequence() || vals.size() == 0)
                throw config_error(position(file, vals.Mark()) + ": axis '" + ax.key +
                                   "': values: expected a non-empty list");
            for (const auto& v : vals) {
                std::string t = value_text(v);
                check_value(position(file, v.Mark()), ax.key, t);
                if (ax.key == k_base_key) { // the column shows the scenario's name
                    const base_value b = read_base_value(file, v, bases);
                    base_of_stem[b.stem] = b;
                    t = b.stem;
                }
                for (const auto& seen : ax.values)
                    if (seen == t)
                        throw config_error(position(file, v.Mark()) + ": axis '" + ax.key +
                                           "': value '" + t + "' appears twice");
                ax.values.push_back(t);
            }
            ar.reject_unknown_keys();
            for (const auto& other : s.axes)
                if (other.key == ax.key)
                    throw config_error(ax.where + ": axis '" + ax.key +
                                       "' appears twice (first at " + other.where + ")");
            if (ax.key == k_base_key && !s.base.empty())
                throw config_error(ax.where + ": axis 'base' gives every point its scenario: "
                                              "the sweep file's 'base:' would not be used "
                                              "(remove one of them)");
            s.axes.push_back(ax);
            s.columns.push_back(ax.key);
        }
        // Cartesian product, first axis outermost.
        size_t total = 1;
        for (const auto& ax : s.axes) {
            if (total > k_max_points / ax.values.size())
                throw config_error(ax.where + ": the grid has more than " +
                                   std::to_string(k_max_points) + " points (axis '" + ax.key +
                                   "' multiplies it by " + std::to_string(ax.values.size()) +
                                   ")");
            total *= ax.values.size();
        }
        if (on_size)
            on_size(total);
        s.points.reserve(total);
        for (size_t n = 0; n < total; ++n) {
            point p;
            p.index = n;
            size_t rest = n;
            std::vector<size_t> idx(s.axes.size());
            for (size_t i = s.axes.size(); i-- > 0;) {
                idx[i] = rest % s.axes[i].values.size();
                rest /= s.axes[i].values.size();
            }
            p.settings.reserve(s.axes.size());
            for (size_t i = 0; i < s.axes.size(); ++i)
                p.settings.push_back({s.axes[i].key, s.axes[i].values[idx[i]]});
            p.where = s.axes.front().where;
            s.points.push_back(std::move(p));
        }
    } else {
        const YAML::Node pts = root["points"];
        if (!pts.IsSequence() || pts.size() == 0)
            throw config_error(position(file, pts.Mark()) +
                               ": points: expected a non-empty list of mappings key: value");
        for (const auto& pn : pts) {
            if (!pn.IsMap() || pn.size() == 0)
                throw config_error(position(file, pn.Mark()) +
                                   ": points: each point is a non-empty mapping key: value");
            point p;
            p.index = s.points.size();
            p.where = position(file, pn.Mark());
            for (auto it = pn.begin(); it != pn.end(); ++it) {
                const std::string key = it->first.Scalar();
                check_key(position(file, it->first.Mark()), key);
                std::string value = value_text(it->second);
                check_value(position(file, it->second.Mark()), key, value);
                if (key == k_base_key) {
                    const base_value b = read_base_value(file, it->second, bases);
                    base_of_stem[b.stem] = b;
                    value = b.stem;
                }
                p.settings.push_back({key, value});
                bool known = false;
                for (const auto& c : s.columns)
                    known = known || c == key;
                if (!known)
                    s.columns.push_back(key);
            }
            s.points.push_back(p);
        }
        if (on_size)
            on_size(s.points.size());
    }

    // A metric of the table (metrics.h) or a report key naming a number, each plotted once.
    const auto add_plotted = [&](const YAML::Node& v, const char* where) {
        const std::string why = v.IsScalar() ? plottable_problem(v.Scalar())
                                              : std::string("expected a metric or report key");
        if (!why.empty())
            throw config_error(position(file, v.Mark()) + ": " + where + ": " + why);
        if (std::find(s.metrics.begin(), s.metrics.end(), v.Scalar()) == s.metrics.end())
            s.metrics.push_back(v.Scalar());
    };
    if (r.has("metrics")) {
        const YAML::Node mn = root["metrics"];
        if (!mn.IsSequence() || mn.size() == 0)
            throw config_error(position(file, mn.Mark()) +
                               ": metrics: expected a non-empty list of metric names");
        for (const auto& v : mn)
            add_plotted(v, "metrics");
    } else if (!r.has("plot")) {
        s.metrics = {"goodput_kBps", "avg_power_w"};
    }
    // plot: {y: KEY} or a list of them: one plot each, after those of metrics:.
    if (r.has("plot")) {
        const YAML::Node pn = root["plot"];
        std::vector<YAML::Node> plots;
        if (pn.IsMap())
            plots.push_back(pn);
        else if (pn.IsSequence() && pn.size() > 0)
            for (const auto& p : pn)
                plots.push_back(p);
        else
            throw config_error(position(file, pn.Mark()) +
                               ": plot: expected {y: KEY} or a non-empty list of them");
        for (const auto& p : plots) {
            if (!p.IsMap() || p.size() != 1 || !p["y"])
                throw config_error(position(file, p.Mark()) +
                                   ": plot: expected {y: KEY} (KEY: a metric or a report key, "
                                   "e.g. devices[wlan0].wakeups)");
            add_plotted(p["y"], "plot.y");
        }
    }
    if (r.has("compare")) {
        // A/B table (results.cc compare_*): a column with at least two values.
        s.compare = r.required<std::string>("compare");
        const bool is_column =
            std::find(s.columns.begin(), s.columns.end(), s.compare) != s.columns.end();
        std::vector<std::string> values;
        for (const auto& p : s.points)
            for (const auto& a : p.settings)
                if (a.key == s.compare &&
                    std::find(values.begin(), values.end(), a.value) == values.end())
                    values.push_back(a.value);
        if (!is_column || values.size() < 2)
            r.fail("compare",
                   "'" + s.compare + "' is " +
                       (is_column ? "a column with one value only" : "not a column of the sweep") +
                       " (compare needs a column with two values or more)");
    }
    if (r.has("timeout"))
        s.timeout_s = r.required<config::duration>("timeout", config::positive<config::duration>())
                          .seconds();
    r.reject_unknown_keys();

    std::unordered_map<std::string, size_t> index_of_id; // a repeated point, in O(points)
    index_of_id.reserve(s.points.size());
    for (auto& p : s.points) {
        p.base_as_written = s.base_as_written;
        p.base = s.base;
        for (const auto& a : p.settings)
            if (a.key == k_base_key) {
                p.base_as_written = base_of_stem.at(a.value).written;
                p.base = base_of_stem.at(a.value).path;
            }
        if (p.base.empty())
            throw config_error(p.where + ": point " + std::to_string(p.index + 1) +
                               " has no base scenario (give 'base:', a 'base' axis, or 'base:' "
                               "in the point)");
        p.id = point_id(p.base_as_written, s.fixed, p.settings);
        const auto [at, fresh] = index_of_id.emplace(p.id, p.index);
        if (!fresh)
            throw config_error(p.where + ": point " + std::to_string(p.index + 1) +
                               " repeats point " + std::to_string(at->second + 1));
    }
    return s;
}

std::vector<assignment> overrides_of(const sweep_spec& spec, const point& p) {
    std::vector<assignment> all = spec.fixed;
    for (const auto& a : p.settings)
        if (a.key != k_base_key)
            all.push_back(a);
    return all;
}

bool is_trace_key(const std::string& key) {
    return key.rfind("trace.", 0) == 0;
}

void check_points(sweep_spec& spec, const std::function<void(size_t, size_t)>& progress) {
    config::load_options o;
    add_known_drivers(o);
    for (auto& p : spec.points) {
        o.overrides.clear();
        std::string label;
        for (const auto& a : overrides_of(spec, p))
            o.overrides.push_back(a.text());
        for (const auto& a : p.settings)
            label += (label.empty() ? "" : ", ") + a.text();
        config::trace_config trace;
        std::map<std::string, config::plain_quantity> quantities;
        try {
            const config::override_quantity_listener listen(
                [&](const std::string& path, const config::plain_quantity& q) {
                    quantities[path] = q;
                });
            trace = config::load_scenario(p.base, o).scenario.trace;
        } catch (const config_error& e) {
            throw config_error(p.where + ": point " + std::to_string(p.index + 1) + " (" + label +
                               ") is rejected by the base scenario " + p.base + ":\n  " + e.what());
        }
        for (auto& a : p.settings) {
            const auto q = quantities.find(a.key);
            a.quantity = q == quantities.end() ? std::nullopt : std::optional(q->second);
        }
        p.traces.clear();
        for (const auto& [key, path] : trace.files()) {
            if (path.empty())
                continue;
            const std::string name = fs::path(path).filename().string();
            if (name.empty() || name == "." || name == "..")
                throw config_error(p.where + ": point " + std::to_string(p.index + 1) + " (" +
                                   label + "): " + key + " '" + path + "' names no file");
            for (const auto& other : p.traces)
                if (other.value == name)
                    throw config_error(p.where + ": point " + std::to_string(p.index + 1) + " (" +
                                       label + "): " + other.key + " and " + key +
                                       " are both named '" + name +
                                       "' (a sweep names each point's traces <id>.<file name>)");
            p.traces.push_back({key, name});
        }
        if (progress)
            progress(p.index + 1, spec.points.size());
    }
}

} // namespace nicsim::sweep
