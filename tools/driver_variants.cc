// SPDX-License-Identifier: MIT
//
// Driver variants known to this binary: whatever the composition root (sim/runner.cc)
// registered with set_driver_variant_lister() / set_driver_build_lister(), so the config layer
// links without the drivers.
#include "tools/config/config_loader.h"
#include "sim/runner.h"

namespace nicsim {
namespace {
driver_variant_lister g_lister = nullptr;
driver_build_lister g_build_lister = nullptr;
} // namespace

void set_driver_variant_lister(driver_variant_lister lister) {
    g_lister = lister;
}

std::vector<std::string> known_driver_variants() {
    return g_lister ? g_lister() : std::vector<std::string>{};
}

void set_driver_build_lister(driver_build_lister lister) {
    g_build_lister = lister;
}

driver_builds known_driver_builds() {
    return g_build_lister ? g_build_lister() : driver_builds{};
}

void add_known_drivers(config::load_options& o) {
    o.known_variants = known_driver_variants();
    const driver_builds b = known_driver_builds();
    o.known_builds.clear();
    for (const auto& d : b.built)
        o.known_builds.push_back(d.kernel + "/" + d.driver + "/" + d.variant);
    o.unbuilt_drivers = b.unbuilt;
}

} // namespace nicsim
