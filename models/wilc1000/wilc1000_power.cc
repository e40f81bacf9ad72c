// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_power.h"

#include <algorithm>
#include <cmath>

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

const char* to_string(radio_state s) {
    switch (s) {
    case radio_state::tx:
        return "tx";
    case radio_state::rx:
        return "rx";
    case radio_state::listen:
        return "listen";
    case radio_state::doze:
        return "doze";
    case radio_state::off:
        return "off";
    case radio_state::count_:
        break;
    }
    return "?";
}

const char* to_string(host_if_state s) {
    switch (s) {
    case host_if_state::awake:
        return "awake";
    case host_if_state::sleep:
        return "sleep";
    case host_if_state::waking:
        return "waking";
    case host_if_state::count_:
        break;
    }
    return "?";
}

size_t wake_stats::bucket(double v) {
    if (!(v >= 1.0))
        return 0;
    const int e = std::ilogb(v) + 1; // v in [2^(e-1), 2^e)
    return std::min(size_t(e), buckets - 1);
}

namespace {

host_if_state host_if_of(power_state s) {
    switch (s) {
    case power_state::asleep:
        return host_if_state::sleep;
    case power_state::waking:
        return host_if_state::waking;
    default: // sleep_pending: the clock still runs
        return host_if_state::awake;
    }
}

template <typename E> energy_meter::state_def def(E s, double current_a) {
    return {to_string(s), current_a};
}

} // namespace

power_model::power_model(const params& p)
    : m_p(p), m_radio("radio",
                      {def(radio_state::tx, p.radio_tx_current_a),
                       def(radio_state::rx, p.radio_rx_current_a),
                       def(radio_state::listen, p.radio_listen_current_a),
                       def(radio_state::doze, p.radio_doze_current_a),
                       def(radio_state::off, p.radio_off_current_a)},
                      p.supply_voltage_v, size_t(radio_state::off)),
      m_host_if("host_interface",
                {def(host_if_state::awake, p.host_if_awake_current_a),
                 def(host_if_state::sleep, p.host_if_sleep_current_a),
                 def(host_if_state::waking, p.host_if_waking_current_a)},
                p.supply_voltage_v, size_t(host_if_of(m_state))) {}

void power_model::enter(sc_time t, power_state s) {
    m_state = s;
    m_host_if.set_state(t, size_t(host_if_of(s)));
    if (m_obs)
        m_obs->on_power_state(t, s);
}

// The radio follows the air link and the firmware only (its 802.11 power save dozes it); the
// host interface's sleep does not reach it.
void power_model::update_radio(sc_time t) {
    radio_state r = radio_state::listen;
    if (!m_radio_on)
        r = radio_state::off;
    else if (m_tx)
        r = radio_state::tx;
    else if (m_rx)
        r = radio_state::rx;
    else if (m_doze)
        r = radio_state::doze;
    if (size_t(r) == m_radio.state())
        return;
    m_radio.set_state(t, size_t(r));
    if (m_obs)
        m_obs->on_radio_state(t, r);
}

// Apply timed transitions due at or before t, in time order.
void power_model::advance(sc_time t) {
    for (;;) {
        if (m_state == power_state::sleep_pending && m_t_sleep <= t) {
            enter(m_t_sleep, power_state::asleep);
            m_t_asleep = m_t_sleep;
            evaluate(m_t_sleep);
            continue;
        }
        if (m_state == power_state::waking && m_t_ready <= t) {
            enter(m_t_ready, power_state::awake);
            evaluate(m_t_ready);
            continue;
        }
        break;
    }
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
            enter(t, power_state::waking);
            m_t_ready = t + (deep_since(t) ? m_p.deep_wake_latency : m_p.wake_latency);
            ++m_wakeups;
        }
        break;
    case power_state::waking:
        break;
    }
}

bool power_model::deep_since(sc_time t) const {
    return m_p.deep_sleep_after > sc_core::SC_ZERO_TIME && t - m_t_asleep >= m_p.deep_sleep_after;
}

void power_model::record_wake_request(sc_time t) {
    if (m_polls_open)
        close_polls(m_wake, m_open_polls);
    m_polls_open = true;
    m_open_polls = 0;
    ++m_wake.requests;
    switch (m_state) {
    case power_state::awake:
    case power_state::sleep_pending:
        ++m_wake.found_running;
        break;
    case power_state::waking:
        ++m_wake.found_waking;
        break;
    case power_state::asleep:
        ++m_wake.found_asleep;
        m_wake.found_deep += deep_since(t);
        ++m_wake.asleep_us[wake_stats::bucket((t - m_t_asleep).to_seconds() * 1e6)];
        break;
    }
}

void power_model::close_polls(wake_stats& w, uint64_t polls) {
    ++w.polls[wake_stats::bucket(double(polls))];
}

wake_stats power_model::wakes() const {
    wake_stats w = m_wake;
    if (m_polls_open)
        close_polls(w, m_open_polls);
    return w;
}

void power_model::host_access(sc_time t) {
    advance(t);
    if (m_state == power_state::sleep_pending)
        m_t_sleep = t + m_p.sleep_entry_delay;
}

void power_model::clk_status_read(sc_time t, bool ready) {
    advance(t);
    if (!m_polls_open)
        return;
    ++m_open_polls;
    if (ready) {
        close_polls(m_wake, m_open_polls);
        m_polls_open = false;
    }
}

void power_model::set_host_bits(sc_time t, bool wakeup_bit, bool h2f_bit) {
    advance(t);
    if (wakeup_bit && !m_wakeup_bit)
        record_wake_request(t);
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
    update_radio(t);
    if (m_obs && changed)
        m_obs->on_activity(t, m_fw_busy, m_air_busy, m_tx, m_rx);
}

void power_model::set_radio_on(sc_time t, bool on) {
    advance(t);
    m_radio_on = on;
    update_radio(t);
}

void power_model::set_radio_doze(sc_time t, bool doze) {
    advance(t);
    m_doze = doze;
    update_radio(t);
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

const energy_meter& power_model::radio(sc_time t) {
    advance(t);
    return m_radio;
}

const energy_meter& power_model::host_if(sc_time t) {
    advance(t);
    return m_host_if;
}

sc_time power_model::time_in(radio_state s, sc_time t) {
    return radio(t).time_in(size_t(s), t);
}

sc_time power_model::time_in(host_if_state s, sc_time t) {
    return host_if(t).time_in(size_t(s), t);
}

double power_model::energy_j(sc_time t) {
    advance(t);
    return m_radio.energy_j(t) + m_host_if.energy_j(t);
}

} // namespace nicsim::wilc
