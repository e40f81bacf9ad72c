// SPDX-License-Identifier: MIT
// The scenario's faults (docs/faults.md) as hooks on the models' fault points: each configured
// fault becomes one scheduled_fault that decides, at every opportunity the model offers, whether
// the fault hits (its trigger: a time, a count of opportunities, a seeded probability, a window),
// counts what the model did about it and which error lines the driver printed from then on.
// The report gets one `faults` entry per fault; the verdict (report/verdict.cc) turns it into
// "recovered" or a finding naming the fault and the driver's reaction.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <systemc>

#include "models/common/fault_point.h"
#include "core/config/scenario_config.h"
#include "core/report/report.h"

namespace nicsim::faults {

class scheduled_fault final : public fault::hook {
  public:
    // `seed` is the scenario seed; `index` the fault's place in the list (its own stream).
    scheduled_fault(const config::fault_config& cfg, std::uint64_t seed, std::size_t index);

    bool fires(const sc_core::sc_time& t) override;
    bool active(const sc_core::sc_time& t) const override;
    void on_window(std::function<void(bool open)> cb) override;
    void effect(const sc_core::sc_time& t, const std::string& what) override;

    const config::fault_config& config() const { return m_cfg; }
    bool injected_any() const { return m_injected > 0 || m_effect_total > 0; }
    // The first injection (or effect), once there was one.
    sc_core::sc_time first() const { return m_first; }
    // The entry for the report; the outcome and reaction are left to the verdict.
    report::fault_report to_report() const;
    // "irq_missed (after 3 interrupt assertions)".
    std::string describe() const;

    // A driver error/warning line at time t (after the first injection the fault keeps them).
    void driver_line(const sc_core::sc_time& t, const std::string& text);

  private:
    void note(const sc_core::sc_time& t);
    bool window_open(const sc_core::sc_time& t);

    config::fault_config m_cfg;
    std::mt19937_64 m_rng;
    std::uint64_t m_opportunities = 0;
    std::uint64_t m_injected = 0;
    bool m_open = false;
    sc_core::sc_time m_opened = sc_core::SC_ZERO_TIME;
    bool m_any = false;
    sc_core::sc_time m_first = sc_core::SC_ZERO_TIME, m_last = sc_core::SC_ZERO_TIME;
    std::vector<std::pair<std::string, std::uint64_t>> m_effects;
    std::uint64_t m_effect_total = 0, m_effect_other = 0;
    std::uint64_t m_driver_total = 0;
    std::vector<std::pair<std::string, std::uint64_t>> m_driver_lines;
    std::function<void(bool)> m_window_cb;
};

class fault_plan {
  public:
    fault_plan(const std::vector<config::fault_config>& faults, std::uint64_t seed);
    ~fault_plan();

    // Attaches every fault to the point of its kind; "" or what is missing.
    std::string attach(const fault::point_list& points);
    // Appends the `faults` entries to the report.
    void fill_report(report::report& r) const;
    // One line per fault for a run that failed (exit 2): what was injected and when.
    std::string summary() const;

  private:
    std::vector<std::unique_ptr<scheduled_fault>> m_faults;
    int m_observer = 0;
};

} // namespace nicsim::faults
