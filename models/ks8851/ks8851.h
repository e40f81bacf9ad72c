// SPDX-License-Identifier: MIT
// nicsim::ks8851 — the Micrel KS8851 Ethernet controller: one chip core (ks8851_core.h) behind
// the host-bus front-end that params.bus selects:
//
//   spi_in()  SPI target socket (KSZ8851SNL; bus_variant::spi), one call per chip-select frame
//   par_in()  16-bit parallel-bus target socket (KSZ8851-16MLL; bus_variant::par)
//   irq       INTRN, active-low level: low while ISR & IER != 0 (bind to an irq_line created
//             with initial level high; the driver requests IRQF_TRIGGER_LOW)
//   attach_wire(w)  the Ethernet side (models/ethernet/eth_wire.h); link state feeds the PHY
//
// Only the selected front-end exists, so the unused socket never needs binding. Parameters:
// ks::params (ks8851_params.h); documentation: docs/models/ks8851.md.
#pragma once

#include <memory>

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/par/par_sockets.h"
#include "bus/spi/spi_sockets.h"
#include "models/common/fault_point.h"
#include "models/ethernet/eth_wire.h"
#include "models/ks8851/ks8851_core.h"
#include "models/ks8851/ks8851_par.h"
#include "models/ks8851/ks8851_spi.h"

namespace nicsim {

class ks8851 : public sc_core::sc_module {
  public:
    ks8851(sc_core::sc_module_name name, const ks::params& p = {});

    ks::core core;
    sc_core::sc_port<irq_line, 1, sc_core::SC_ZERO_OR_MORE_BOUND> irq;

    // Throw std::logic_error when the chip was built for the other bus.
    spi::spi_target_socket& spi_in();
    par::par_target_socket& par_in();
    ks::spi_frontend& spi_frontend();
    ks::par_frontend& par_frontend();

    void attach_wire(eth::eth_wire& w) { core.attach_wire(w); }
    // INTRN's faults (irq_stuck, irq_missed; active low) and every fault point of the chip
    // (docs/faults.md).
    fault::irq_gate irq_gate{false, true};
    fault::point_list fault_points();
    ks::finding_log& findings() { return core.findings(); }

  private:
    void end_of_elaboration() override;

    std::unique_ptr<ks::spi_frontend> m_spi;
    std::unique_ptr<spi::spi_target_socket> m_spi_in;
    std::unique_ptr<ks::par_frontend> m_par;
    std::unique_ptr<par::par_target_socket> m_par_in;
};

} // namespace nicsim
