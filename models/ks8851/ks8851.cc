// SPDX-License-Identifier: MIT
#include "models/ks8851/ks8851.h"

#include <stdexcept>
#include <string>

namespace nicsim {

ks8851::ks8851(sc_core::sc_module_name name, const ks::params& p)
    : sc_module(name), core("core", p), irq("irq") {
    if (p.bus == ks::bus_variant::spi) {
        m_spi = std::make_unique<ks::spi_frontend>(core);
        m_spi_in = std::make_unique<spi::spi_target_socket>("spi_in", *m_spi);
    } else {
        m_par = std::make_unique<ks::par_frontend>(core);
        m_par_in = std::make_unique<par::par_target_socket>("par_in", *m_par);
    }
    core.on_irq = [this](bool high) {
        if (irq_gate.stuck.attached() || irq_gate.missed.attached()) {
            irq_gate.drive(high);
            return;
        }
        if (irq.size())
            irq->set_level(high);
    };
    irq_gate.out = [this](bool high) {
        if (irq.size())
            irq->set_level(high);
    };
}

fault::point_list ks8851::fault_points() {
    fault::point_list l = core.faults.all();
    l.push_back(&irq_gate.stuck);
    l.push_back(&irq_gate.missed);
    return l;
}

spi::spi_target_socket& ks8851::spi_in() {
    if (!m_spi_in)
        throw std::logic_error(std::string(name()) +
                               ": spi_in requested but the chip is the parallel-bus variant");
    return *m_spi_in;
}

par::par_target_socket& ks8851::par_in() {
    if (!m_par_in)
        throw std::logic_error(std::string(name()) +
                               ": par_in requested but the chip is the SPI variant");
    return *m_par_in;
}

ks::spi_frontend& ks8851::spi_frontend() {
    spi_in();
    return *m_spi;
}

ks::par_frontend& ks8851::par_frontend() {
    par_in();
    return *m_par;
}

void ks8851::end_of_elaboration() {
    // INTRN idles high; align a line created low without producing an edge later.
    if (irq.size() && irq->level() != core.irq_level())
        irq->set_level(core.irq_level());
}

} // namespace nicsim
