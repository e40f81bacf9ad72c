// SPDX-License-Identifier: MIT
//
// The composition root: picks the system for the scenario's device and bus, runs it once.
#include "testbench/runner.h"

#include <algorithm>

#include "driver/include/nicsim/driver_variant.h"
#include "testbench/system/ks8851_system.h"
#include "testbench/system/wilc1000_sdio_system.h"
#include "testbench/system/wilc1000_spi_system.h"

namespace nicsim {

namespace {
// The variants linked into this binary (the generated table of driver/CMakeLists.txt).
std::vector<std::string> linked_variants() {
    std::vector<std::string> names;
    for (const auto* const* v = nicsim_driver_variants; *v; ++v)
        if (std::find(names.begin(), names.end(), (*v)->name) == names.end())
            names.emplace_back((*v)->name);
    return names;
}
const bool registered = (set_driver_variant_lister(&linked_variants), true);
} // namespace

report::report run_scenario(const config::scenario_config& scenario,
                            const config::platform_profile& platform) {
    using config::bus_type;
    using config::device_type;
    if (scenario.device.type == device_type::wilc1000 && scenario.device.bus == bus_type::spi) {
        wilc1000_spi_system system("system", scenario, platform);
        return system.run();
    } else if (scenario.device.type == device_type::wilc1000 &&
               scenario.device.bus == bus_type::sdio) {
        wilc1000_sdio_system system("system", scenario, platform);
        return system.run();
    } else if (scenario.device.type == device_type::ks8851 &&
               (scenario.device.bus == bus_type::spi || scenario.device.bus == bus_type::par)) {
        // One system class for both KS8851 host buses; the scenario's device.bus selects.
        ks8851_system system("system", scenario, platform);
        return system.run();
    }
    throw run_error(std::string("not implemented yet: ") + config::to_string(scenario.device.type) +
                    "/" + config::to_string(scenario.device.bus));
}

} // namespace nicsim
