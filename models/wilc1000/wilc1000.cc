// SPDX-License-Identifier: MIT
#include "models/wilc1000/wilc1000.h"

namespace nicsim {

wilc1000::wilc1000(sc_core::sc_module_name name, const wilc::params& p)
    : sc_module(name), core("core", p), spi(core), spi_in("spi_in", spi), irq("irq") {
    core.on_irq = [this](bool high) { drive_irq(high); };
}

void wilc1000::end_of_elaboration() {
    // The pin idles high (active low); align a line created low without making an edge later.
    if (irq.size() && irq->level() != core.irq_level())
        irq->set_level(core.irq_level());
}

void wilc1000::drive_irq(bool high) {
    if (irq.size())
        irq->set_level(high);
}

} // namespace nicsim
