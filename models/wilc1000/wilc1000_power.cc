// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_power.h"

using sc_core::sc_time;

namespace nicsim::wilc {

const char* to_string(power_state s) {
    switch (s) {
    case power_state::awake:
        return "awake";
    case power_state::sleep_pending:
        return "sleep_pending";
    case power_state::asleep:
        return "asleep";
    case power_state::waking:
        return "waking";
    }
    return "?";
}

const char* to_string(energy_state s) {
    switch (s) {
    case energy_state::sleep:
        return "sleep";
    case energy_state::idle:
        return "idle";
    case energy_state::wakeup:
        return "wakeup";
    case energy_state::rx:
        return "rx";
    case energy_state::tx:
        return "tx";
    case energy_state::count_:
        break;
    }
    return "?";
}

energy_state power_model::estate() const {
    if (m_tx)
        return energy_state::tx;
    if (m_rx)
        return energy_state::rx;
    switch (m_state) {
    case power_state::asleep:
        return energy_state::sleep;
    case power_state::waking:
        return energy_state::wakeup;
    default:
        return energy_state::idle;
    }
}

void power_model::account(sc_time t) {
    if (t > m_last) {
        m_time[size_t(estate())] += t - m_last;
        m_last = t;
    }
}

// Apply timed transitions due at or before t, in time order.
void power_model::advance(sc_time t) {
    for (;;) {
        if (m_state == power_state::sleep_pending && m_t_sleep <= t) {
            account(m_t_sleep);
            enter(m_t_sleep, power_state::asleep);
            m_t_asleep = m_t_sleep;
            evaluate(m_t_sleep);
            continue;
        }
        if (m_state == power_state::waking && m_t_ready <= t) {
            account(m_t_ready);
            enter(m_t_ready, power_state::awake);
            evaluate(m_t_ready);
            continue;
        }
        break;
    }
    account(t);
}

// Untimed transitions caused by the current inputs at time t.
void power_model::evaluate(sc_time t) {
    switch (m_state) {
    case power_state::awake:
        if (!hold()) {
            m_t_sleep = t + m_p.sleep_entry_delay;
            if (m_p.sleep_entry_delay == sc_core::SC_ZERO_TIME) {
                enter(t, power_state::asleep);
                m_t_asleep = t;
            } else {
                enter(t, power_state::sleep_pending);
            }
        }
        break;
    case power_state::sleep_pending:
        if (hold())
            enter(t, power_state::awake);
        break;
    case power_state::asleep:
        // Only the WAKEUP bit starts the clock (HOST_TO_FW is a firmware doorbell); firmware
        // work (e.g. a frame arriving from the air) wakes the chip from inside.
        if (m_wakeup_bit || fw_holds() || !m_ps_enabled) {
            const bool deep = m_p.deep_sleep_after > sc_core::SC_ZERO_TIME &&
                              t - m_t_asleep >= m_p.deep_sleep_after;
            enter(t, power_state::waking);
            m_t_ready = t + (deep ? m_p.deep_wake_latency : m_p.wake_latency);
            ++m_wakeups;
        }
        break;
    case power_state::waking:
        break;
    }
}

void power_model::set_host_bits(sc_time t, bool wakeup_bit, bool h2f_bit) {
    advance(t);
    if (wakeup_bit && !m_wakeup_bit)
        ++m_wake_requests;
    m_wakeup_bit = wakeup_bit;
    m_h2f_bit = h2f_bit;
    evaluate(t);
}

void power_model::set_fw_busy(sc_time t, bool host_work, bool air_work) {
    advance(t);
    const bool changed = m_fw_busy != host_work || m_air_busy != air_work;
    m_fw_busy = host_work;
    m_air_busy = air_work;
    if (m_obs && changed)
        m_obs->on_activity(t, m_fw_busy, m_air_busy, m_tx, m_rx);
    evaluate(t);
}

void power_model::set_ps_enabled(sc_time t, bool enabled) {
    advance(t);
    m_ps_enabled = enabled;
    evaluate(t);
}

void power_model::set_radio(sc_time t, bool tx, bool rx) {
    advance(t);
    const bool changed = m_tx != tx || m_rx != rx;
    m_tx = tx;
    m_rx = rx;
    if (m_obs && changed)
        m_obs->on_activity(t, m_fw_busy, m_air_busy, m_tx, m_rx);
}

bool power_model::clock_ready(sc_time t) {
    advance(t);
    return m_state == power_state::awake || m_state == power_state::sleep_pending;
}

power_state power_model::state(sc_time t) {
    advance(t);
    return m_state;
}

sc_time power_model::ready_time(sc_time t) {
    advance(t);
    return m_state == power_state::waking ? m_t_ready : t;
}

sc_time power_model::time_in(energy_state s, sc_time t) {
    advance(t);
    return m_time[size_t(s)];
}

double power_model::current_a(energy_state s) const {
    switch (s) {
    case energy_state::sleep:
        return m_p.sleep_current_a;
    case energy_state::idle:
        return m_p.idle_current_a;
    case energy_state::wakeup:
        return m_p.wakeup_current_a;
    case energy_state::rx:
        return m_p.rx_current_a;
    case energy_state::tx:
        return m_p.tx_current_a;
    case energy_state::count_:
        break;
    }
    return 0.0;
}

double power_model::energy_j(sc_time t) {
    advance(t);
    double e = 0.0;
    for (size_t i = 0; i < size_t(energy_state::count_); ++i)
        e += current_a(energy_state(i)) * m_p.supply_voltage_v * m_time[i].to_seconds();
    return e;
}

} // namespace nicsim::wilc
