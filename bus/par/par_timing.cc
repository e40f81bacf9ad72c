// SPDX-License-Identifier: MIT
#include "bus/par/par_timing.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace nicsim::par {

void par_timing::validate() const {
    if (!(bus_clock_hz > 0.0) || !std::isfinite(bus_clock_hz))
        throw std::invalid_argument("par_timing.bus_clock_hz must be a positive frequency, got " +
                                    std::to_string(bus_clock_hz));
    if (read_strobe_cycles == 0)
        throw std::invalid_argument("par_timing.read_strobe_cycles must be >= 1");
    if (write_strobe_cycles == 0)
        throw std::invalid_argument("par_timing.write_strobe_cycles must be >= 1");
}

} // namespace nicsim::par
