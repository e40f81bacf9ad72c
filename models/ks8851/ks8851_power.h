// SPDX-License-Identifier: MIT
// nicsim::ks::power_model — the KS8851's power-management state and its energy meter
// (models/common/energy_meter.h, the same machinery as the WILC1000's meters).
//
// The chip's power-management mode is PMECR.PM (bits 1:0; the kernel's ks8851.h PMECR_PM_*):
// 0 normal, 1 energy-detect, 2 soft power-down, 3 power-saving. In normal mode the PHY's state
// decides the meter state: no link -> link_down; link up and a frame on the wire in either
// direction -> active; link up and the wire quiet -> idle. In the other three modes the mode is
// the state, whatever the link does. One meter ("chip") on the single 3.3 V supply.
//
// Metering only: the mode changes no chip behaviour (the model keeps receiving and sending in
// every mode; the 6.1 driver only ever writes normal). Inputs carry the simulated time they take
// effect at (the caller's local time), never earlier than the previous input.
#pragma once

#include <cstdint>
#include <optional>

#include <systemc>

#include "models/common/energy_meter.h"
#include "models/ks8851/ks8851_params.h"

namespace nicsim::ks {

enum class pm_mode { normal = 0, energy_detect = 1, soft_power_down = 2, power_saving = 3 };
// Meter states, in report order (indices into the meter).
enum class power_state {
    active = 0,
    idle,
    link_down,
    energy_detect,
    soft_power_down,
    power_saving,
    count_
};

const char* to_string(pm_mode m);
const char* to_string(power_state s);

class power_model {
  public:
    explicit power_model(const params& p);

    // Inputs.
    void set_mode(sc_core::sc_time t, pm_mode m); // PMECR.PM written (or reset)
    void set_link(sc_core::sc_time t, bool up);
    // A frame on the wire: tx = the chip sends, else it receives.
    void set_wire_busy(sc_core::sc_time t, bool tx, bool busy);

    pm_mode mode() const { return m_mode; }
    power_state state() const { return static_cast<power_state>(m_meter.state()); }
    uint64_t mode_changes() const { return m_mode_changes; } // PMECR.PM value changes

    // Accounting up to t (the open interval since the last change included).
    const energy_meter& meter() const { return m_meter; }
    sc_core::sc_time time_in(power_state s, sc_core::sc_time t) const {
        return m_meter.time_in(static_cast<std::size_t>(s), t);
    }
    // Σ I·V·t; nullopt while a state the chip spent time in has no current (not modelled).
    std::optional<double> energy_j(sc_core::sc_time t) const { return m_meter.known_energy_j(t); }

  private:
    void update(sc_core::sc_time t);

    pm_mode m_mode = pm_mode::normal;
    bool m_link = false, m_tx = false, m_rx = false;
    uint64_t m_mode_changes = 0;
    energy_meter m_meter;
};

} // namespace nicsim::ks
