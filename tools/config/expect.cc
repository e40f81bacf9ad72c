// SPDX-License-Identifier: MIT
#include "tools/config/expect.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/config/units.h"
#include "tools/report/json_writer.h"
#include "core/report/report.h"

namespace nicsim::config {
namespace {

using json = nlohmann::json;

bool is_severity(const std::string& s) {
    return s == "info" || s == "warning" || s == "error" || s == "benign";
}

// A report with every optional part present, so the writer emits every key it has.
report::report sample_report() {
    report::report r;
    r.sim_time_s = 1;
    report::flow_report f;
    f.rtt = report::rtt_report{};
    f.packets_sent = 1;
    f.packets_received = 1;
    f.last_progress_s = 1;
    f.frames = 1;
    f.udp = report::udp_report{};
    r.flows.push_back(f);
    report::device_report d;
    d.frames_tx = 1;
    d.irqs = 1;
    d.tx_batches = 1;
    d.tcp_ack_filter = true;
    d.meters.push_back({"meter", 1, {{}}});
    d.bus_commands = {{"cmd52", 1}, {"cmd53", 1}};
    // The WILC1000's parts: the station, its 802.11 power save, the wake distribution.
    d.association = report::association_part{};
    d.association->associated_at_s = 1;
    d.power_save = report::power_save_part{};
    d.wake = report::wake_part{};
    d.wake->asleep_us = {{}};
    d.wake->clk_status_polls = {{}};
    r.devices.push_back(d);
    r.findings.push_back({});
    report::fault_report fault;
    fault.unit = "unit";
    fault.opportunities = 1;
    fault.first_s = fault.last_s = 1;
    fault.effects = {{"effect", 1}};
    fault.driver_lines = {{"line", 1}};
    r.faults.push_back(fault);
    return r;
}

enum class leaf { number, text, boolean };

// Leaf path (indices as "[]") → its JSON type.
void collect(const json& j, const std::string& path, std::map<std::string, leaf>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            collect(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
    } else if (j.is_array()) {
        if (!j.empty())
            collect(j.front(), path + "[]", out);
    } else {
        out[path] = j.is_string() ? leaf::text : j.is_boolean() ? leaf::boolean : leaf::number;
    }
}

const std::map<std::string, leaf>& field_types() {
    static const std::map<std::string, leaf> types = [] {
        std::map<std::string, leaf> m;
        collect(json::parse(report::write_json(sample_report())), "", m);
        return m;
    }();
    return types;
}

struct segment {
    std::string name;
    bool indexed = false;
    std::string index; // digits or an element's name/state
};

std::vector<segment> split_path(const std::string& path) {
    std::vector<segment> out;
    size_t i = 0;
    const auto bad = [&](const std::string& why) {
        throw value_error("malformed report path '" + path + "': " + why);
    };
    while (true) {
        segment s;
        while (i < path.size() &&
               (std::isalnum(static_cast<unsigned char>(path[i])) || path[i] == '_'))
            s.name += path[i++];
        if (s.name.empty())
            bad("expected a key name at column " + std::to_string(i + 1));
        if (i < path.size() && path[i] == '[') {
            const size_t close = path.find(']', i);
            if (close == std::string::npos || close == i + 1)
                bad("expected an index or a name inside [ ]");
            s.indexed = true;
            s.index = path.substr(i + 1, close - i - 1);
            i = close + 1;
        }
        out.push_back(s);
        if (i == path.size())
            return out;
        if (path[i] != '.')
            bad(std::string("unexpected '") + path[i] + "'");
        ++i;
    }
}

std::string normalized(const std::vector<segment>& segs) {
    std::string p;
    for (const auto& s : segs)
        p += (p.empty() ? "" : ".") + s.name + (s.indexed ? "[]" : "");
    return p;
}

std::string joined(const std::vector<segment>& segs) {
    std::string p;
    for (const auto& s : segs)
        p += (p.empty() ? "" : ".") + s.name + (s.indexed ? "[" + s.index + "]" : "");
    return p;
}

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

// The closest field (full path or its last key) to what was written, or "".
std::string closest_field(const std::string& written) {
    std::string best;
    size_t best_d = 3;
    for (const auto& [f, type] : field_types()) {
        (void)type;
        const auto dot = f.find_last_of('.');
        const std::string last = dot == std::string::npos ? f : f.substr(dot + 1);
        for (const std::string& cand : {f, last}) {
            const size_t d = edit_distance(written, cand);
            if (d < best_d) {
                best_d = d;
                best = cand;
            }
        }
    }
    return best;
}

bool is_prefix_of_field(const std::string& norm) {
    for (const auto& [f, type] : field_types()) {
        (void)type;
        if (f.size() > norm.size() && f.compare(0, norm.size(), norm) == 0 &&
            (f[norm.size()] == '.' || f[norm.size()] == '['))
            return true;
    }
    return false;
}

// findings[.SOURCE][.SEVERITY], a count: SOURCE must be one the run can report under (the
// device's chip or report::finding_sources()) and SEVERITY a severity, because a misspelt one
// (`findings.errors`, `findings.drvier.error`) would count nothing and `== 0` would always pass.
std::string resolve_findings(const std::string& path, const std::string& device_type) {
    std::vector<std::string> sources;
    if (!device_type.empty())
        sources.push_back(device_type);
    for (const auto& s : report::finding_sources())
        sources.push_back(s);
    std::vector<std::string> valid = {"findings"};
    for (const char* sev : {"info", "warning", "error", "benign"})
        valid.push_back(std::string("findings.") + sev);
    for (const auto& src : sources) {
        valid.push_back("findings." + src);
        for (const char* sev : {"info", "warning", "error", "benign"})
            valid.push_back("findings." + src + "." + sev);
    }
    if (std::find(valid.begin(), valid.end(), path) != valid.end())
        return path;
    std::string nearest;
    size_t best = SIZE_MAX;
    for (const auto& v : valid)
        if (const size_t d = edit_distance(path, v); d < best) {
            best = d;
            nearest = v;
        }
    std::string list;
    for (const auto& src : sources)
        list += (list.empty() ? "" : ", ") + src;
    throw value_error(
        "unknown findings key '" + path + "'; did you mean '" + nearest +
        "'? (findings[.SOURCE][.SEVERITY]: SOURCE one of " + list +
        (device_type.empty() ? std::string() : " (this scenario's device is " + device_type + ")") +
        ", SEVERITY one of info, warning, error, benign)");
}

// Resolves the written path to a report path; throws value_error when it names no value.
std::string resolve(const std::string& path, const std::string& device_type, leaf& type) {
    if (path == "exit_code") {
        type = leaf::number;
        return path;
    }
    if (path == "findings" || path.rfind("findings.", 0) == 0) {
        type = leaf::number;
        return resolve_findings(path, device_type);
    }
    const auto segs = split_path(path);
    const auto& types = field_types();
    std::vector<std::vector<segment>> tries = {segs};
    std::set<std::string> top;
    for (const auto& [f, t] : types) {
        (void)t;
        top.insert(f.substr(0, f.find_first_of(".[")));
    }
    if (!top.count(segs.front().name))
        for (const char* scope : {"totals", "devices[0]", "flows[0]"}) {
            auto s = split_path(scope);
            s.insert(s.end(), segs.begin(), segs.end());
            tries.push_back(s);
        }
    for (const auto& t : tries) {
        const std::string norm = normalized(t);
        if (const auto it = types.find(norm); it != types.end()) {
            type = it->second;
            return joined(t);
        }
    }
    // Say what is wrong with the direct reading.
    const std::string norm = normalized(segs);
    for (size_t n = 1; n <= segs.size(); ++n) {
        std::vector<segment> head(segs.begin(), segs.begin() + static_cast<long>(n));
        const std::string h = normalized(head);
        auto bare = head;
        bare.back().indexed = !bare.back().indexed;
        if (!types.count(h) && !is_prefix_of_field(h) &&
            (types.count(normalized(bare)) || is_prefix_of_field(normalized(bare)))) {
            if (segs[n - 1].indexed)
                throw value_error("'" + joined(head) + "': " + segs[n - 1].name + " is not a list");
            throw value_error("'" + joined(head) + "' is a list: give an index or a name, e.g. " +
                              segs[n - 1].name + "[0]");
        }
    }
    if (is_prefix_of_field(norm))
        throw value_error("'" + path + "' is a group of report keys, not a value (e.g. " + [&] {
            for (const auto& [f, t] : types) {
                (void)t;
                if (f.rfind(norm, 0) == 0)
                    return f;
            }
            return std::string();
        }() + ")");
    const std::string hint = closest_field(segs.back().name);
    throw value_error("unknown report key '" + path + "'" +
                      (hint.empty() ? std::string() : "; did you mean '" + hint + "'?") +
                      " (keys: docs/report-schema.md)");
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

bool plain_number(const std::string& s, double& v) {
    if (s.empty())
        return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && std::isfinite(v) &&
           s.find_first_of("xXnN") == std::string::npos; // no hex, inf, nan
}

std::string last_key(const std::string& resolved) {
    const auto dot = resolved.find_last_of('.');
    std::string k = dot == std::string::npos ? resolved : resolved.substr(dot + 1);
    return k.substr(0, k.find('['));
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A number in the report unit of the key, from a plain number or a quantity with a unit.
double parse_number_value(const std::string& text, const std::string& resolved) {
    double v = 0;
    if (plain_number(text, v))
        return v;
    const std::string key = last_key(resolved);
    const bool rtt = resolved.find("rtt_ms.") != std::string::npos;
    try {
        if (!text.empty() && text.back() == '%' && (key == "busy_share" || key == "utilisation")) {
            const std::string n = trim(text.substr(0, text.size() - 1));
            if (plain_number(n, v))
                return v / 100.0;
        }
        if (rtt)
            return static_cast<double>(parse_duration(text).ps) * 1e-9;
        if (ends_with(key, "_bps"))
            return parse_bit_rate(text).bps;
        if (ends_with(key, "_s"))
            return parse_duration(text).seconds();
        if (ends_with(key, "_hz"))
            return parse_frequency(text).hz;
        if (ends_with(key, "_a"))
            return parse_current(text).amperes;
        if (ends_with(key, "_v"))
            return parse_voltage(text).volts;
        if (key == "bytes")
            return static_cast<double>(parse_byte_size(text).bytes);
    } catch (const value_error& e) {
        throw value_error(resolved + " takes " +
                          std::string(rtt                      ? "a duration (ms if bare)"
                                      : ends_with(key, "_bps") ? "a bit rate"
                                      : ends_with(key, "_s")   ? "a duration (s if bare)"
                                      : ends_with(key, "_hz")  ? "a frequency"
                                      : ends_with(key, "_a")   ? "a current"
                                      : ends_with(key, "_v")   ? "a voltage"
                                      : key == "bytes"         ? "a size"
                                                               : "a percentage") +
                          ": " + e.what() + ", got '" + text + "'");
    }
    throw value_error(resolved + " takes a plain number (no unit), got '" + text + "'");
}

bool parse_op(const std::string& s, size_t at, expect_op& op, size_t& len) {
    static const std::pair<const char*, expect_op> ops[] = {
        {"==", expect_op::eq}, {"!=", expect_op::ne}, {"<=", expect_op::le},
        {">=", expect_op::ge}, {"<", expect_op::lt},  {">", expect_op::gt}};
    for (const auto& [text, o] : ops)
        if (s.compare(at, std::char_traits<char>::length(text), text) == 0) {
            op = o;
            len = std::char_traits<char>::length(text);
            return true;
        }
    return false;
}

std::string dump(const json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// The value at a resolved path, or null with why in `absent`.
const json* lookup(const json& report, const std::string& resolved, std::string& absent) {
    const json* cur = &report;
    std::string so_far;
    for (const auto& s : split_path(resolved)) {
        so_far += (so_far.empty() ? "" : ".") + s.name;
        if (!cur->is_object() || !cur->contains(s.name)) {
            absent = "absent: the report has no " + so_far;
            return nullptr;
        }
        cur = &(*cur)[s.name];
        if (!s.indexed)
            continue;
        so_far += "[" + s.index + "]";
        if (!cur->is_array()) {
            absent = "absent: " + so_far + " is not a list";
            return nullptr;
        }
        double idx = 0;
        const json* found = nullptr;
        if (plain_number(s.index, idx)) {
            if (idx >= 0 && idx < static_cast<double>(cur->size()))
                found = &(*cur)[static_cast<size_t>(idx)];
        } else {
            for (const auto& el : *cur)
                for (const char* k : {"name", "state", "kind", "effect"})
                    if (!found && el.is_object() && el.contains(k) && el[k].is_string() &&
                        el[k].get<std::string>() == s.index)
                        found = &el;
        }
        if (!found) {
            absent = "absent: no " + so_far + " (" + std::to_string(cur->size()) +
                     (cur->size() == 1 ? " element)" : " elements)");
            return nullptr;
        }
        cur = found;
    }
    return cur;
}

template <class T> bool compare(expect_op op, const T& a, const T& b) {
    switch (op) {
    case expect_op::eq:
        return a == b;
    case expect_op::ne:
        return a != b;
    case expect_op::lt:
        return a < b;
    case expect_op::le:
        return a <= b;
    case expect_op::gt:
        return a > b;
    case expect_op::ge:
        return a >= b;
    }
    return false;
}

} // namespace

const char* to_string(expect_op op) {
    switch (op) {
    case expect_op::eq:
        return "==";
    case expect_op::ne:
        return "!=";
    case expect_op::lt:
        return "<";
    case expect_op::le:
        return "<=";
    case expect_op::gt:
        return ">";
    case expect_op::ge:
        return ">=";
    }
    return "?";
}

const std::vector<std::string>& report_fields() {
    static const std::vector<std::string> fields = [] {
        std::vector<std::string> v;
        for (const auto& [f, t] : field_types()) {
            (void)t;
            v.push_back(f);
        }
        return v;
    }();
    return fields;
}

std::string resolve_number_key(const std::string& path) {
    if (path == "exit_code" || path == "findings" || path.rfind("findings.", 0) == 0)
        throw value_error("'" + path + "' is no report key (only `expect:` has it)");
    leaf type = leaf::number;
    const std::string resolved = resolve(path, "", type);
    if (type != leaf::number)
        throw value_error("'" + path + "' (" + resolved + ") is " +
                          (type == leaf::text ? "text" : "true or false") + ", not a number");
    return resolved;
}

std::optional<double> number_at(const json& report, const std::string& resolved) {
    std::string absent;
    const json* v = lookup(report, resolved, absent);
    if (!v || !v->is_number())
        return std::nullopt;
    return v->get<double>();
}

expectation parse_expectation(const std::string& text, const std::string& device_type) {
    expectation e;
    e.text = text;
    const std::string s = trim(text);
    size_t i = 0;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) ||
                            std::string("_.[]-").find(s[i]) != std::string::npos))
        ++i;
    e.path = trim(s.substr(0, i));
    if (e.path.empty())
        throw value_error("expected 'KEY OP VALUE' (e.g. 'goodput_bps >= 1.2Mbps', "
                          "'findings.error == 0'), got '" +
                          text + "'");
    while (i < s.size() && s[i] == ' ')
        ++i;
    size_t len = 0;
    if (!parse_op(s, i, e.op, len))
        throw value_error("expected a comparison (== != < <= > >=) after '" + e.path + "', got '" +
                          text + "'");
    std::string value = trim(s.substr(i + len));
    for (const std::string tol : {"±", "+-"}) {
        const auto at = value.find(tol);
        if (at == std::string::npos)
            continue;
        if (e.op != expect_op::eq)
            throw value_error("a tolerance (± N %) needs '==', got '" + text + "'");
        std::string pct = trim(value.substr(at + tol.size()));
        if (pct.empty() || pct.back() != '%' ||
            !plain_number(trim(pct.substr(0, pct.size() - 1)), e.tolerance_pct) ||
            e.tolerance_pct < 0)
            throw value_error("expected a tolerance in percent after '" + tol +
                              "' (e.g. ± 5%), got '" + text + "'");
        value = trim(value.substr(0, at));
    }
    if (value.empty())
        throw value_error("expected a value after '" + std::string(to_string(e.op)) + "', got '" +
                          text + "'");

