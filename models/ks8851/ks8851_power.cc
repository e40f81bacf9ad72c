// SPDX-License-Identifier: MIT
#include "models/ks8851/ks8851_power.h"

namespace nicsim::ks {

const char* to_string(pm_mode m) {
    switch (m) {
    case pm_mode::normal:
        return "normal";
    case pm_mode::energy_detect:
        return "energy_detect";
    case pm_mode::soft_power_down:
        return "soft_power_down";
    case pm_mode::power_saving:
        return "power_saving";
    }
    return "?";
}

const char* to_string(power_state s) {
    switch (s) {
    case power_state::active:
        return "active";
    case power_state::idle:
        return "idle";
    case power_state::link_down:
        return "link_down";
    case power_state::energy_detect:
        return "energy_detect";
    case power_state::soft_power_down:
        return "soft_power_down";
    case power_state::power_saving:
        return "power_saving";
    case power_state::count_:
        break;
    }
    return "?";
}

namespace {
energy_meter::state_def def(power_state s, std::optional<double> current_a) {
    return {to_string(s), current_a};
}
} // namespace

power_model::power_model(const params& p)
    : m_meter("chip",
              {def(power_state::active, p.active_current_a),
               def(power_state::idle, p.idle_current_a),
               def(power_state::link_down, p.link_down_current_a),
               def(power_state::energy_detect, p.energy_detect_current_a),
               def(power_state::soft_power_down, p.soft_power_down_current_a),
               def(power_state::power_saving, p.power_saving_current_a)},
              p.supply_voltage_v, static_cast<std::size_t>(power_state::link_down)) {}

void power_model::set_mode(sc_core::sc_time t, pm_mode m) {
    if (m != m_mode)
        ++m_mode_changes;
    m_mode = m;
    update(t);
}

void power_model::set_link(sc_core::sc_time t, bool up) {
    m_link = up;
    update(t);
}

void power_model::set_wire_busy(sc_core::sc_time t, bool tx, bool busy) {
    (tx ? m_tx : m_rx) = busy;
    update(t);
}

void power_model::update(sc_core::sc_time t) {
    power_state s = power_state::idle;
    switch (m_mode) {
    case pm_mode::energy_detect:
        s = power_state::energy_detect;
        break;
    case pm_mode::soft_power_down:
        s = power_state::soft_power_down;
        break;
    case pm_mode::power_saving:
        s = power_state::power_saving;
        break;
    case pm_mode::normal:
        s = !m_link          ? power_state::link_down
            : (m_tx || m_rx) ? power_state::active
                             : power_state::idle;
        break;
    }
    m_meter.set_state(t, static_cast<std::size_t>(s));
}

} // namespace nicsim::ks
