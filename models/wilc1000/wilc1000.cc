// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000.h"

#include "bus/common/local_time.h"

namespace nicsim {

namespace wilc {
void spi_strap_gate::spi_transport(spi::spi_payload& frame, sc_core::sc_time& delay) {
    if (m_core.config().bus_strap == host_bus::spi) {
        m_fe.spi_transport(frame, delay);
        return;
    }
    local_time::sync(); // a finding: at the frame's own time
    frame.response = spi::spi_response::no_device;
    frame.error = "wilc1000: the chip is strapped for SDIO (params.bus_strap), the SPI interface "
                  "does not answer";
    m_core.finding(sc_core::sc_time_stamp() + delay, finding_kind::unexpected_frame, frame.error);
}
} // namespace wilc

wilc1000::wilc1000(sc_core::sc_module_name name, const wilc::params& p)
    : sc_module(name), core("core", p), spi(core), sdio(core), spi_gate(core, spi),
      spi_in("spi_in", spi_gate), sdio_in("sdio_in", sdio), irq("irq"), sdio_irq("sdio_irq") {
    core.on_irq = [this](bool high) { drive_irq(high); };
    core.on_int0 = [this](bool) { sdio.update_irq(); };
    sdio.on_irq = [this](bool pending) { drive_sdio_irq(pending); };
    irq_gate.out = [this](bool high) {
        if (irq.size())
            irq->set_level(high);
    };
}

void wilc1000::before_end_of_elaboration() {
    // A TLM target socket must be bound; a board wires only the bus it uses.
    if (spi_in.get_base_port().bind_count() == 0) {
        m_spi_tieoff = std::make_unique<spi::spi_initiator_socket>("spi_unconnected");
        m_spi_tieoff->bind(spi_in);
    }
    if (sdio_in.get_base_port().bind_count() == 0) {
        m_sdio_tieoff = std::make_unique<sdio::sdio_initiator_socket>("sdio_unconnected");
        m_sdio_tieoff->bind(sdio_in);
    }
}

void wilc1000::end_of_elaboration() {
    // The pin idles high (active low); align a line created low without making an edge later.
    if (irq.size() && irq->level() != core.irq_level())
        irq->set_level(core.irq_level());
    if (sdio_irq.size() && sdio_irq->level() != sdio.irq_level())
        sdio_irq->set_level(sdio.irq_level());
}

void wilc1000::drive_irq(bool high) {
    if (irq_gate.stuck.attached() || irq_gate.missed.attached()) {
        irq_gate.drive(high);
        return;
    }
    if (irq.size())
        irq->set_level(high);
}

fault::point_list wilc1000::fault_points() {
    fault::point_list l = core.faults.all();
    for (auto* p : spi.faults.all())
        l.push_back(p);
    for (auto* p : sdio.faults.all())
        l.push_back(p);
    l.push_back(&irq_gate.stuck);
    l.push_back(&irq_gate.missed);
    return l;
}

void wilc1000::drive_sdio_irq(bool pending) {
    if (sdio_irq.size())
        sdio_irq->set_level(pending);
}

} // namespace nicsim
