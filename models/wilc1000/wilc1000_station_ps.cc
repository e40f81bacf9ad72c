// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000_station_ps.h"

#include <vector>

using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace nicsim::wilc {

namespace {
// A null-data frame on the air: 24-byte MAC header + 4-byte FCS, no body (802.11-2016 9.3.2.1).
constexpr size_t null_frame_bytes = 28;
} // namespace

const char* to_string(ps_state s) {
    switch (s) {
    case ps_state::off:
        return "off";
    case ps_state::active:
        return "active";
    case ps_state::entering:
        return "entering";
    case ps_state::doze:
        return "doze";
    case ps_state::beacon_wait:
        return "beacon_wait";
    case ps_state::bcmc_wait:
        return "bcmc_wait";
    }
    return "?";
}

station_ps::station_ps(const params& p, power_model& power) : m_p(p), m_power(power) {}

void station_ps::enter(sc_time t, ps_state s) {
    m_state = s;
    m_power.set_radio_doze(t, s == ps_state::doze);
}

void station_ps::send_null(bool pm) {
    ++m_stats.null_frames;
    const uint64_t id =
        m_air->station_send(std::vector<uint8_t>(null_frame_bytes, 0), air_kind::null_data, pm);
    m_null_id = pm ? id : 0;
}

void station_ps::go_active(sc_time t) {
    enter(t, ps_state::active);
    m_waking_for_uplink = false;
    m_last_data = t;
    m_deadline = t + m_p.ps_dynamic_timeout;
}

bool station_ps::is_wake_beacon(uint64_t k) const {
    if (m_p.ps_wake == params::ps_wake_policy::listen_interval)
        return k % m_listen_interval == 0;
    return m_air->is_dtim(k);
}

// Doze until ps_wake_ahead before the next wake beacon's TBTT.
void station_ps::doze_until_next_wake(sc_time t) {
    enter(t, ps_state::doze);
    ++m_stats.dozes;
    uint64_t k = m_air->next_beacon_at_or_after(t + m_p.ps_wake_ahead + sc_time::from_value(1));
    while (!is_wake_beacon(k))
        ++k;
    m_wait_beacon = k;
    m_deadline = m_air->tbtt(k) - m_p.ps_wake_ahead;
}

void station_ps::set_enabled(sc_time t, bool enabled) {
    // Without beacons there is no TIM to wake for: the firmware stays awake.
    enabled = enabled && m_air && m_air->params().beacon_interval > SC_ZERO_TIME;
    if (enabled == (m_state != ps_state::off))
        return;
    if (enabled) {
        go_active(t);
        return;
    }
    // Leaving power save: tell the AP (PM=0) if it believes the station dozes.
    const bool announce = m_state != ps_state::active;
    enter(t, ps_state::off);
    m_deadline = SC_ZERO_TIME;
    m_uplink_ready = m_waking_for_uplink;
    m_waking_for_uplink = false;
    if (announce)
        send_null(false);
}

void station_ps::reset(sc_time t) {
    enter(t, ps_state::off);
    m_deadline = SC_ZERO_TIME;
    m_waking_for_uplink = m_uplink_ready = false;
    m_null_id = 0;
}

bool station_ps::uplink(sc_time t) {
    switch (m_state) {
    case ps_state::off:
        return true;
    case ps_state::active:
        m_last_data = t; // the timer re-checks the timeout when it fires: no re-arming per frame
        return true;
    case ps_state::entering: // the PM=1 frame is out; this data frame (PM=0) follows it
    case ps_state::beacon_wait:
    case ps_state::bcmc_wait:
        go_active(t);
        return true;
    case ps_state::doze:
        if (!m_waking_for_uplink) {
            m_waking_for_uplink = true;
            ++m_stats.uplink_wakeups;
            const sc_time ready = t + m_p.ps_radio_wake_time;
            if (ready < m_deadline)
                m_deadline = ready;
        }
        return false;
    }
    return true;
}

bool station_ps::hears(const air_frame&) const {
    return m_state != ps_state::doze;
}

void station_ps::received(sc_time t, const air_frame& f) {
    if (f.kind == air_kind::beacon) {
        if (m_state != ps_state::beacon_wait)
            return;
        if (f.tim) {
            // Frames are buffered for us: leave power save (null-data PM=0) and fetch them.
            ++m_stats.tim_wakeups;
            send_null(false);
            go_active(t);
        } else if (f.bcmc) {
            enter(t, ps_state::bcmc_wait);
            m_deadline = t + m_p.ps_beacon_timeout;
        } else {
            doze_until_next_wake(t);
        }
        return;
    }
    if (m_state == ps_state::active) {
        m_last_data = t;
    } else if (m_state == ps_state::bcmc_wait && !f.more_data) {
        doze_until_next_wake(t);
    }
}

void station_ps::sent(sc_time t, const air_frame& f, bool) {
    if (f.kind == air_kind::null_data) {
        if (m_state == ps_state::entering && f.id == m_null_id) {
            m_null_id = 0;
            doze_until_next_wake(t);
        }
        return;
    }
    if (m_state == ps_state::active)
        m_last_data = t;
}

void station_ps::timer(sc_time t, bool tx_idle) {
    if (m_deadline == SC_ZERO_TIME || t < m_deadline)
        return;
    switch (m_state) {
    case ps_state::off:
    case ps_state::entering:
        m_deadline = SC_ZERO_TIME;
        return;
    case ps_state::active:
        if (t < m_last_data + m_p.ps_dynamic_timeout) { // data since: the timeout starts later
            m_deadline = m_last_data + m_p.ps_dynamic_timeout;
            return;
        }
        if (!tx_idle) { // frames still queued: their sent() restarts the timeout
            m_deadline = t + m_p.ps_dynamic_timeout;
            return;
        }
        enter(t, ps_state::entering);
        m_deadline = SC_ZERO_TIME;
        send_null(true);
        return;
    case ps_state::doze:
        if (m_waking_for_uplink) { // the radio is up for the host's frame
            go_active(t);
            m_uplink_ready = true;
            return;
        }
        enter(t, ps_state::beacon_wait);
        ++m_stats.beacon_wakeups;
        m_deadline = m_air->tbtt(m_wait_beacon) + m_p.ps_beacon_timeout;
        return;
    case ps_state::beacon_wait:
        ++m_stats.beacons_missed;
        doze_until_next_wake(t);
        return;
    case ps_state::bcmc_wait:
        doze_until_next_wake(t);
        return;
    }
}

} // namespace nicsim::wilc
