// SPDX-License-Identifier: MIT
// Chip power state machine in chip time, plus the energy meter.
//
//   awake --(no hold)--> sleep_pending --(sleep_entry_delay)--> asleep
//   asleep --(WAKEUP bit or internal firmware work)--> waking --(wake_latency)--> awake
//   sleep_pending --(hold)--> awake            (no latency: the clock never stopped)
//
// "hold" = host WAKEUP bit | HOST_TO_FW bit | firmware busy with host work (or with air work,
// if params::air_work_keeps_host_if_awake) | firmware power save off.
// CLK_STATUS bit 2 is 1 exactly in awake/sleep_pending. The model is evaluated lazily: every
// input and query carries its simulated time (monotonic), and pending timed transitions are
// applied first, so results do not depend on how often it is polled.
#pragma once

#include <array>
#include <cstdint>

#include <systemc>

#include "models/wilc1000/wilc1000_params.h"

namespace nicsim::wilc {

enum class power_state { awake, sleep_pending, asleep, waking };
// Energy-accounting states (ns-3 WifiRadioEnergyModel names).
enum class energy_state { sleep = 0, idle, wakeup, rx, tx, count_ };

const char* to_string(power_state s);
const char* to_string(energy_state s);

// Trace hook (timelines, waveforms). Called synchronously while the model applies a change, with
// the simulated time the change takes effect. Because the model is lazy, a timed transition
// (sleep_pending -> asleep, waking -> awake) is reported when the model is next advanced past it,
// with its own (earlier) time; times reported to one observer never decrease.
class power_observer {
  public:
    virtual ~power_observer() = default;
    virtual void on_power_state(sc_core::sc_time t, power_state s) = 0;
    // Firmware and radio activity inputs (set_fw_busy / set_radio), when one of them changes.
    virtual void on_activity(sc_core::sc_time, bool /*fw_host_work*/, bool /*fw_air_work*/,
                             bool /*tx*/, bool /*rx*/) {}
};

class power_model {
  public:
    explicit power_model(const params& p) : m_p(p) {}

    // Inputs.
    void set_host_bits(sc_core::sc_time t, bool wakeup_bit, bool host_to_fw_bit);
    // host_work: firmware work the host waits for; air_work: radio-side work only.
    void set_fw_busy(sc_core::sc_time t, bool host_work, bool air_work);
    void set_ps_enabled(sc_core::sc_time t, bool enabled);
    void set_radio(sc_core::sc_time t, bool tx, bool rx);

    // Queries (advance to t first).
    bool clock_ready(sc_core::sc_time t);
    power_state state(sc_core::sc_time t);
    // Time the clock becomes ready (t itself when it already is; only meaningful while waking).
    sc_core::sc_time ready_time(sc_core::sc_time t);

    // At most one observer; null detaches. Not owned. With none the model pays one check per
    // state change.
    void set_observer(power_observer* obs) { m_obs = obs; }

    // Accounting up to t.
    sc_core::sc_time time_in(energy_state s, sc_core::sc_time t);
    double energy_j(sc_core::sc_time t);
    double current_a(energy_state s) const;
    uint64_t wakeups() const { return m_wakeups; }                  // asleep -> waking transitions
    uint64_t host_wake_requests() const { return m_wake_requests; } // WAKEUP 0->1 writes
    sc_core::sc_time waking_time(sc_core::sc_time t) { return time_in(energy_state::wakeup, t); }

  private:
    void advance(sc_core::sc_time t);
    void evaluate(sc_core::sc_time t);
    void account(sc_core::sc_time t);
    void enter(sc_core::sc_time t, power_state s) {
        m_state = s;
        if (m_obs)
            m_obs->on_power_state(t, s);
    }
    energy_state estate() const;
    bool fw_holds() const {
        return m_fw_busy || (m_air_busy && m_p.air_work_keeps_host_if_awake);
    }
    bool hold() const { return m_wakeup_bit || m_h2f_bit || fw_holds() || !m_ps_enabled; }

    const params& m_p;
    power_state m_state = power_state::awake;
    bool m_wakeup_bit = false, m_h2f_bit = false, m_fw_busy = false, m_ps_enabled = false;
    bool m_air_busy = false;
    bool m_tx = false, m_rx = false;
    sc_core::sc_time m_t_sleep, m_t_ready, m_t_asleep;
    sc_core::sc_time m_last; // accounted up to here
    std::array<sc_core::sc_time, size_t(energy_state::count_)> m_time{};
    uint64_t m_wakeups = 0, m_wake_requests = 0;
    power_observer* m_obs = nullptr;
};

} // namespace nicsim::wilc
