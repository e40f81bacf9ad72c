// SPDX-License-Identifier: MIT
// nicsim::enc28j60 — the Microchip ENC28J60 stand-alone 10BASE-T Ethernet controller with SPI:
//
//   spi_in       SPI target socket (mode 0,0, up to 20 MHz), one call per chip-select frame
//   irq          INT, active-low level: low while EIE.INTIE and an enabled EIR flag is pending
//                (bind to an irq_line created high; the 6.1 driver requests the IRQ with
//                flags 0 and expects the board to configure a falling-edge trigger)
//   attach_wire  the Ethernet side (models/ethernet/eth_wire.h, 10 Mb/s); link feeds the PHY
//
// Parameters: enc::params (enc28j60_params.h); documentation: docs/models/enc28j60.md.
#pragma once

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/spi/spi_sockets.h"
#include "models/enc28j60/enc28j60_core.h"
#include "models/enc28j60/enc28j60_spi.h"
#include "models/ethernet/eth_wire.h"

namespace nicsim {

class enc28j60 : public sc_core::sc_module {
  public:
    enc28j60(sc_core::sc_module_name name, const enc::params& p = {});

    enc::core core;
    enc::spi_frontend frontend;
    spi::spi_target_socket spi_in;
    sc_core::sc_port<irq_line, 1, sc_core::SC_ZERO_OR_MORE_BOUND> irq;

    void attach_wire(eth::eth_wire& w) { core.attach_wire(w); }
    enc::finding_log& findings() { return core.findings(); }
    const enc::core_stats& stats() const { return core.stats(); }

  private:
    void end_of_elaboration() override;
};

} // namespace nicsim
