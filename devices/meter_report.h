// SPDX-License-Identifier: MIT
// A chip model's energy meter (models/common/energy_meter.h) as a report meter, the same for
// every binding: each state's time, current and energy up to `now`; a state whose current is not
// modelled has none (null in JSON, never 0).
#pragma once

#include <systemc>

#include "models/common/energy_meter.h"
#include "core/report/report.h"

namespace nicsim::bindings {

inline report::meter_report meter_report_of(const energy_meter& m, sc_core::sc_time now) {
    report::meter_report mr;
    mr.name = m.name();
    mr.supply_voltage_v = m.supply_voltage_v();
    for (std::size_t s = 0; s < m.size(); ++s) {
        report::power_state_report ps;
        ps.state = m.state_name(s);
        ps.time_s = m.time_in(s, now).to_seconds();
        ps.current_a = m.current_a(s);
        if (ps.current_a)
            ps.energy_j = ps.time_s * *ps.current_a * m.supply_voltage_v();
        mr.states.push_back(ps);
    }
    return mr;
}

} // namespace nicsim::bindings
