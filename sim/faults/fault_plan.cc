// SPDX-License-Identifier: MIT
#include "sim/faults/fault_plan.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

#include "kernel/include/lx_kit/runtime.h"

namespace nicsim::faults {

using sc_core::sc_time;

namespace {

constexpr std::size_t max_effects = 6;      // distinct effect texts kept per fault
constexpr std::size_t max_driver_lines = 8; // distinct driver lines kept per fault
constexpr int warning_level = 4;            // KERN_WARNING

sc_time to_sc(const config::duration& d) {
    return sc_time(static_cast<double>(d.ps), sc_core::SC_PS); // as board::to_sc
}

void bump(std::vector<std::pair<std::string, std::uint64_t>>& list, const std::string& text,
          std::size_t cap, std::uint64_t& other) {
    for (auto& [t, n] : list)
        if (t == text) {
            ++n;
            return;
        }
    if (list.size() < cap)
        list.emplace_back(text, 1);
    else
        ++other;
}

} // namespace

scheduled_fault::scheduled_fault(const config::fault_config& cfg, std::uint64_t seed,
                                 std::size_t index)
    : m_cfg(cfg), m_rng(seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull * (index + 1)) {}

bool scheduled_fault::window_open(const sc_time& t) {
    if (!m_open) {
        if (m_cfg.at && t < to_sc(*m_cfg.at))
            return false;
        if (m_cfg.after && m_opportunities <= *m_cfg.after)
            return false;
        m_open = true;
        m_opened = m_cfg.at ? to_sc(*m_cfg.at) : t;
        if (m_cfg.after && m_window_cb)
            m_window_cb(true);
    }
    return !m_cfg.window || t < m_opened + to_sc(*m_cfg.window);
}

bool scheduled_fault::fires(const sc_time& t) {
    ++m_opportunities;
    if (!window_open(t))
        return false;
    // Default: one hit for a plain trigger; every opportunity of a window or with a probability.
    const std::uint64_t limit =
        m_cfg.count
            ? *m_cfg.count
            : (m_cfg.window || m_cfg.probability ? std::numeric_limits<std::uint64_t>::max() : 1);
    if (m_injected >= limit)
        return false;
    if (m_cfg.probability) {
        std::uniform_real_distribution<double> u(0.0, 1.0);
        if (!(u(m_rng) < *m_cfg.probability))
            return false;
    }
    ++m_injected;
    note(t);
    return true;
}

bool scheduled_fault::active(const sc_time& t) const {
    const sc_time start = m_cfg.at ? to_sc(*m_cfg.at) : sc_core::SC_ZERO_TIME;
    if (t < start)
        return false;
    return !m_cfg.window || t < start + to_sc(*m_cfg.window);
}

void scheduled_fault::on_window(std::function<void(bool open)> cb) {
    m_window_cb = std::move(cb);
    if (!m_cfg.level)
        return; // opened by an opportunity (window_open)
    // A window fault acts at its edges: a process of the plan calls the model then.
    const sc_time start = m_cfg.at ? to_sc(*m_cfg.at) : sc_core::SC_ZERO_TIME;
    const bool closes = m_cfg.window.has_value();
    const sc_time len = closes ? to_sc(*m_cfg.window) : sc_core::SC_ZERO_TIME;
    sc_core::sc_spawn_options o;
    sc_core::sc_spawn(
        [this, start, closes, len] {
            sc_core::wait(start);
            m_window_cb(true);
            if (closes) {
                sc_core::wait(len);
                m_window_cb(false);
            }
        },
        (std::string("fault_window_") + m_cfg.kind).c_str(), &o);
}

void scheduled_fault::note(const sc_time& t) {
    if (!m_any) {
        m_any = true;
        m_first = t;
    }
    m_last = t;
}

void scheduled_fault::effect(const sc_time& t, const std::string& what) {
    ++m_effect_total;
    note(t);
    bump(m_effects, what, max_effects, m_effect_other);
}

void scheduled_fault::driver_line(const sc_time& t, const std::string& text) {
    if (!m_any || t < m_first)
        return;
    ++m_driver_total;
    std::uint64_t dropped = 0;
    bump(m_driver_lines, text, max_driver_lines, dropped);
}

std::string scheduled_fault::describe() const {
    std::vector<std::string> parts;
    auto dur = [](const config::duration& d) {
        return d.ps == 0 ? std::string("0s") : config::to_string(d);
    };
    if (m_cfg.at)
        parts.push_back("at " + dur(*m_cfg.at));
    if (m_cfg.after)
        parts.push_back("after " + std::to_string(*m_cfg.after) + " " + m_cfg.unit);
    if (!m_cfg.at && !m_cfg.after)
        parts.push_back("from the start");
    if (m_cfg.probability) {
        char b[32];
        std::snprintf(b, sizeof b, "%g", *m_cfg.probability);
        parts.push_back(std::string("probability ") + b);
    }
    if (m_cfg.window)
        parts.push_back("for " + dur(*m_cfg.window));
    if (m_cfg.count)
        parts.push_back("count " + std::to_string(*m_cfg.count));
    std::string s;
    for (const auto& p : parts)
        s += (s.empty() ? "" : ", ") + p;
    return s;
}

report::fault_report scheduled_fault::to_report() const {
    report::fault_report r;
    r.kind = m_cfg.kind;
    r.trigger = describe();
    r.unit = m_cfg.unit;
    r.opportunities = m_opportunities;
    // Window faults have no opportunities: what they did is their effects.
    r.injected = m_cfg.level ? m_effect_total : m_injected;
    if (m_any) {
        r.first_s = m_first.to_seconds();
        r.last_s = m_last.to_seconds();
    }
    r.effects = m_effects;
    if (m_effect_other)
        r.effects.emplace_back("other effects", m_effect_other);
    r.driver_errors = m_driver_total;
    r.driver_lines = m_driver_lines;
    return r;
}

fault_plan::fault_plan(const std::vector<config::fault_config>& faults, std::uint64_t seed) {
    for (std::size_t i = 0; i < faults.size(); ++i)
        m_faults.push_back(std::make_unique<scheduled_fault>(faults[i], seed, i));
    m_observer = lx_kit::add_log_observer([this](const lx_kit::log_record& r) {
        if (r.level > warning_level)
            return;
        for (auto& f : m_faults)
            f->driver_line(r.time, r.text);
    });
}

fault_plan::~fault_plan() {
    lx_kit::remove_log_observer(m_observer);
}

std::string fault_plan::attach(const fault::point_list& points) {
    for (auto& f : m_faults) {
        auto it = std::find_if(points.begin(), points.end(), [&](const fault::point* p) {
            return p->kind() == f->config().kind;
        });
        if (it == points.end())
            return f->config().where + ": faults: the device's models have no point for kind '" +
                   f->config().kind + "'";
        if ((*it)->attached())
            return f->config().where + ": faults: kind '" + f->config().kind +
                   "' is listed twice; give one entry per kind";
        (*it)->attach(f.get());
    }
    return {};
}

void fault_plan::fill_report(report::report& r) const {
    for (const auto& f : m_faults)
        r.faults.push_back(f->to_report());
}

std::string fault_plan::summary() const {
    std::string s;
    for (const auto& f : m_faults) {
        const report::fault_report r = f->to_report();
        s += "\n  fault " + r.kind + " (" + r.trigger + "): ";
        if (!r.first_s) {
            s += "never injected";
            continue;
        }
        s += "injected " + std::to_string(r.injected) + (r.injected == 1 ? " time" : " times") +
             " from " + std::to_string(*r.first_s) + " s";
        if (!r.effects.empty())
            s += " (" + r.effects.front().first + ")";
        if (r.driver_errors) {
            s += "; the driver logged " + std::to_string(r.driver_errors) +
                 " error/warning lines after it, first: " + r.driver_lines.front().first;
        }
    }
    return s;
}

} // namespace nicsim::faults
