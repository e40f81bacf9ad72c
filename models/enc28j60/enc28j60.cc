// SPDX-License-Identifier: MIT
#include "models/enc28j60/enc28j60.h"

namespace nicsim {

enc28j60::enc28j60(sc_core::sc_module_name name, const enc::params& p)
    : sc_module(name), core("core", p), frontend(core), spi_in("spi_in", frontend), irq("irq") {
    core.on_irq = [this](bool high) {
        if (irq.size())
            irq->set_level(high);
    };
}

void enc28j60::end_of_elaboration() {
    // INT idles high; align a line created low without producing an edge later.
    if (irq.size() && irq->level() != core.irq_level())
        irq->set_level(core.irq_level());
}

} // namespace nicsim
