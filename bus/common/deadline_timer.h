// SPDX-License-Identifier: MIT
// wait(timeout, event) without the garbage SystemC 2.3 leaves behind.
//
// A process that waits for an event with a timeout, and is mostly woken by the event, leaves
// the cancelled timeout in the kernel's timed-event queue until the moment it would have
// expired (sc_event::cancel only marks the entry dead). With timeouts of seconds (driver waits,
// TCP's retransmission timer) and an event every few microseconds, the queue holds thousands of
// dead entries, and every timed notification and every time step pays log(queue) for them.
//
// A deadline_timer is one event per waiting process that stays armed at its earliest deadline:
// a wait with a later deadline keeps the earlier notification (no new entry), and when it fires
// before the waiter's own deadline the waiter re-arms it and waits again (a wake-up that changes
// nothing: same state, same time). So the waiter returns at exactly the moment wait(timeout,
// event) would, with at most one queue entry per timer at a time.
#pragma once

#include <systemc>

namespace nicsim {

class deadline_timer {
  public:
    // `event` is what ends a wait early; it must outlive the timer (declare it first).
    explicit deadline_timer(const sc_core::sc_event& event) : m_event(event) {
        m_either |= event; // one list for every wait: no allocation per wait
        m_either |= m_ev;
    }

    // Waits until the event is triggered or simulated time reaches `deadline` (absolute; not
    // before now), whichever comes first. True when woken by the event, false at the deadline.
    // Must be called from an SC_THREAD, in exact time (offset zero, bus/common/local_time.h).
    bool wait_until(const sc_core::sc_time& deadline) {
        for (;;) {
            const sc_core::sc_time now = sc_core::sc_time_stamp();
            if (deadline <= now)
                return false;
            // The timer is pending iff its time is still ahead: it fires in the first delta
            // cycle of its time, before any process runs then.
            if (m_at <= now || m_at > deadline) {
                m_ev.notify(deadline - now); // replaces a later pending notification
                m_at = deadline;
            }
            sc_core::wait(m_either);
            if (m_event.triggered())
                return true;
        }
    }

  private:
    const sc_core::sc_event& m_event;
    sc_core::sc_event m_ev;
    sc_core::sc_time m_at = sc_core::SC_ZERO_TIME; // when m_ev fires, if still ahead
    sc_core::sc_event_or_list m_either;
};

} // namespace nicsim
