// SPDX-License-Identifier: MIT
#include "devices/wilc1000/wilc1000_handshake.h"

namespace nicsim::trace {

void wilc1000_handshake::wake_request(uint64_t t, bus_annotations& a) {
    // chip_wakeup writes HOST_TO_FW, then WAKEUP: the second write belongs to the same wake-up.
    if (m_wake.active && m_wake.polls == 0)
        return;
    if (m_sleep.active)
        a.span(lane, "allow sleep", m_sleep.start, t,
               json_args().add("fw_to_host_polls", m_sleep.polls).str());
    if (m_wake.active)
        a.span(lane, "wake-up handshake (no clock)", m_wake.start, t,
               json_args().add("clk_status_polls", m_wake.polls).str());
    m_sleep.active = false;
    m_wake = {true, t, 0};
}

unsigned wilc1000_handshake::clock_poll(bool ready, uint64_t end, bus_annotations& a) {
    if (!m_wake.active)
        return 0;
    const unsigned n = ++m_wake.polls;
    if (ready) {
        ++m_wakeups;
        a.span(lane, "wake-up handshake", m_wake.start, end,
               json_args().add("clk_status_polls", n).add("wakeup", m_wakeups).str());
        a.instant(lane, "clock ready", end);
        m_wake.active = false;
    }
    return n;
}

void wilc1000_handshake::fw_to_host_poll(uint64_t t) {
    if (m_wake.active)
        return;
    if (!m_sleep.active)
        m_sleep = {true, t, 0};
    ++m_sleep.polls;
}

void wilc1000_handshake::host_to_fw_cleared(uint64_t end, bus_annotations& a) {
    if (!m_sleep.active)
        return;
    a.span(lane, "allow sleep", m_sleep.start, end,
           json_args().add("fw_to_host_polls", m_sleep.polls).str());
    m_sleep.active = false;
}

} // namespace nicsim::trace
