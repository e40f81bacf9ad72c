// SPDX-License-Identifier: MIT
#include "bus/irq/irq_line.h"

#include "bus/common/local_time.h"

namespace nicsim {

irq_line::irq_line(const char* name, bool initial_level)
    : sc_core::sc_object(name), m_level(initial_level) {}

void irq_line::set_level(bool high) {
    if (high == m_level)
        return;         // no edge: no event, no count
    local_time::sync(); // an edge is seen by other processes: at the driver's own time
    m_level = high;
    m_last_change = sc_core::sc_time_stamp();
    if (high) {
        ++m_posedges;
        m_posedge.notify(sc_core::SC_ZERO_TIME);
    } else {
        ++m_negedges;
        m_negedge.notify(sc_core::SC_ZERO_TIME);
    }
    m_changed.notify(sc_core::SC_ZERO_TIME);
    if (!m_observers.empty())
        for (irq_observer* o : m_observers)
            o->on_irq(*this, high, m_last_change);
}

} // namespace nicsim
