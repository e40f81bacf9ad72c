// SPDX-License-Identifier: MIT
// Lookup in the generated table of linked bindings (nicsim_bindings_table.cc).
#include "devices/binding.h"

namespace nicsim::bindings {

const binding* find(const std::string& type) {
    for (const binding* b : all())
        if (b->name() == type)
            return b;
    return nullptr;
}

config::device_catalog catalog() {
    config::device_catalog c;
    for (const binding* b : all())
        c.devices.push_back(&b->keys());
    return c;
}

} // namespace nicsim::bindings
