// SPDX-License-Identifier: MIT
// nicsim::wilc1000 — the ATWILC1000 WiFi chip: chip core (registers, memory, firmware functional
// model, power state machine) behind an SPI slave and an SDIO function front-end. The strap
// (params::bus_strap) selects which one answers, as the chip's SDIO_SPI_CFG pin does.
//
//   spi_in    SPI target socket (one call per chip-select frame)
//   sdio_in   SDIO target socket (one call per CMD52/CMD53)
//   irq       interrupt pin, active low (bind to an irq_line created with initial level high;
//             the driver requests IRQF_TRIGGER_FALLING). SPI, and SDIO with an out-of-band GPIO.
//   sdio_irq  SDIO in-band interrupt (DAT1), level high = card interrupt pending: INT0 pending
//             AND CCCR IENx master + F1 AND F1 enabled. Bind to an irq_line created low.
//   air       attach_air(link): the radio side (models/air/air_link.h)
// Both sockets may stay unbound (a board wires one bus); the chip then ties the unused one off.
//
// Parameters: wilc::params (wilc1000_params.h); documentation: docs/models/wilc1000.md.
#pragma once

#include <memory>

#include <systemc>

#include "bus/irq/irq_line.h"
#include "bus/sdio/sdio_sockets.h"
#include "bus/spi/spi_sockets.h"
#include "models/common/fault_point.h"
#include "models/air/air_link.h"
#include "models/wilc1000/wilc1000_core.h"
#include "models/wilc1000/wilc1000_sdio.h"
#include "models/wilc1000/wilc1000_spi.h"

namespace nicsim {

namespace wilc {
// Passes SPI frames to the SPI front-end only when the chip is strapped for SPI; otherwise the
// frame is answered no_device and a finding is logged.
class spi_strap_gate : public spi::spi_slave_if {
  public:
    spi_strap_gate(core& c, spi_frontend& fe) : m_core(c), m_fe(fe) {}
    void spi_transport(spi::spi_payload& frame, sc_core::sc_time& delay) override;
    bool answers_at_local_time() const override { return true; } // syncs where it must

  private:
    core& m_core;
    spi_frontend& m_fe;
};
} // namespace wilc

class wilc1000 : public sc_core::sc_module {
  public:
    wilc1000(sc_core::sc_module_name name, const wilc::params& p = {});

    wilc::core core;
    wilc::spi_frontend spi;
    wilc::sdio_frontend sdio;
    wilc::spi_strap_gate spi_gate;
    spi::spi_target_socket spi_in;
    sdio::sdio_target_socket sdio_in;
    sc_core::sc_port<irq_line, 1, sc_core::SC_ZERO_OR_MORE_BOUND> irq;
    sc_core::sc_port<irq_line, 1, sc_core::SC_ZERO_OR_MORE_BOUND> sdio_irq;

    void attach_air(air_link& link) { core.attach_air(link); }

    // The IRQ pin's faults (irq_stuck, irq_missed; active low) and every fault point of the
    // chip, for the composition to attach hooks to (docs/faults.md).
    fault::irq_gate irq_gate{false, true};
    fault::point_list fault_points();

    wilc::finding_log& findings() { return core.findings(); }
    wilc::power_model& power() { return core.power(); }

  private:
    void before_end_of_elaboration() override;
    void end_of_elaboration() override;
    void drive_irq(bool high);
    void drive_sdio_irq(bool pending);

    // Tie-offs for a socket the board leaves unconnected (created only then).
    std::unique_ptr<spi::spi_initiator_socket> m_spi_tieoff;
    std::unique_ptr<sdio::sdio_initiator_socket> m_sdio_tieoff;
};

} // namespace nicsim
