// SPDX-License-Identifier: MIT
// nicsim::wilc1000 — the ATWILC1000 WiFi chip on SPI: chip core (registers, memory, firmware
// functional model, power state machine) behind the SPI slave front-end.
//
//   spi_in  SPI target socket (one call per chip-select frame)
//   irq     interrupt output, active low (bind to an irq_line created with initial level high;
//           the driver requests IRQF_TRIGGER_FALLING)
//   air     attach_air(link): the radio side (models/air/air_link.h)
//
// Parameters: wilc::params (wilc1000_params.h); documentation: docs/models/wilc1000.md.
#pragma once

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/spi/spi_sockets.h"
#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000_core.h"
#include "models/wilc1000/wilc1000_spi.h"

namespace nicsim {

class wilc1000 : public sc_core::sc_module {
  public:
    wilc1000(sc_core::sc_module_name name, const wilc::params& p = {});

    wilc::core core;
    wilc::spi_frontend spi;
    spi::spi_target_socket spi_in;
    sc_core::sc_port<irq_line, 1, sc_core::SC_ZERO_OR_MORE_BOUND> irq;

    void attach_air(air_link& link) { core.attach_air(link); }

    wilc::finding_log& findings() { return core.findings(); }
    wilc::power_model& power() { return core.power(); }

  private:
    void end_of_elaboration() override;
    void drive_irq(bool high);
};

} // namespace nicsim
