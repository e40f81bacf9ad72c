// SPDX-License-Identifier: MIT
//
// Observer of completed SDIO commands: the hook for per-command logs, VCD/timeline writers and
// statistics collectors. sdio_host calls on_command() once per command, at the simulated time the
// host returns from transfer() (origin + total), with the command's schedule (absolute times =
// schedule.origin + offset; the card's added delay is already folded in, see add_card_delay()).
// With no observer attached the host pays one branch per command.
#pragma once

#include "bus/sdio/sdio_payload.h"
#include "bus/sdio/sdio_timing.h"

namespace nicsim::sdio {

class sdio_observer {
  public:
    virtual ~sdio_observer() = default;
    // `cmd` holds the data as moved (read: filled by the card) and the card's response.
    virtual void on_command(const sdio_payload& cmd, const sdio_schedule& schedule) = 0;
};

} // namespace nicsim::sdio
