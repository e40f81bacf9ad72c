// SPDX-License-Identifier: MIT
//
// Driver variants known to this binary: whatever the composition root (testbench/runner.cc)
// registered with set_driver_variant_lister(), so the config layer links without the drivers.
#include "testbench/runner.h"

namespace nicsim {
namespace {
driver_variant_lister g_lister = nullptr;
}

void set_driver_variant_lister(driver_variant_lister lister) {
    g_lister = lister;
}

std::vector<std::string> known_driver_variants() {
    return g_lister ? g_lister() : std::vector<std::string>{};
}

} // namespace nicsim
