// SPDX-License-Identifier: MIT
// One device energy meter (ns-3's DeviceEnergyModel, separate from the source): a fixed set of
// states, each drawing its own current from one supply, and the time spent in each.
// energy = sum over states of I_state * V * t_state. A chip has one meter per part that changes
// state on its own (WILC1000: the radio and the host interface), so one part's state never
// decides another's current.
//
// Time only moves forward: set_state() and the queries take the simulated time they apply at,
// and the interval since the last change is charged to the state that held over it.
//
// A state's current may be unknown (no source gives one, e.g. the KS8851's): the meter still
// records the time spent in it, and its energy is "not modelled" (nullopt), never 0.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

namespace nicsim {

class energy_meter {
  public:
    struct state_def {
        std::string name;
        std::optional<double> current_a; // nullopt: not modelled
    };

    energy_meter(std::string name, std::vector<state_def> states, double supply_voltage_v,
                 std::size_t initial)
        : m_name(std::move(name)), m_states(std::move(states)), m_supply_v(supply_voltage_v),
          m_time(m_states.size()), m_state(initial) {
        if (initial >= m_states.size())
            throw std::invalid_argument("energy_meter " + m_name + ": initial state out of range");
    }

    // The meter enters state s at time t (t not before the previous change).
    void set_state(sc_core::sc_time t, std::size_t s) {
        if (t > m_last) {
            m_time[m_state] += t - m_last;
            m_last = t;
        }
        m_state = s;
    }

    const std::string& name() const { return m_name; }
    std::size_t size() const { return m_states.size(); }
    std::size_t state() const { return m_state; }
    const std::string& state_name(std::size_t s) const { return m_states.at(s).name; }
    std::optional<double> current_a(std::size_t s) const { return m_states.at(s).current_a; }
    double supply_voltage_v() const { return m_supply_v; }

    // Time in s up to t (the open interval since the last change included).
    sc_core::sc_time time_in(std::size_t s, sc_core::sc_time t) const {
        sc_core::sc_time v = m_time.at(s);
        if (s == m_state && t > m_last)
            v += t - m_last;
        return v;
    }
    // For meters whose currents are all known; throws std::logic_error otherwise.
    double energy_j(std::size_t s, sc_core::sc_time t) const {
        const auto e = known_energy_j(s, t);
        if (!e)
            throw std::logic_error("energy_meter " + m_name + ": no current for state " +
                                   state_name(s));
        return *e;
    }
    double energy_j(sc_core::sc_time t) const {
        double e = 0;
        for (std::size_t s = 0; s < m_states.size(); ++s)
            e += energy_j(s, t);
        return e;
    }
    // I * V * t of one state; nullopt when its current is unknown.
    std::optional<double> known_energy_j(std::size_t s, sc_core::sc_time t) const {
        const auto i = current_a(s);
        if (!i)
            return std::nullopt;
        return *i * m_supply_v * time_in(s, t).to_seconds();
    }
    // The meter's energy up to t; nullopt when it spent time in a state with no current (a
    // state it never entered adds nothing, whether its current is known or not).
    std::optional<double> known_energy_j(sc_core::sc_time t) const {
        double e = 0;
        for (std::size_t s = 0; s < m_states.size(); ++s) {
            if (time_in(s, t) == sc_core::SC_ZERO_TIME)
                continue;
            const auto es = known_energy_j(s, t);
            if (!es)
                return std::nullopt;
            e += *es;
        }
        return e;
    }

  private:
    std::string m_name;
    std::vector<state_def> m_states;
    double m_supply_v;
    std::vector<sc_core::sc_time> m_time;
    std::size_t m_state;
    sc_core::sc_time m_last; // charged up to here
};

} // namespace nicsim
