// SPDX-License-Identifier: MIT
// `nicsim calibrate`: the inputs, checked before anything runs (calibrate.h make_plan).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "tools/calibrate/calibrate.h"
#include "sim/runner.h"
#include "tools/config/config_loader.h"
#include "tools/sweep/metrics.h"

namespace nicsim::calibrate {
namespace fs = std::filesystem;
using config::config_error;

namespace {

// The profile every measurement's scenario runs on (or --profile, applied to each of them).
std::string choose_profile(plan& p, const request& r) {
    std::string profile;
    if (!r.profile.empty()) {
        if (!fs::is_regular_file(r.profile))
            throw config_error("--profile " + r.profile + ": no such file");
        profile = fs::absolute(r.profile).lexically_normal().string();
        for (auto& c : p.checks)
            c.set.push_back({"platform.profile", profile});
    }
    for (const auto& c : p.checks) {
        config::load_options o;
        add_known_drivers(o);
        for (const auto& a : c.set)
            o.overrides.push_back(a.text());
        std::string used;
        try {
            used = fs::absolute(config::load_scenario(c.scenario, o).scenario.platform)
                       .lexically_normal()
                       .string();
        } catch (const config_error& e) {
            throw config_error(c.file + ": the scenario with this file's settings and the profile "
                                        "is rejected:\n  " + e.what());
        }
        if (profile.empty())
            profile = used;
        else if (used != profile)
            throw config_error(c.file + ": its scenario runs on " + used + ", another measurement's "
                               "on " + profile + ": calibrate fits one profile (name it with "
                               "--profile)");
    }
    return profile;
}

std::string section_keys(const profile_text& t, const std::string& section) {
    std::string s;
    for (const auto& v : t.values)
        if (v.path.rfind(section + ".", 0) == 0)
            s += (s.empty() ? "" : ", ") + v.path;
    return s;
}

// A numeric value of the profile, or config_error naming what is wrong with `path`.
const profile_value& numeric_value(const plan& p, const std::string& path, const std::string& opt,
                                   quantity& q) {
    const profile_value* v = p.profile.find(path);
    if (!v) {
        const std::string inside = section_keys(p.profile, path);
        if (!inside.empty())
            throw config_error(opt + " " + path + ": a section of " + p.profile.file +
                               ", not a value (its keys: " + inside + ")");
        const std::string section = path.substr(0, path.find('.'));
        const std::string siblings = section_keys(p.profile, section);
        std::string known;
        for (const auto& s : p.profile.sections)
            known += (known.empty() ? "" : ", ") + s;
        throw config_error(opt + " " + path + ": unknown key in " + p.profile.file +
                           (siblings.empty() ? " (sections: " + known + ")"
                                             : " (keys of " + section + ": " + siblings + ")"));
    }
    if (!parse_quantity(v->text, q))
        throw config_error(opt + " " + path + ": " + p.profile.file + ":" +
                           std::to_string(v->line + 1) + " holds '" + v->text +
                           "', not a number: only numeric keys can be fitted");
    return *v;
}

// A bound as written ("5us" or "5"), in the key's unit.
double parse_bound(const std::string& text, const std::string& unit, const std::string& what) {
    quantity b;
    if (!parse_quantity(text, b))
        throw config_error(what + ": bound '" + text + "' is not a number");
    if (!b.unit.empty() && b.unit != unit)
        throw config_error(what + ": bound '" + text + "' is in " + b.unit + ", the profile writes "
                           "this key in " + (unit.empty() ? "no unit" : unit) +
                           ": give the bounds in " + (unit.empty() ? "no unit" : unit));
    return b.number;
}

// The profile must accept the key at a bound, as a run would have to.
void check_accepted(const plan& p, const std::string& path, const std::string& text,
                    const std::string& what) {
    try {
        config::load_platform(p.profile.file, {path + "=" + text});
    } catch (const config_error& e) {
        throw config_error(what + ": " + text + " is out of the range the profile accepts for " +
                           path + ":\n  " + e.what());
    }
}

key_plan plan_key(const plan& p, const std::string& spec) {
    const std::string what = "--key " + spec;
    const size_t eq = spec.find('=');
    const std::string path = spec.substr(0, eq);
    quantity q;
    const profile_value& v = numeric_value(p, path, "--key", q);
    key_plan k;
    k.key.name = path;
    k.key.start = q.number;
    k.key.integer = q.integer;
    k.unit = q.unit;
    k.old_text = v.text;
    if (eq == std::string::npos) {
        if (q.number == 0)
            throw config_error(what + ": the profile's value is 0, so the default bounds (a "
                               "quarter to four times the value) are empty: give them, " +
                               path + "=LO:HI");
        k.key.lo = std::min(q.number / 4, q.number * 4);
        k.key.hi = std::max(q.number / 4, q.number * 4);
    } else {
        const std::string range = spec.substr(eq + 1);
        const size_t colon = range.find(':');
        if (colon == std::string::npos)
            throw config_error(what + ": expected KEY=LO:HI (e.g. " + path + "=1" + q.unit + ":50" +
                               q.unit + ")");
        k.key.lo = parse_bound(range.substr(0, colon), q.unit, what);
        k.key.hi = parse_bound(range.substr(colon + 1), q.unit, what);
        if (!(k.key.lo < k.key.hi))
            throw config_error(what + ": the lower bound must be below the upper one");
    }
    check_accepted(p, path, format_quantity(k.key.lo, k.unit, k.key.integer), what);
    check_accepted(p, path, format_quantity(k.key.hi, k.unit, k.key.integer), what);
    return k;
}

tie_plan plan_tie(const plan& p, const std::string& spec) {
    const std::string what = "--tie " + spec;
    const size_t eq = spec.find('='), star = spec.find('*');
    if (eq == std::string::npos || star == std::string::npos || star < eq)
        throw config_error(what + ": expected KEY=FACTOR*FITTED_KEY (e.g. "
                                  "net_stack.per_ack_recv=0.5*net_stack.per_segment_sent)");
    tie_plan t;
    t.path = spec.substr(0, eq);
    quantity q;
    t.old_text = numeric_value(p, t.path, "--tie", q).text;
    const std::string factor = spec.substr(eq + 1, star - eq - 1);
    char* end = nullptr;
    t.factor = std::strtod(factor.c_str(), &end);
    if (factor.empty() || *end || !std::isfinite(t.factor) || t.factor <= 0)
        throw config_error(what + ": '" + factor + "' is not a positive factor");
    const std::string of = spec.substr(star + 1);
    const auto it = std::find_if(p.keys.begin(), p.keys.end(),
                                 [&](const key_plan& k) { return k.key.name == of; });
    if (it == p.keys.end())
        throw config_error(what + ": " + of + " is not one of the fitted keys (--key)");
    if (t.path == of)
        throw config_error(what + ": a key cannot follow itself");
    t.of = size_t(it - p.keys.begin());
    for (double b : {it->key.lo, it->key.hi})
        check_accepted(p, t.path, format_quantity(b * t.factor, it->unit, false), what);
    return t;
}

// The shipped profiles are never written: not the source profile, not any of <configs>/platforms.
void check_output(const plan& p, const request& r) {
    if (r.output.empty())
        throw config_error("-o/--output: name the file of the new profile");
    std::error_code ec;
    if (fs::equivalent(r.output, p.profile.file, ec))
        throw config_error("-o " + r.output + ": that is the profile being fitted; calibrate never "
                           "edits a profile, it writes a new one (choose another file)");
    const fs::path dir = fs::path(config::default_configs_dir()) / "platforms";
    const fs::path parent = fs::absolute(r.output).parent_path();
    if (fs::exists(r.output, ec) && fs::equivalent(parent, dir, ec))
        throw config_error("-o " + r.output + ": would overwrite a shipped profile (" +
                           dir.string() + "); choose another file");
    if (!fs::is_directory(parent, ec))
        throw config_error("-o " + r.output + ": no directory " + parent.string());
}

// --predict SCENARIO[:METRIC]: a check without a measurement (default metric: the RTT of a ping
// scenario, else the goodput).
validate::check plan_prediction(const plan& p, const std::string& spec) {
    std::string file = spec, metric;
    const size_t colon = spec.rfind(':');
    if (colon != std::string::npos && sweep::find_metric(spec.substr(colon + 1))) {
        file = spec.substr(0, colon);
        metric = spec.substr(colon + 1);
    }
    validate::check c;
    c.file = c.scenario = fs::absolute(file).lexically_normal().string();
    c.name = fs::path(file).stem().string();
    if (!p.checks.empty())
        for (const auto& a : p.checks.front().set)
            if (a.key == "platform.profile")
                c.set.push_back(a);
    config::load_options o;
    add_known_drivers(o);
    for (const auto& a : c.set)
        o.overrides.push_back(a.text());
    try {
        const auto l = config::load_scenario(c.scenario, o);
        if (metric.empty())
            metric = config::to_string(l.scenario.traffic.kind) == std::string("ping")
                         ? "rtt_avg_ms"
                         : "goodput_kbps";
    } catch (const config_error& e) {
        throw config_error("--predict " + spec + ": " + e.what());
    }
    c.metric = metric;
    c.measured.unit = sweep::find_metric(metric)->unit;
    return c;
}

} // namespace

plan make_plan(const request& r) {
    plan p;
    if (r.measurements.empty())
        throw config_error("name at least one measurement file (the format of docs/validate.md)");
    for (const auto& m : r.measurements) {
        for (auto& c : validate::load_checks(m))
            p.checks.push_back(std::move(c));
        p.measurement_label += (p.measurement_label.empty() ? "" : ", ") + m;
    }
    for (const auto& c : p.checks)
        p.targets.push_back({c.measured_in_metric_unit, c.measured.tolerance_pct / 100.0});
    p.profile = read_profile_text(choose_profile(p, r));
    const profile_value* name = p.profile.find("name");
    p.profile_name = name ? name->text : fs::path(p.profile.file).stem().string();
    p.name = r.name.empty() ? p.profile_name + "-calibrated" : r.name;
    check_output(p, r);
    p.output = r.output;
    for (const auto& k : r.keys) {
        p.keys.push_back(plan_key(p, k));
        for (size_t j = 0; j + 1 < p.keys.size(); ++j)
            if (p.keys[j].key.name == p.keys.back().key.name)
                throw config_error("--key " + k + ": named twice");
    }
    if (p.keys.size() > p.checks.size())
        throw config_error(std::to_string(p.keys.size()) + " keys for " +
                           std::to_string(p.checks.size()) + " measurement" +
                           (p.checks.size() == 1 ? "" : "s") +
                           ": each measurement fixes at most one key; name at most " +
                           std::to_string(p.checks.size()) + " with --key, or add measurements");
    if (!r.ties.empty() && r.keys.empty())
        throw config_error("--tie needs the keys it follows named with --key");
    for (const auto& t : r.ties)
        p.ties.push_back(plan_tie(p, t));
    for (const auto& s : r.predict)
        p.predictions.push_back(plan_prediction(p, s));
    return p;
}

std::vector<key_plan> assumption_keys(const plan& p, std::vector<std::string>* refused) {
    std::vector<key_plan> out;
    for (const auto& v : p.profile.values) {
        quantity q;
        if (v.mark != marking::assumption || !parse_quantity(v.text, q) || q.number == 0)
            continue;
        key_plan k;
        k.key.name = v.path;
        k.key.start = q.number;
        k.key.integer = q.integer;
        k.key.lo = std::min(q.number / 4, q.number * 4);
        k.key.hi = std::max(q.number / 4, q.number * 4);
        k.unit = q.unit;
        k.old_text = v.text;
        try { // a key whose default bounds the profile refuses is left to --key
            check_accepted(p, k.key.name, format_quantity(k.key.lo, k.unit, k.key.integer), "");
            check_accepted(p, k.key.name, format_quantity(k.key.hi, k.unit, k.key.integer), "");
        } catch (const config_error& e) {
            if (refused) { // the loader's reason: its last line
                const std::string why = e.what();
                const std::string last = why.substr(why.find_last_of('\n') + 1);
                const size_t from = last.find_first_not_of(' ');
                refused->push_back(k.key.name + ": " +
                                   (from == std::string::npos ? why : last.substr(from)));
            }
            continue;
        }
        out.push_back(k);
    }
    return out;
}

} // namespace nicsim::calibrate
