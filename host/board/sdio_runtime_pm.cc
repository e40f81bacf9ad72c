// SPDX-License-Identifier: MIT
#include "host/board/sdio_runtime_pm.h"

namespace nicsim::board {

bool sdio_runtime_pm::suspended_at(const sc_core::sc_time& now) const {
    return m_cfg.enabled && m_usage == 0 && m_timer_armed &&
           now >= m_idle_since + m_cfg.autosuspend_delay;
}

sc_core::sc_time sdio_runtime_pm::resume(const sc_core::sc_time& now) {
    if (!suspended_at(now))
        return sc_core::SC_ZERO_TIME;
    ++m_stats.resumes;
    m_stats.suspended += now - (m_idle_since + m_cfg.autosuspend_delay);
    // Active again: rpm_resume leaves the device active with the timer off until the next put.
    m_timer_armed = false;
    return m_cfg.resume_latency;
}

sc_core::sc_time sdio_runtime_pm::get(const sc_core::sc_time& now) {
    const sc_core::sc_time cost = resume(now);
    ++m_usage;
    m_timer_armed = false;
    return cost;
}

void sdio_runtime_pm::put(const sc_core::sc_time& now) {
    if (m_usage > 0)
        --m_usage;
    if (m_usage == 0) {
        m_idle_since = now;
        m_timer_armed = true;
    }
}

void sdio_runtime_pm::enable_sdio_irq(bool on) {
    if (!m_cfg.irq_holds_clock)
        return;
    if (on) {
        ++m_usage; // pm_runtime_get_noresume: under the claim, so the controller is active
    } else if (m_usage > 0) {
        --m_usage; // pm_runtime_put_noidle: no idle check, the timer stays as it was
    }
}

sc_core::sc_time sdio_runtime_pm::card_irq(const sc_core::sc_time& now) {
    // The wake-up interrupt's handler resumes the controller (rpm_resume); the interrupt work's
    // claim follows at once, so the timer restarts from here rather than suspending again.
    const sc_core::sc_time cost = resume(now);
    if (cost != sc_core::SC_ZERO_TIME) {
        m_idle_since = now;
        m_timer_armed = true;
    }
    return cost;
}

} // namespace nicsim::board
