// SPDX-License-Identifier: MIT
//
// Observer of completed SPI frames: the hook for per-frame logs, VCD/timeline writers and
// statistics collectors. spi_host calls on_frame() once per frame, at the simulated time the
// host returns from transfer() (origin + total), with the frame's schedule (absolute times =
// schedule.origin + offset). With no observer attached the host pays one branch per frame.
#pragma once

#include "bus/spi/spi_payload.h"
#include "bus/spi/spi_timing.h"

namespace nicsim::spi {

class spi_observer {
  public:
    virtual ~spi_observer() = default;
    // `frame` has every rx buffer filled (the host lends scratch buffers for rx == nullptr while
    // observers are attached), so an observer can see every MISO bit.
    virtual void on_frame(const spi_payload& frame, const spi_schedule& schedule) = 0;
};

} // namespace nicsim::spi