    leaf type = leaf::number;
    e.resolved = resolve(e.path, device_type, type);
    const bool order = e.op != expect_op::eq && e.op != expect_op::ne;
    switch (type) {
    case leaf::number:
        e.kind = expectation::value_kind::number;
        e.number = parse_number_value(value, e.resolved);
        break;
    case leaf::boolean:
        if (order)
            throw value_error(e.resolved + " is true or false: compare it with == or !=");
        if (value != "true" && value != "false")
            throw value_error(e.resolved + " is true or false, got '" + value + "'");
        e.kind = expectation::value_kind::boolean;
        e.bool_value = value == "true";
        break;
    case leaf::text:
        if (order)
            throw value_error(e.resolved + " is text: compare it with == or !=");
        if (e.tolerance_pct >= 0)
            throw value_error(e.resolved + " is text: a tolerance needs a number");
        if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
            value.back() == value.front())
            value = value.substr(1, value.size() - 2);
        e.kind = expectation::value_kind::text;
        e.text_value = value;
        break;
    }
    return e;
}

expect_result evaluate(const expectation& e, const json& report, int exit_code) {
    expect_result r;
    double actual = 0;
    if (e.resolved == "exit_code") {
        actual = exit_code;
        r.actual = std::to_string(exit_code);
    } else if (report.is_null()) {
        r.actual = "absent: the run wrote no report (exit code " + std::to_string(exit_code) + ")";
        return r;
    } else if (e.resolved == "findings" || e.resolved.rfind("findings.", 0) == 0) {
        std::string source = e.resolved == "findings" ? "" : e.resolved.substr(9);
        std::string severity;
        const auto dot = source.find_last_of('.');
        const std::string tail = dot == std::string::npos ? source : source.substr(dot + 1);
        if (is_severity(tail)) {
            severity = tail;
            source = dot == std::string::npos ? "" : source.substr(0, dot);
        }
        std::uint64_t n = 0;
        if (report.contains("findings") && report["findings"].is_array())
            for (const auto& f : report["findings"]) {
                const std::string src = f.value("source", "");
                const bool src_ok =
                    source.empty() || src == source ||
                    (src.size() > source.size() && src.compare(0, source.size(), source) == 0 &&
                     src[source.size()] == '.');
                if (src_ok && (severity.empty() || f.value("severity", "") == severity))
                    ++n;
            }
        actual = static_cast<double>(n);
        r.actual = std::to_string(n);
    } else {
        std::string absent;
        const json* v = lookup(report, e.resolved, absent);
        if (!v) {
            r.actual = absent;
            return r;
        }
        r.actual = dump(*v);
        if (v->is_null())
            return r;
        switch (e.kind) {
        case expectation::value_kind::text:
            r.pass = v->is_string() && compare(e.op, v->get<std::string>(), e.text_value);
            return r;
        case expectation::value_kind::boolean:
            r.pass = v->is_boolean() && compare(e.op, v->get<bool>(), e.bool_value);
            return r;
        case expectation::value_kind::number:
            if (!v->is_number())
                return r;
            actual = v->get<double>();
            break;
        }
    }
    if (e.tolerance_pct >= 0)
        r.pass = std::fabs(actual - e.number) <= e.tolerance_pct / 100.0 * std::fabs(e.number);
    else
        r.pass = compare(e.op, actual, e.number);
    return r;
}

bool mentions_exit_code(const std::vector<expectation>& list) {
    return std::any_of(list.begin(), list.end(),
                       [](const expectation& e) { return e.resolved == "exit_code"; });
}

} // namespace nicsim::config
